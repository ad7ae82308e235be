import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/account-delete";
import { DeleteAccountForm } from "../components/account/DeleteAccount.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { PRIVACY_MESSAGES } from "../lib/privacy.ts";
import { seo } from "../lib/seo.ts";
import { callAuthEndpoint, withCookies } from "../../server/auth/forward.ts";
import { getSessionInfo } from "../../server/auth/session.ts";
import { getDb } from "../../server/db/connection.ts";
import { deleteAccountAction, defaultPrivacyDeps } from "../../server/privacy/actions.ts";
import { identityCheck } from "../../server/privacy/confirm.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Delete your account",
    description: "Delete your ToolHub Wholesale account and personal data.",
    path: "/account/delete",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSessionInfo(request);
  if (new URL(request.url).searchParams.has("done") && !session) return { done: true as const, check: null };
  if (!session) throw redirect("/login");
  return { done: false as const, check: await identityCheck(getDb(), session) };
}

export async function action({ request }: Route.ActionArgs) {
  const outcome = await deleteAccountAction(getDb(), request, await getSessionInfo(request), defaultPrivacyDeps());
  if (outcome.kind === "sign-in") throw redirect("/login");
  if (outcome.kind === "refused")
    return data({ field: outcome.field, message: outcome.message }, { status: outcome.status });
  // The sessions are gone already; this answers with the cookies that clear them in the browser.
  const signOut = await callAuthEndpoint(request, "/sign-out", {});
  throw redirect("/account/delete?done=1", { headers: withCookies({}, signOut.setCookies) });
}

export default function DeleteAccount({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.done) {
    return (
      <>
        <PageHeader title="Account deleted" />
        <div className="mx-auto max-w-2xl space-y-4 px-4 py-10 text-slate-700">
          <p role="status" className="rounded-lg bg-green-50 p-4 text-green-900">
            {PRIVACY_MESSAGES.deleted}
          </p>
          <p>
            Your orders stay in our accounts without your personal details. You're welcome to register again at any
            time.
          </p>
          <Link to="/" className="btn-primary">
            Go Home
          </Link>
        </div>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Delete your account"
        intro="This can't be undone. Read what is erased and what we keep, then confirm below."
      />
      <DeleteAccountForm check={loaderData.check} error={actionData ?? undefined} />
    </>
  );
}
