import { useState } from "react";
import { data, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/register";
import { AuthCard } from "../components/account/AuthCard.tsx";
import { EmailField } from "../components/account/EmailField.tsx";
import { PasswordField } from "../components/account/PasswordField.tsx";
import { useAlert } from "../components/ui/Alert.tsx";
import { postAuth } from "../lib/auth-client.ts";
import { authErrorMessage } from "../lib/auth-errors.ts";
import { AUTH_MESSAGES, checkRegistration, FULL_NAME_MAX } from "../lib/auth-rules.ts";
import { seo } from "../lib/seo.ts";
import { ALERT_MS } from "../lib/site.ts";
import { callAuthEndpoint } from "../../server/auth/forward.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { checkNewPassword } from "../../server/auth/password-policy.ts";
import { formText } from "../lib/form-text.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Register",
    description: "Create a ToolHub Wholesale account.",
    path: "/register",
    matches,
    noindex: true,
  });
}

/** The no-JavaScript path; the same rules run again inside the auth handler's hook. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readSmallForm(request);
  const fullName = formText(form, "fullName").slice(0, 200);
  const email = formText(form, "email").slice(0, 300);
  const password = formText(form, "password");
  const check = checkRegistration({ fullName, email, password });
  if (!check.ok) return data({ error: check.message, fullName, email }, { status: 400 });
  const policy = checkNewPassword(password);
  if (!policy.ok) return data({ error: policy.message, fullName, email }, { status: 400 });
  const result = await callAuthEndpoint(request, "/sign-up/email", {
    name: fullName.trim(),
    email: email.trim(),
    password,
  });
  if (!result.ok) {
    const body = (result.body ?? {}) as { code?: string; message?: string };
    const error = authErrorMessage("register", {
      status: result.status,
      code: body.code,
      message: body.message,
      retryAfterSeconds: Number(result.response.headers.get("x-retry-after")) || null,
    });
    return data({ error, fullName, email }, { status: result.status });
  }
  throw redirect(`/login?registered=1&email=${encodeURIComponent(email.trim())}`);
}

export default function Register({ actionData }: Route.ComponentProps) {
  const alert = useAlert();
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fullName = formText(form, "fullName").trim();
    const email = formText(form, "email").trim();
    const password = formText(form, "password");
    setError(null);
    const check = checkRegistration({ fullName, email, password });
    if (!check.ok) return alert.show(check.message, { tone: "error", durationMs: ALERT_MS });
    setSubmitting(true);
    const result = await postAuth("/sign-up/email", { name: fullName, email, password }, "register");
    if (!result.ok) {
      setSubmitting(false);
      setError(result.message);
      alert.show(result.message, { tone: "error", durationMs: 4000 });
      return;
    }
    alert.show(AUTH_MESSAGES.registered, { tone: "success", durationMs: ALERT_MS });
    window.setTimeout(() => void navigate("/login", { state: { email, password } }), ALERT_MS);
  }

  const shown = error ?? actionData?.error ?? null;
  return (
    <AuthCard title="Register" footer={{ text: "Already have an account?", linkText: "Login", to: "/login" }}>
      <form method="post" className="space-y-4" noValidate onSubmit={onSubmit}>
        <div>
          <label htmlFor="register-name" className="block text-sm font-semibold text-ink">
            Full name
          </label>
          <input
            id="register-name"
            name="fullName"
            type="text"
            autoComplete="name"
            maxLength={FULL_NAME_MAX}
            defaultValue={actionData?.fullName}
            className="field mt-1"
          />
        </div>
        <EmailField id="register-email" defaultValue={actionData?.email} />
        <PasswordField id="register-password" autoComplete="new-password" />
        <p className="text-xs text-slate-600">At least 6 characters. Common passwords are not accepted.</p>
        {shown ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
            {shown}
          </p>
        ) : null}
        <button type="submit" className="btn-primary w-full" disabled={submitting}>
          Register
        </button>
      </form>
    </AuthCard>
  );
}
