import { CLIENT_IP_HEADER, getAuth } from "./auth.ts";
import { authEndpointOpenTo } from "./http-surface.ts";

const FORWARDED_HEADERS = ["cookie", "origin", "referer", "user-agent", "sec-fetch-site", CLIENT_IP_HEADER];

export interface AuthCall {
  status: number;
  ok: boolean;
  body: Record<string, unknown> | null;
  response: Response;
  setCookies: string[];
}

/**
 * Calls a Better Auth endpoint through its HTTP handler (not auth.api), so no-JavaScript form
 * posts get the same rate limits and origin checks as browser fetches (DESIGN's pitfall).
 */
export async function callAuthEndpoint(
  request: Request,
  path: string,
  body?: unknown,
  method: "GET" | "POST" = "POST",
): Promise<AuthCall> {
  if (!authEndpointOpenTo("store", method, path))
    throw new Error(`${method} ${path} is not on the auth allow-list (server/auth/http-surface.ts)`);
  const url = new URL(`/api/auth${path}`, request.url);
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (body !== undefined) headers.set("content-type", "application/json");
  const response = await getAuth().handler(
    new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = (await response.clone().json()) as Record<string, unknown>;
  } catch {
    parsed = null;
  }
  return {
    status: response.status,
    ok: response.ok,
    body: parsed,
    response,
    setCookies: response.headers.getSetCookie(),
  };
}

export function withCookies(init: ResponseInit & { headers?: Headers }, cookies: string[]): Headers {
  const headers = new Headers(init.headers);
  for (const c of cookies) headers.append("Set-Cookie", c);
  return headers;
}
