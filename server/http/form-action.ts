import { data, redirect } from "react-router";
import { FormTooLargeError, readFormData } from "../../app/lib/forms.ts";
import { isDomainError } from "../errors.ts";
import { resolveShopper } from "../shopper/identity.ts";
import { MAX_FORM_BYTES } from "./body-limit.ts";
import { isDataRequest } from "./request.ts";

export { MAX_FORM_BYTES };

/**
 * Reads a small urlencoded or multipart form: the one way route actions read a body. Over
 * `maxBytes` (declared, or counted as it streams) is a 413; a body that isn't a form is a 400.
 * In the running store server/http/body-limit.ts has already cut off anything over the cap.
 */
export async function readSmallForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const tooLarge = () => data("The form is too large.", { status: 413 });
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  let seen = 0;
  const body = request.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new Error("form too large"));
        else controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Response(body ?? null, {
      headers: { "content-type": request.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw seen > maxBytes ? tooLarge() : data("The form could not be read.", { status: 400 });
  }
}

/** The posted form as readFormData reads it, or, over its limit, the message a 413 answer shows. */
export async function readFormOrTooLarge(request: Request): Promise<FormData | { tooLarge: string }> {
  try {
    return await readFormData(request);
  } catch (error) {
    if (error instanceof FormTooLargeError) return { tooLarge: error.message };
    throw error;
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
    if (isDomainError(error))
      return data({ ok: false, message: error.message }, { status: error.status, headers: options.headers });
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
