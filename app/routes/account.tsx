import { Fragment } from "react";
import { data, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { AccountPanel } from "../components/account/AccountPanel.tsx";
import type { Route } from "./+types/account";
import { PasswordField } from "../components/account/PasswordField.tsx";
import { ActiveSessions } from "../components/account/ActiveSessions.tsx";
import { UserAvatar } from "../components/account/UserMenu.tsx";
import { YourData } from "../components/account/YourData.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { authErrorMessage } from "../lib/auth-errors.ts";
import { seo } from "../lib/seo.ts";
import { isSessionIntent } from "../lib/sessions.ts";
import { callAuthEndpoint, withCookies } from "../../server/auth/forward.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { checkNewPassword } from "../../server/auth/password-policy.ts";
import { getSessionInfo } from "../../server/auth/session.ts";
import { listSessions, sessionFormAction } from "../../server/auth/sessions.ts";
import { getDb } from "../../server/db/connection.ts";
import { identityCheck } from "../../server/privacy/confirm.ts";
import { companyOf } from "../../server/trade/company.ts";
import { formText } from "../lib/form-text.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Your account",
    description: "Your ToolHub Wholesale profile, password and sessions.",
    path: "/account",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSessionInfo(request);
  if (!session) throw redirect("/login");
  return {
    user: session.user,
    changed: new URL(request.url).searchParams.has("changed"),
    identity: await identityCheck(getDb(), session),
    sessions: await listSessions(getDb(), session.userId, session.sessionId),
    company: (await companyOf(getDb(), session.userId))?.company.name ?? null,
  };
}

/** After an "Active sessions" post, reload the list even when it failed (a session that ended meanwhile drops out). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return isSessionIntent(formData?.get("intent")) || defaultShouldRevalidate;
}

export const PASSWORD_CHANGED = "Your password has been changed. Other devices have been signed out.";

export async function action({ request }: Route.ActionArgs) {
  const session = await getSessionInfo(request);
  if (!session) throw redirect("/login");
  const form = await readSmallForm(request);
  const intent = form.get("intent");
  if (isSessionIntent(intent)) {
    const { status, ok, message } = await sessionFormAction(getDb(), request, session, form);
    return data({ intent, ok, message }, { status });
  }
  if (intent === "change-password") {
    const currentPassword = formText(form, "currentPassword");
    const newPassword = formText(form, "password");
    if (!currentPassword) return data({ intent, ok: false, message: "Enter your current password." }, { status: 400 });
    const policy = checkNewPassword(newPassword);
    if (!policy.ok) return data({ intent, ok: false, message: policy.message }, { status: 400 });
    const result = await callAuthEndpoint(request, "/change-password", {
      currentPassword,
      newPassword,
      revokeOtherSessions: true,
    });
    if (!result.ok) {
      const body = (result.body ?? {}) as { code?: string; message?: string };
      return data(
        { intent, ok: false, message: authErrorMessage("other", { status: result.status, ...body }) },
        { status: result.status },
      );
    }
    // Changing the password replaces this session too: send the new cookie with a fresh page load.
    throw redirect("/account?changed=1", { headers: withCookies({}, result.setCookies) });
  }
  return data({ intent: null, ok: false, message: "Unknown action." }, { status: 400 });
}

function Result({ show, ok, message }: { show: boolean; ok?: boolean; message?: string }) {
  if (!show || !message) return null;
  return (
    <p
      role="alert"
      className={`rounded-md p-3 text-sm ${ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
    >
      {message}
    </p>
  );
}

const ACCOUNT_LINKS = [
  ["/account/orders", "Your orders"],
  ["/quick-order", "Quick order"],
  ["/account/lists", "Saved lists"],
  ["/account/quotes", "Your quotes"],
] as const;

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { user, company } = loaderData;
  return (
    <>
      <PageHeader title="Your account" />
      <div className="mx-auto grid max-w-5xl gap-8 px-4 py-10 md:grid-cols-2">
        <AccountPanel headingId="profile-heading" title="Profile">
          <div className="mt-4 flex items-center gap-4">
            <UserAvatar {...user} />
            <dl>
              <dt className="sr-only">Name</dt>
              <dd className="font-semibold text-ink">{user.fullName || "—"}</dd>
              <dt className="sr-only">Email</dt>
              <dd className="text-slate-700">{user.email}</dd>
            </dl>
          </div>
          <p className="mt-6">
            {ACCOUNT_LINKS.map(([to, label], i) => (
              <Fragment key={to}>
                {i > 0 ? " · " : null}
                <Link to={to} className="font-semibold text-brand-800 hover:underline">
                  {label}
                </Link>
              </Fragment>
            ))}
          </p>
          <p className="mt-2">
            {company ? (
              <Link to="/account/company" className="font-semibold text-brand-800 hover:underline">
                Your company: {company}
              </Link>
            ) : (
              <Link to="/account/trade" className="font-semibold text-brand-800 hover:underline">
                Trade account for your business
              </Link>
            )}
          </p>
        </AccountPanel>
        <AccountPanel headingId="password-heading" title="Change password">
          <form method="post" className="mt-4 space-y-4" noValidate>
            <input type="hidden" name="intent" value="change-password" />
            <PasswordField
              id="current-password"
              name="currentPassword"
              autoComplete="current-password"
              label="Current password"
            />
            <PasswordField id="new-password" autoComplete="new-password" label="New password" />
            <Result show={actionData?.intent === "change-password"} ok={actionData?.ok} message={actionData?.message} />
            <Result show={!actionData && loaderData.changed} ok message={PASSWORD_CHANGED} />
            <button type="submit" className="btn-primary">
              Change password
            </button>
          </form>
        </AccountPanel>
        <ActiveSessions
          sessions={loaderData.sessions}
          result={actionData && isSessionIntent(actionData.intent) ? actionData : undefined}
        />
        <YourData check={loaderData.identity} />
      </div>
    </>
  );
}
