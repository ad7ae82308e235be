import { Form, useLocation } from "react-router";
import { MARKETS, marketChoiceLabel, type MarketId } from "../../lib/markets.ts";
import { CURRENCY_NAMES } from "../../lib/money.ts";

/**
 * The market picker: a labelled select and a Change button posting to /market, which remembers
 * the choice and comes back to this page (without JavaScript too).
 */
export function MarketPicker({ market, id }: { market: MarketId; id: string }) {
  const { pathname, search } = useLocation();
  return (
    <Form method="post" action="/market" className="flex items-center gap-2">
      <input type="hidden" name="returnTo" value={`${pathname}${search}`} />
      <label htmlFor={id} className="font-medium text-slate-700">
        Market
      </label>
      <select
        id={id}
        name="market"
        defaultValue={market}
        key={market}
        className="rounded border border-slate-300 bg-white px-2 py-1 text-sm text-ink"
      >
        {Object.values(MARKETS).map((m) => (
          <option key={m.id} value={m.id}>
            {marketChoiceLabel(m)}
          </option>
        ))}
      </select>
      <button type="submit" className="btn-outline px-2 py-1">
        Change market
      </button>
    </Form>
  );
}

/**
 * Offers a first-time visitor the market their browser points at, with both answers as buttons;
 * either one is a choice, so the offer is not made again. Never switches by itself.
 */
export function MarketProposal({ current, proposal }: { current: MarketId; proposal: MarketId }) {
  const { pathname, search } = useLocation();
  const offered = MARKETS[proposal];
  const kept = MARKETS[current];
  return (
    <section aria-label="Market suggestion" className="border-b border-amber-200 bg-amber-50">
      <Form
        method="post"
        action="/market"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 text-sm"
      >
        <input type="hidden" name="returnTo" value={`${pathname}${search}`} />
        <p className="text-ink">
          {`Shopping from the ${offered.name}? See prices in ${CURRENCY_NAMES[offered.currency]}.`}
        </p>
        <button type="submit" name="market" value={offered.id} className="btn-primary py-1">
          {`Shop in the ${offered.name}`}
        </button>
        <button type="submit" name="market" value={kept.id} className="btn-outline py-1">
          {`Stay in the ${kept.name}`}
        </button>
      </Form>
    </section>
  );
}

/** The strip above the header: the market picker, or, for a trade buyer, the market they buy in. */
export function MarketBar({ market, trade }: { market: MarketId; trade: boolean }) {
  return (
    <div className="border-b border-slate-200 bg-slate-100 text-sm print:hidden">
      <div className="mx-auto flex max-w-7xl items-center justify-end px-4 py-1">
        {trade ? (
          <p className="text-slate-700">Trade account: prices in {CURRENCY_NAMES[MARKETS[market].currency]}</p>
        ) : (
          <MarketPicker market={market} id="market-select" />
        )}
      </div>
    </div>
  );
}
