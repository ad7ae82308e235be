import { Link, useSearchParams } from "react-router";
import { AccountPanel } from "./AccountPanel.tsx";
import { DATA_DOWNLOAD_ERRORS, type IdentityCheck, PRIVACY_MESSAGES } from "../../lib/privacy.ts";
import { PasswordField } from "./PasswordField.tsx";

/** What confirms it's the owner: the password field, or for an account without one, a recent sign-in. */
export function IdentityConfirmation({ check, id }: { check: IdentityCheck; id: string }) {
  if (check.hasPassword)
    return <PasswordField id={id} name="password" autoComplete="current-password" label="Your password" />;
  if (check.freshSignIn)
    return (
      <p className="text-sm text-slate-700">
        You signed in a moment ago without a password (Google or an email link), so that confirms it's you.
      </p>
    );
  return (
    <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-950">
      {PRIVACY_MESSAGES.signInAgain}{" "}
      <Link to="/logout" className="font-semibold text-brand-800 underline">
        Sign out
      </Link>
    </p>
  );
}

/** The account page's "Your data": download everything as JSON, or go to the deletion page. */
export function YourData({ check }: { check: IdentityCheck }) {
  const [params] = useSearchParams();
  const error = DATA_DOWNLOAD_ERRORS[params.get("data-error") ?? ""];
  return (
    <AccountPanel id="your-data" headingId="your-data-heading" title="Your data" wide>
      <p className="mt-2 text-sm text-slate-700">
        Download a copy of what we hold about you as a JSON file: your account, the addresses and details of your
        orders, your quotes and trade account applications, your wishlist, cart and newsletter status.
      </p>
      {/* A plain form: the answer is a file download, which the browser handles itself. */}
      <form method="post" action="/account/data" className="mt-4 max-w-md space-y-4">
        {error ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
            {error}
          </p>
        ) : null}
        <IdentityConfirmation check={check} id="data-password" />
        <button type="submit" className="btn-primary">
          Download your data
        </button>
      </form>
      <h3 className="mt-8 font-semibold text-ink">Delete your account</h3>
      <p className="mt-1 text-sm text-slate-700">
        Erases your account and personal details for good. Your orders are kept for our accounts, without your name,
        email or address.
      </p>
      <Link to="/account/delete" className="btn-outline mt-3">
        Delete your account
      </Link>
    </AccountPanel>
  );
}
