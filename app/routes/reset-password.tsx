import { useState } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/reset-password";
import { PasswordField } from "../components/account/PasswordField.tsx";
import { authErrorMessage } from "../lib/auth-errors.ts";
import { seo } from "../lib/seo.ts";
import { callAuthEndpoint } from "../../server/auth/forward.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { checkNewPassword } from "../../server/auth/password-policy.ts";
import { formText } from "../lib/form-text.ts";

export const PASSWORD_RESET_DONE =
  "Your password has been changed. You've been signed out everywhere else — log in with your new password.";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Choose a new password",
    description: "Set a new password for your ToolHub Wholesale account.",
    path: "/reset-password",
    matches,
    noindex: true,
  });
}

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  return { token: params.get("token")?.slice(0, 200) ?? "", invalid: params.get("error") === "INVALID_TOKEN" };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readSmallForm(request);
  const token = formText(form, "token").slice(0, 200);
  const newPassword = formText(form, "password");
  const policy = checkNewPassword(newPassword);
  if (!policy.ok) return data({ ok: false, message: policy.message }, { status: 400 });
  if (!token)
    return data(
      { ok: false, message: "This reset link is invalid or has expired. Request a new one." },
      { status: 400 },
    );
  const result = await callAuthEndpoint(request, "/reset-password", { token, newPassword });
  if (!result.ok) {
    const body = (result.body ?? {}) as { code?: string; message?: string };
    const message =
      body.code === "INVALID_TOKEN"
        ? "This reset link is invalid or has expired. Request a new one."
        : authErrorMessage("other", { status: result.status, ...body });
    return data({ ok: false, message }, { status: result.status });
  }
  return { ok: true, message: PASSWORD_RESET_DONE };
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [pending, setPending] = useState(false);
  if (loaderData.invalid || !loaderData.token) {
    return (
      <div className="mx-auto max-w-md px-4 py-12">
        <h1 className="text-2xl font-bold text-ink">Choose a new password</h1>
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-900">
          This reset link is invalid or has expired. Request a new one.
        </p>
        <Link to="/forgot-password" className="btn-primary mt-6">
          Request a new link
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold text-ink">Choose a new password</h1>
      {actionData?.ok ? (
        <>
          <p role="alert" className="mt-4 rounded-md bg-green-50 p-3 text-sm text-green-900">
            {actionData.message}
          </p>
          <Link to="/login" className="btn-primary mt-6">
            Login
          </Link>
        </>
      ) : (
        <form method="post" className="mt-6 space-y-4" noValidate onSubmit={() => setPending(true)}>
          <input type="hidden" name="token" value={loaderData.token} />
          <PasswordField id="reset-password" autoComplete="new-password" label="New password" />
          {actionData?.message ? (
            <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
              {actionData.message}
            </p>
          ) : null}
          <button type="submit" className="btn-primary w-full" disabled={pending && !actionData}>
            Set new password
          </button>
        </form>
      )}
    </div>
  );
}
