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
 * The strip above the header: the market picker (set to the shopper's own market), or, for a
 * trade buyer, the market they buy in. A page whose URL names another market says so.
 */
export function MarketBar({ market, chosen, trade }: { market: MarketId; chosen: MarketId; trade: boolean }) {
  return (
    <div className="border-b border-slate-200 bg-slate-100 text-sm print:hidden">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-end gap-x-4 gap-y-1 px-4 py-1">
        {trade ? (
          <p className="text-slate-700">Trade account: prices in {CURRENCY_NAMES[MARKETS[market].currency]}</p>
        ) : (
          <>
            {market !== chosen ? (
              <p className="text-slate-700">{`This page shows ${MARKETS[market].name} prices.`}</p>
            ) : null}
            <MarketPicker market={chosen} id="market-select" />
          </>
        )}
      </div>
    </div>
  );
}
