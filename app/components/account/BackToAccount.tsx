import { Link } from "react-router";

/** The link under an account page's content, back to the account's overview. */
export function BackToAccount() {
  return (
    <p>
      <Link to="/account" className="font-semibold text-brand-800 hover:underline">
        Back to your account
      </Link>
    </p>
  );
}
