import { data, Link, useFetchers } from "react-router";
import type { Route } from "./+types/cart";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { StaticAlert } from "../components/ui/Alert.tsx";
import { CartLinesTable, cartLineKey } from "../components/cart/CartLines.tsx";
import type { CartLine } from "../lib/cart-types.ts";
import { Money } from "../components/ui/Money.tsx";
import { cartMarketText } from "../lib/markets.ts";
import { priceLines } from "../lib/pricing.ts";
import { seo } from "../lib/seo.ts";
import { applyCartAction } from "../../server/cart/actions.ts";
import { getCart } from "../../server/cart/cart.ts";
import { getDb } from "../../server/db/connection.ts";
import { shopperFormAction } from "../../server/http/form-action.ts";
import { resolveShopper } from "../../server/shopper/identity.ts";
import { quoteOffer } from "../../server/quotes/quotes.ts";
import { RequestQuote } from "../components/quotes/RequestQuote.tsx";
import { formText } from "../lib/form-text.ts";
import { pageMarketContext } from "../lib/market-context.ts";
import { repricedNotice } from "../../server/shopper/market-action.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Cart", description: "Your shopping cart.", path: "/cart", matches, noindex: true });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const shopper = await resolveShopper(request);
  const { market } = context.get(pageMarketContext);
  const cart = await getCart(getDb(), shopper.owner, market);
  const repriced = repricedNotice(request, market);
  return data(
    {
      cart,
      market,
      repriced: repriced?.message ?? null,
      quote: await quoteOffer(getDb(), shopper.session?.userId ?? null, cart, market),
    },
    { headers: repriced ? { "Set-Cookie": repriced.clear } : undefined },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const { market } = context.get(pageMarketContext);
  return shopperFormAction(
    request,
    (owner, form) => applyCartAction(getDb(), owner, form, market),
    () => "/cart",
  );
}

/** Quantities as the shopper sees them: the server's, updated at once by any change still on its way. */
function useOptimisticLines(lines: CartLine[]): CartLine[] {
  const pending = new Map<string, number | null>();
  for (const f of useFetchers()) {
    if (!f.formData || f.formAction !== "/cart") continue;
    const key = `${formText(f.formData, "productId")}:${formText(f.formData, "color")}`;
    const intent = f.formData.get("intent");
    if (intent === "remove") pending.set(key, null);
    if (intent === "set") pending.set(key, Number(f.formData.get("quantity")));
  }
  const changed = lines.flatMap((line) => {
    if (!pending.has(cartLineKey(line))) return [line];
    const quantity = pending.get(cartLineKey(line));
    return quantity == null ? [] : [{ ...line, quantity }];
  });
  if (pending.size === 0) return lines;
  // The same price rule as the server's, so a volume break shows the moment the quantity reaches it.
  return priceLines(changed.map((l) => ({ ...l, listCents: l.listPriceCents }))).map(
    ({ unit, listCents: _, ...l }) => ({
      ...l,
      unitPriceCents: unit.unitCents,
      priceSource: unit.source,
      lineTotalCents: unit.unitCents * l.quantity,
    }),
  );
}

export default function Cart({ loaderData, actionData }: Route.ComponentProps) {
  const lines = useOptimisticLines(loaderData.cart.lines);
  const totalQuantity = lines.reduce((n, l) => n + l.quantity, 0);
  const totalCents = lines.reduce((n, l) => n + l.lineTotalCents, 0);
  const blocked = lines.some((l) => l.stockQuantity === 0 || l.quantity > l.stockQuantity);
  return (
    <>
      <PageHeader title="Cart" />
      {actionData && !actionData.ok ? <StaticAlert tone="error" text={actionData.message} /> : null}
      <div className="mx-auto max-w-7xl overflow-x-auto px-4 py-10">
        {loaderData.repriced ? (
          <p role="status" className="mb-4 rounded-md bg-brand-50 p-3 text-sm font-semibold text-ink">
            {loaderData.repriced}
          </p>
        ) : null}
        <p className="mb-4 text-sm text-slate-700" data-testid="cart-market">
          {cartMarketText(loaderData.market)}
        </p>
        <CartLinesTable lines={lines} />
        <div className="mt-6 flex flex-col items-end gap-2">
          <p className="text-sm">
            Know your SKUs?{" "}
            <Link to="/quick-order" className="font-semibold text-brand-800 hover:underline">
              Quick order
            </Link>
          </p>
          <p>
            Total Quantity: <strong data-testid="total-quantity">{totalQuantity}</strong>
          </p>
          <p>
            Total price:{" "}
            <strong data-testid="total-price">
              <Money minor={totalCents} />
            </strong>
          </p>
          {lines.length && !blocked ? (
            <Link to="/checkout" className="btn-primary">
              Checkout
            </Link>
          ) : (
            <button type="button" className="btn-primary" disabled>
              Checkout
            </button>
          )}
        </div>
        {lines.length ? <RequestQuote offer={loaderData.quote} /> : null}
      </div>
    </>
  );
}
