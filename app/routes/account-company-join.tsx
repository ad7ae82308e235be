import { data, Link, redirect } from "react-router";
import { PostButton } from "../components/ui/PostButton.tsx";
import type { Route } from "./+types/account-company-join";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { seo } from "../lib/seo.ts";
import { COMPANY_ROLE_LABELS, isCompanyRole } from "../../server/auth/company-roles.ts";
import { getSessionInfo } from "../../server/auth/session.ts";
import { getDb } from "../../server/db/connection.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { answerInvitation } from "../../server/trade/company-actions.ts";
import { invitationForRecipient } from "../../server/trade/company.ts";
import { requireCustomer } from "../../server/trade/guard.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Join your company",
    description: "Accept an invitation to a company's trade account.",
    path: "/account/company/join",
    matches,
    noindex: true,
  });
}

function maskEmail(email: string): string {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 2)}…@${domain}`;
}

export async function loader({ request }: Route.LoaderArgs) {
  const invitationId = new URL(request.url).searchParams.get("invitation")?.slice(0, 100) ?? "";
  const session = await getSessionInfo(request);
  const invitation = invitationId ? await invitationForRecipient(getDb(), invitationId) : undefined;
  const usable = invitation && invitation.status === "pending" && new Date(invitation.expiresAt).getTime() > Date.now();
  if (!usable) return { state: "gone" as const, invitationId };
  if (!session)
    return {
      state: "sign-in" as const,
      invitationId,
      email: maskEmail(invitation.email),
      company: invitation.company_name,
    };
  const forYou = invitation.email.toLowerCase() === session.user.email.toLowerCase();
  return {
    state: forYou ? ("open" as const) : ("other-email" as const),
    invitationId,
    email: maskEmail(invitation.email),
    company: invitation.company_name,
    role: isCompanyRole(invitation.role) ? COMPANY_ROLE_LABELS[invitation.role] : "Buyer",
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireCustomer(request);
  const form = await readSmallForm(request);
  const accept = form.get("intent") === "accept";
  const result = await answerInvitation(request, form, accept);
  if (result.ok) throw redirect(accept ? "/account/company" : "/account", { status: 303 });
  return data({ message: result.message }, { status: result.status });
}

export default function JoinCompany({ loaderData, actionData }: Route.ComponentProps) {
  const l = loaderData;
  return (
    <>
      <PageHeader title="Join your company" />
      <div className="mx-auto max-w-2xl space-y-4 px-4 py-10 text-slate-700">
        {actionData ? (
          <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-900">
            {actionData.message}
          </p>
        ) : null}
        {l.state === "gone" ? (
          <p>
            This invitation no longer exists: it was cancelled, used or has expired. Ask your company's owner to send a
            new one.
          </p>
        ) : l.state === "sign-in" ? (
          <p>
            {l.company} invited {l.email} to order on its trade account.{" "}
            <Link to="/login" className="font-semibold text-brand-800 hover:underline">
              Log in
            </Link>{" "}
            or{" "}
            <Link to="/register" className="font-semibold text-brand-800 hover:underline">
              create an account
            </Link>{" "}
            with that email address, then open the link in the invitation again.
          </p>
        ) : l.state === "other-email" ? (
          <p>
            This invitation was sent to {l.email}, not to the address you're signed in with. Sign in with that address
            to accept it.
          </p>
        ) : (
          <>
            <p>
              {l.company} invites you to order on its trade account as <strong>{l.role}</strong>. You'll see the
              company's prices and its orders will carry its details.
            </p>
            <div className="flex flex-wrap gap-3">
              <PostButton fields={{ invitationId: l.invitationId, intent: "accept" }} className="btn-primary">
                Accept invitation
              </PostButton>
              <PostButton
                fields={{ invitationId: l.invitationId, intent: "decline" }}
                className="rounded-md border border-slate-300 px-4 py-2 font-semibold text-ink hover:bg-slate-100"
              >
                Decline
              </PostButton>
            </div>
          </>
        )}
      </div>
    </>
  );
}
