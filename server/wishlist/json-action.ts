import { isTrustedOrigin } from "../auth/origins.ts";
import type { Db } from "../db/connection.ts";
import { isDomainError } from "../errors.ts";
import { MAX_FORM_BYTES } from "../http/form-action.ts";
import { resolveShopper } from "../shopper/identity.ts";
import { applyWishlistAction } from "./actions.ts";
import { shopperMarket } from "../shopper/market.ts";

const json = (body: { ok: boolean; message: string }, status: number, headers: Headers) =>
  Response.json(body, { status, headers });

/**
 * The wishlist's form post answered as JSON, for the browser's keepalive fetch (WishlistToggle):
 * the request outlives the page, so a toggle made just before leaving still lands, and a new
 * guest still gets the cookie that owns it.
 */
export async function wishlistJsonAction(
  db: Db,
  request: Request,
  allowedOrigins: Parameters<typeof isTrustedOrigin>[1],
): Promise<Response> {
  const headers = new Headers({ "cache-control": "no-store" });
  if (request.method !== "POST") {
    headers.set("allow", "POST");
    return json({ ok: false, message: "Use POST." }, 405, headers);
  }
  if (!isTrustedOrigin(request.headers, allowedOrigins))
    return json({ ok: false, message: "This request's origin is not allowed." }, 403, headers);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES)
    return json({ ok: false, message: "The form is too large." }, 413, headers);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return json({ ok: false, message: "The form could not be read." }, 400, headers);
  }
  const shopper = await resolveShopper(request, { create: true });
  try {
    const { market } = await shopperMarket(db, request);
    const { message } = await applyWishlistAction(db, shopper.owner, form, market);
    if (shopper.setCookie) headers.append("Set-Cookie", shopper.setCookie);
    return json({ ok: true, message }, 200, headers);
  } catch (error) {
    if (isDomainError(error)) return json({ ok: false, message: error.message }, error.status, headers);
    throw error;
  }
}
