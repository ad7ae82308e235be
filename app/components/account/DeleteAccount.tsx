import { Form, Link } from "react-router";
import { DELETE_CONFIRMATION_WORD, type IdentityCheck } from "../../lib/privacy.ts";
import { IdentityConfirmation } from "./YourData.tsx";
import { HeadedSection } from "../ui/HeadedSection.tsx";

export interface DeleteAccountError {
  field: "confirm" | "password" | null;
  message: string;
}

/** What the deletion erases and what it keeps, then the confirmation form. */
export function DeleteAccountForm({ check, error }: { check: IdentityCheck; error?: DeleteAccountError }) {
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 text-slate-700">
      <HeadedSection id="erased-heading" title="What is erased" headingClassName="text-lg font-bold text-ink">
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>Your account: name, email, password and Google sign-in. You're signed out on every device.</li>
          <li>Your cart, your wishlist, your newsletter subscription and the messages you sent us from this email.</li>
          <li>The emails we sent you, from our records.</li>
          <li>
            Your quote requests that didn't become an order, and your trade account applications (an approved one keeps
            only the company's name, country and tax number).
          </li>
        </ul>
      </HeadedSection>
      <HeadedSection id="kept-heading" title="What we keep" headingClassName="text-lg font-bold text-ink">
        <p className="mt-2">
          Your orders, because we must keep them for our accounts: order number, items, totals, dates, status, payment
          method, and the country, region and postcode district they were shipped to. Your name, email, street address,
          business name and tax number are removed from them, and the order links in your emails stop working.
        </p>
        <p className="mt-2">Accepted quotes, with their items and prices, without your email or message.</p>
        <p className="mt-2">You can register again later with the same email: it will be a new, empty account.</p>
      </HeadedSection>
      <Form method="post" reloadDocument noValidate className="space-y-4 rounded-xl border border-red-200 p-6">
        {error && !error.field ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
            {error.message}
          </p>
        ) : null}
        <div>
          <label htmlFor="confirm-delete" className="block text-sm font-semibold text-ink">
            Type {DELETE_CONFIRMATION_WORD} to confirm
          </label>
          <input
            id="confirm-delete"
            name="confirm"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            className="field mt-1"
            aria-invalid={error?.field === "confirm" || undefined}
            aria-describedby={error?.field === "confirm" ? "confirm-delete-error" : undefined}
          />
          {error?.field === "confirm" ? (
            <p id="confirm-delete-error" role="alert" className="mt-1 text-sm text-red-800">
              {error.message}
            </p>
          ) : null}
        </div>
        <IdentityConfirmation check={check} id="delete-password" />
        {error?.field === "password" ? (
          <p role="alert" className="text-sm text-red-800">
            {error.message}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800">
            Delete my account
          </button>
          <Link to="/account" className="btn-outline">
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}
