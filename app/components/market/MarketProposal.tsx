import { Form, useLocation } from "react-router";
import { MARKETS, type MarketId } from "../../lib/markets.ts";
import { CURRENCY_NAMES } from "../../lib/money.ts";

/**
 * Offers a first-time visitor the market their browser points at, with both answers as buttons;
 * either one is a choice, so the offer is not made again. Never switches by itself. It arrives
 * with /visitor, after the page is drawn, so it floats at the foot of the window instead of
 * pushing the page down.
 */
export default function MarketProposal({ current, proposal }: { current: MarketId; proposal: MarketId }) {
  const { pathname, search } = useLocation();
  const offered = MARKETS[proposal];
  const kept = MARKETS[current];
  return (
    <section
      aria-label="Market suggestion"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-amber-300 bg-amber-50 shadow-lg print:hidden"
    >
      <Form
        method="post"
        action="/market"
        className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2 text-sm"
      >
        <input type="hidden" name="returnTo" value={`${pathname}${search}`} />
        <p role="status" className="text-ink">
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
