import { AUTH_MESSAGES, type PublicUser } from "./auth-rules.ts";
import { authErrorMessage, readAuthFailure } from "./auth-errors.ts";

export type AuthResult<T = Record<string, unknown>> =
  { ok: true; data: T } | { ok: false; message: string; status: number };

/** Browser calls to the auth HTTP handler, with every failure turned into a sentence for the page. */
export async function postAuth<T = Record<string, unknown>>(
  path: string,
  body: unknown,
  kind: "login" | "register" | "other" = "other",
): Promise<AuthResult<T>> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: AUTH_MESSAGES.network, status: 0 };
  }
  if (!response.ok)
    return { ok: false, status: response.status, message: authErrorMessage(kind, await readAuthFailure(response)) };
  try {
    return { ok: true, data: (await response.json()) as T };
  } catch {
    return { ok: true, data: {} as T };
  }
}

export function toPublicUser(user: { name?: string | null; email: string; image?: string | null }): PublicUser {
  return { fullName: user.name ?? "", email: user.email, profilePhoto: user.image ?? null };
}
