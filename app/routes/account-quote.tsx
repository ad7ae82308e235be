import { data, Form, Link } from "react-router";
import type { Route } from "./+types/account-quote";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { QuoteLinesTable } from "../components/quotes/QuoteLinesTable.tsx";
import { formatMoney } from "../lib/money.ts";
import { QUOTE_STATE_LABELS } from "../lib/quotes.ts";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { declineQuote, quoteForCustomer } from "../../server/quotes/quotes.ts";
import { requireCustomer } from "../../server/trade/guard.ts";
import { longDate } from "../lib/dates.ts";
import { PostAnswer } from "../components/ui/PostAnswer.tsx";

export function meta({ matches, params }: Route.MetaArgs) {
  return seo({
    title: `Quote ${params.number}`,
    description: "Your quote.",
    path: `/account/quotes/${params.number}`,
    matches,
    noindex: true,
  });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const session = await requireCustomer(request);
  const quote = await quoteForCustomer(getDb(), session.userId, params.number);
  if (!quote) throw data("There is no such quote on your account.", { status: 404 });
  const { user_id: _u, email: _e, ...view } = quote;
  return { quote: view, requested: new URL(request.url).searchParams.get("requested") === "1" };
}

export async function action({ request, params }: Route.ActionArgs) {
  const session = await requireCustomer(request);
  const form = await readSmallForm(request);
  if (form.get("intent") !== "decline")
    return data({ ok: false, message: "Unknown action. Reload the page and try again." }, { status: 400 });
  try {
    return { ok: true, message: await declineQuote(getDb(), session.userId, params.number) };
  } catch (error) {
    if (isDomainError(error)) return data({ ok: false, message: error.message }, { status: error.status });
    throw error;
  }
}

export default function AccountQuote({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, requested } = loaderData;
  const status =
    actionData ??
    (requested
      ? {
          ok: true,
          message: `Your quote request ${quote.number} is sent. We'll email you when it is priced; your cart is kept as it is.`,
        }
      : null);
  return (
    <>
      <PageHeader title={`Quote ${quote.number}`} intro={QUOTE_STATE_LABELS[quote.state]} />
      <div className="mx-auto max-w-5xl space-y-6 px-4 py-10 text-slate-700">
        <PostAnswer answer={status} />
        {quote.state === "quoted" ? (
          <p className="rounded-lg bg-blue-50 p-4 text-blue-950">
            Our prices hold until the end of <strong>{longDate(quote.valid_until!)}</strong>. Accept the quote at the
            checkout to order at these prices (paid on delivery or by invoice).
          </p>
        ) : null}
        {quote.state === "expired" ? (
          <p className="rounded-lg bg-amber-50 p-4 text-amber-950">
            This quote expired on {longDate(quote.valid_until!)}. Ask for a new quote from your cart.
          </p>
        ) : null}
        {quote.state === "requested" ? (
          <p>We're pricing your request; we'll email you as soon as the quote is ready.</p>
        ) : null}
        {quote.state === "accepted" && quote.orderNumber ? (
          <p>
            Accepted: it became order{" "}
            <Link to={`/account/orders/${quote.orderNumber}`} className="font-semibold text-brand-800 underline">
              {quote.orderNumber}
            </Link>
            .
          </p>
        ) : null}
        <QuoteLinesTable lines={quote.lines} caption={`Lines of quote ${quote.number}`} />
        <p className="font-semibold text-ink">
          {quote.quotedTotalCents != null
            ? `Quoted total for the goods: ${formatMoney(quote.quotedTotalCents)}`
            : `Total at your prices when you asked: ${formatMoney(quote.requestedTotalCents)}`}
        </p>
        {quote.staff_note ? <p className="whitespace-pre-wrap">Note from our team: {quote.staff_note}</p> : null}
        {quote.message ? <p className="whitespace-pre-wrap">Your message: {quote.message}</p> : null}
        <div className="flex flex-wrap items-center gap-4">
          {quote.state === "quoted" ? (
            <Link to={`/checkout?quote=${quote.number}`} className="btn-primary">
              Accept and check out
            </Link>
          ) : null}
          {quote.state === "quoted" || quote.state === "requested" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="decline" />
              <button type="submit" className="btn-outline">
                {quote.state === "quoted" ? "Decline quote" : "Withdraw request"}
              </button>
            </Form>
          ) : null}
        </div>
        <p>
          <Link to="/account/quotes" className="font-semibold text-brand-800 hover:underline">
            All your quotes
          </Link>
        </p>
      </div>
    </>
  );
}
