import { Form, Link } from "react-router";
import { QUOTE_MESSAGE_MAX } from "../../lib/quotes.ts";
import { HeadedSection } from "../ui/HeadedSection.tsx";

/** Under the cart: "Request a quote" when the cart may ask for one (see app/lib/quotes.ts). */
export function RequestQuote({ offer }: { offer: { allowed: boolean; signedIn: boolean; minUnits: number } }) {
  if (!offer.allowed) {
    return offer.signedIn ? null : (
      <p className="mt-8 text-sm text-slate-700">
        Buying {offer.minUnits} units or more, or for a trade account?{" "}
        <Link to="/login" className="font-semibold text-brand-800 underline">
          Log in
        </Link>{" "}
        to request a quote.
      </p>
    );
  }
  return (
    <HeadedSection
      id="quote-heading"
      title="Need a better price?"
      headingClassName="text-lg font-bold text-ink"
      className="mt-10 max-w-xl rounded-xl border border-slate-200 p-6"
    >
      <p className="mt-1 text-sm text-slate-700">
        Send this cart to our team for a quote. We price each line and email you; you accept the quote at the checkout
        before it expires. Your cart stays as it is.
      </p>
      <Form method="post" action="/account/quotes" className="mt-4 space-y-3">
        <div>
          <label htmlFor="quote-message" className="block text-sm font-semibold text-ink">
            Message for our team (optional)
          </label>
          <textarea id="quote-message" name="message" rows={3} maxLength={QUOTE_MESSAGE_MAX} className="field mt-1" />
        </div>
        <button type="submit" className="btn-outline">
          Request a quote
        </button>
      </Form>
    </HeadedSection>
  );
}
