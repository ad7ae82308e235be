import { data, redirect } from "react-router";
import { isDomainError } from "../errors.ts";
import { resolveShopper } from "../shopper/identity.ts";
import { isDataRequest } from "./request.ts";

export const MAX_FORM_BYTES = 16 * 1024;

/** Reads a small urlencoded or multipart form; a body that is too large is a 413. */
export async function readSmallForm(request: Request): Promise<FormData> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES) {
    throw data("The form is too large.", { status: 413 });
  }
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read.", { status: 400 });
  }
}

/**
 * Runs a form action's domain step and answers both ways: fetchers get { ok, message } data;
 * a page without JavaScript is redirected (success) or shown the page with the message (failure).
 */
export async function answerFormAction(
  request: Request,
  run: () => Promise<{ message: string }>,
  options: { redirectTo: string; headers?: HeadersInit },
) {
  try {
    const { message } = await run();
    if (isDataRequest(request)) return data({ ok: true, message }, { headers: options.headers });
    throw redirect(options.redirectTo, { headers: options.headers });
  } catch (error) {
    if (isDomainError(error)) return data({ ok: false, message: error.message }, { status: error.status, headers: options.headers });
    throw error;
  }
}

/**
 * The cart's and wishlist's form actions: who is shopping (a guest gets a cookie on first use),
 * the posted form, and the domain step, answered as answerFormAction does.
 */
export async function shopperFormAction(
  request: Request,
  run: (owner: string, form: FormData) => Promise<{ message: string }>,
  redirectTo: (form: FormData) => string,
) {
  const shopper = await resolveShopper(request, { create: true });
  const form = await readSmallForm(request);
  const headers = shopper.setCookie ? { "Set-Cookie": shopper.setCookie } : undefined;
  return answerFormAction(request, () => run(shopper.owner, form), { redirectTo: redirectTo(form), headers });
}
