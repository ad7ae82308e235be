import { data, redirect } from "react-router";
import type { Route } from "./+types/two-factor";
import { VerifyCodeForms } from "../components/admin/TwoFactorForms.tsx";
import { seo } from "../lib/seo.ts";
import { withCookies } from "../../server/auth/forward.ts";
import { STAFF_ROLES } from "../../server/auth/permissions.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { verifyCode } from "../../server/staff/two-factor.ts";
import { formText } from "../lib/form-text.ts";

/** The second step of a password sign-in for an account with two-factor authentication. */
export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Enter your code",
    description: "Second step of signing in to ToolHub Wholesale.",
    path: "/two-factor",
    matches,
    noindex: true,
  });
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

/** The plugin's short-lived cookie that says a password was accepted and a code is awaited. */
const pending = (request: Request) =>
  /(?:^|;\s*)(?:__Secure-)?better-auth\.two_factor=/.test(request.headers.get("cookie") ?? "");

export function loader({ request }: Route.LoaderArgs) {
  if (!pending(request)) throw redirect("/login");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  if (!pending(request)) throw redirect("/login");
  const form = await readSmallForm(request);
  const kind = form.get("kind") === "backup" ? "backup" : "totp";
  const verified = await verifyCode(request, kind, formText(form, "code").slice(0, 64));
  if (!verified.ok) return data({ error: verified.message, kind }, { status: verified.status });
  const staff = (STAFF_ROLES as readonly string[]).includes(verified.value.role ?? "");
  throw redirect(staff ? "/admin" : "/", { headers: withCookies({}, verified.setCookies) });
}

export default function TwoFactorSignIn({ actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <div className="rounded-xl border border-slate-200 p-8 shadow-sm">
        <h1 className="text-center text-2xl font-bold text-ink">Enter your code</h1>
        <p className="mt-4 text-slate-700">
          Your account uses two-factor authentication. Enter the 6-digit code from your authenticator app.
        </p>
        <VerifyCodeForms error={actionData?.error} kind={actionData?.kind === "backup" ? "backup" : "totp"} />
      </div>
    </div>
  );
}
