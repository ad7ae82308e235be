import { Link } from "react-router";

/** The link under a page's content, back to the overview it belongs to. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <p>
      <Link to={to} className="font-semibold text-brand-800 hover:underline">
        {label}
      </Link>
    </p>
  );
}

/** The link under an account page's content, back to the account's overview. */
export function BackToAccount() {
  return <BackLink to="/account" label="Back to your account" />;
}
