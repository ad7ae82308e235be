/**
 * A raw HTTP client for the reliability tests. node:http rather than fetch: the path goes out as
 * written (no `../` folding, malformed `%` escapes kept), any method and content type can be
 * sent, and redirects are not followed, so a test sees exactly what the server answered.
 */
import http from "node:http";
import type { CookieJar } from "../../support/cookie-jar.ts";

export interface RawRequest {
  method: string;
  /** Path and query as sent on the request line. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  setCookies: string[];
  location: string | null;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** Characters node:http refuses on a request line (outside 0x21–0xFF) are percent-encoded; the rest go raw. */
function rawPath(path: string): string {
  return path.replace(/[^\u0021-\u00ff]/gu, (c) => encodeURIComponent(/^[\uD800-\uDFFF]$/.test(c) ? "\uFFFD" : c));
}

export function send(baseUrl: string, request: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  return sendOnce(baseUrl, request, timeoutMs).catch((error: Error & { reusedSocket?: boolean; code?: string }) => {
    // A kept-alive socket the server closed just as it was reused: the request never reached the
    // server, so sending it again is what every HTTP client does (see Node's docs on reusedSocket).
    if (error.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE"))
      return sendOnce(baseUrl, request, timeoutMs);
    throw error;
  });
}

function sendOnce(baseUrl: string, request: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body =
    request.body === undefined
      ? undefined
      : Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(request.body, "utf8");
  const headers: Record<string, string | number> = { ...request.headers };
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-length"))
    headers["content-length"] = body.length;
  return new Promise((resolve, reject) => {
    let answered: RawResponse | null = null;
    const req = http.request(
      // A large maxHeaderSize: an answer with oversized headers (a long Location) is still read and judged.
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: rawPath(request.path),
        headers,
        timeout: timeoutMs,
        maxHeaderSize: 1024 * 1024,
      },
      (res) => {
        const chunks: Buffer[] = [];
        const setCookie = res.headers["set-cookie"] ?? [];
        const finish = () => {
          const buffer = Buffer.concat(chunks);
          answered = {
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: buffer,
            text: () => buffer.toString("utf8"),
            setCookies: Array.isArray(setCookie) ? setCookie : [setCookie],
            location: typeof res.headers.location === "string" ? res.headers.location : null,
          };
          resolve(answered);
        };
        res.on("data", (c: Buffer) => chunks.push(c));
        // The server may answer (413, 431) and close before it has read the whole body: the
        // answer counts, whatever happens to the socket after it.
        res.on("error", finish);
        res.on("aborted", finish);
        res.on("end", finish);
      },
    );
    req.on("timeout", () =>
      req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })),
    );
    req.on("error", (error: Error & { reusedSocket?: boolean }) => {
      if (answered) return;
      error.reusedSocket = req.reusedSocket;
      reject(error);
    });
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

export { CookieJar } from "../../support/cookie-jar.ts";

export function urlencoded(fields: Record<string, string> | [string, string][]): string {
  return new URLSearchParams(Array.isArray(fields) ? fields : Object.entries(fields)).toString();
}

/** Headers of a same-origin browser form post (what origin checks expect). */
export function formHeaders(baseUrl: string, jar?: CookieJar, ip?: string): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: baseUrl,
    "sec-fetch-site": "same-origin",
  };
  if (jar?.header()) headers.cookie = jar.header();
  if (ip) headers["x-forwarded-for"] = ip;
  return headers;
}

export function jsonHeaders(baseUrl: string, jar?: CookieJar, ip?: string): Record<string, string> {
  return { ...formHeaders(baseUrl, jar, ip), "content-type": "application/json" };
}
