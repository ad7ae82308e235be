import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/account-quotes";
import { pageMarketContext } from "../lib/market-context.ts";
import { BackToAccount } from "../components/account/BackToAccount.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { LinesTable, type LineColumn } from "../components/ui/LinesTable.tsx";
import { QUOTE_STATE_LABELS } from "../lib/quotes.ts";
import { seo } from "../lib/seo.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { listQuotesForCustomer, requestQuote } from "../../server/quotes/quotes.ts";
import { ownerForUser } from "../../server/shopper/guest.ts";
import { requireCustomer } from "../../server/trade/guard.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Your quotes",
    description: "Your requests for a quote and our prices.",
    path: "/account/quotes",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireCustomer(request);
  return { quotes: await listQuotesForCustomer(getDb(), session.userId) };
}

/** "Request a quote" from the cart posts here. */
export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireCustomer(request);
  const form = await readSmallForm(request);
  try {
    const cfg = config();
    const number = await requestQuote(
      getDb(),
      {
        userId: session.userId,
        email: session.user.email,
        owner: ownerForUser(session.userId),
        market: context.get(pageMarketContext).market,
      },
      { message: form.get("message"), siteUrl: cfg.siteUrl, storeInbox: cfg.STORE_INBOX },
    );
    throw redirect(`/account/quotes/${number}?requested=1`, { status: 303 });
  } catch (error) {
    if (isDomainError(error)) return data({ ok: false, message: error.message }, { status: error.status });
    throw error;
  }
}

const date = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

type QuoteRow = Awaited<ReturnType<typeof listQuotesForCustomer>>[number];

const QUOTE_LIST_COLUMNS: LineColumn<QuoteRow>[] = [
  {
    header: "Quote",
    className: "py-2 pr-4",
    cell: (q) => (
      <Link to={`/account/quotes/${q.number}`} className="font-semibold text-brand-800 underline">
        {q.number}
      </Link>
    ),
  },
  { header: "Asked", className: "py-2 pr-4", cell: (q) => date(q.createdAt) },
  { header: "Valid until", className: "py-2 pr-4", cell: (q) => (q.validUntil ? date(q.validUntil) : "—") },
  { header: "State", className: "py-2", cell: (q) => QUOTE_STATE_LABELS[q.state] },
];

export default function AccountQuotes({ loaderData, actionData }: Route.ComponentProps) {
  const { quotes } = loaderData;
  return (
    <>
      <PageHeader
        title="Your quotes"
        intro="Ask for a quote from your cart; we price it and email you. Accept a quote at the checkout before it expires."
      />
      <div className="mx-auto max-w-4xl space-y-6 px-4 py-10 text-slate-700">
        {actionData && !actionData.ok ? (
          <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-900">
            {actionData.message}{" "}
            <Link to="/cart" className="font-semibold underline">
              Back to your cart
            </Link>
          </p>
        ) : null}
        {quotes.length === 0 ? (
          <p>
            You have no quotes yet. Fill your{" "}
            <Link to="/cart" className="font-semibold text-brand-800 underline">
              cart
            </Link>
            , then choose "Request a quote".
          </p>
        ) : (
          <LinesTable
            caption="Your quotes, the newest first"
            headRowClassName="border-b border-slate-300"
            rowClassName="border-b border-slate-200"
            columns={QUOTE_LIST_COLUMNS}
            lines={quotes}
            rowKey={(q) => q.number}
          />
        )}
        <BackToAccount />
      </div>
    </>
  );
}
