import { useState } from "react";
import { data } from "react-router";
import type { Route } from "./+types/forgot-password";
import { EmailField } from "../components/account/EmailField.tsx";
import { postAuth } from "../lib/auth-client.ts";
import { authErrorMessage } from "../lib/auth-errors.ts";
import { isValidEmail } from "../lib/auth-rules.ts";
import { seo } from "../lib/seo.ts";
import { callAuthEndpoint } from "../../server/auth/forward.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { formText } from "../lib/form-text.ts";

export const RESET_REQUESTED =
  "If an account uses that email, we've sent it a link to choose a new password. The link works once, for one hour.";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Forgot password",
    description: "Reset the password of your ToolHub Wholesale account.",
    path: "/forgot-password",
    matches,
    noindex: true,
  });
}

export async function action({ request }: Route.ActionArgs) {
  const email = formText(await readSmallForm(request), "email")
    .trim()
    .slice(0, 300);
  if (!isValidEmail(email)) return data({ ok: false, message: "Enter a valid email address", email }, { status: 400 });
  const result = await callAuthEndpoint(request, "/request-password-reset", { email, redirectTo: "/reset-password" });
  if (!result.ok) {
    const body = (result.body ?? {}) as { code?: string; message?: string };
    return data(
      {
        ok: false,
        message: authErrorMessage("other", {
          status: result.status,
          ...body,
          retryAfterSeconds: Number(result.response.headers.get("x-retry-after")) || null,
        }),
        email,
      },
      { status: result.status },
    );
  }
  return { ok: true, message: RESET_REQUESTED, email };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), "email").trim();
    if (!isValidEmail(email)) return setResult({ ok: false, message: "Enter a valid email address" });
    setBusy(true);
    const response = await postAuth("/request-password-reset", { email, redirectTo: "/reset-password" });
    setBusy(false);
    setResult(response.ok ? { ok: true, message: RESET_REQUESTED } : { ok: false, message: response.message });
  }
  const shown = result ?? actionData ?? null;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold text-ink">Forgot your password?</h1>
      <p className="mt-2 text-slate-700">Enter your email and we'll send you a link to choose a new one.</p>
      <form method="post" className="mt-6 space-y-4" noValidate onSubmit={onSubmit}>
        <EmailField id="forgot-email" defaultValue={actionData?.email} />
        {shown ? (
          <p
            role="alert"
            className={`rounded-md p-3 text-sm ${shown.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
          >
            {shown.message}
          </p>
        ) : null}
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          Send reset link
        </button>
      </form>
    </div>
  );
}
