import { Link, useFetcher, useFetchers } from "react-router";
import type { Route } from "./+types/cart";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { StaticAlert } from "../components/ui/Alert.tsx";
import type { CartLine } from "../lib/cart-types.ts";
import { formatMoney } from "../lib/money.ts";
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

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Cart", description: "Your shopping cart.", path: "/cart", matches, noindex: true });
}

export async function loader({ request }: Route.LoaderArgs) {
  const shopper = await resolveShopper(request);
  const cart = await getCart(getDb(), shopper.owner);
  return { cart, quote: await quoteOffer(getDb(), shopper.session?.userId ?? null, cart) };
}

export async function action({ request }: Route.ActionArgs) {
  return shopperFormAction(
    request,
    (owner, form) => applyCartAction(getDb(), owner, form),
    () => "/cart",
  );
}

const lineKey = (l: { productId: number; color: string }) => `${l.productId}:${l.color}`;

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
    if (!pending.has(lineKey(line))) return [line];
    const quantity = pending.get(lineKey(line));
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

function CartRow({ line }: { line: CartLine }) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>({ key: `cart-${lineKey(line)}` });
  const hidden = (
    <>
      <input type="hidden" name="intent" value="set" />
      <input type="hidden" name="productId" value={line.productId} />
      <input type="hidden" name="color" value={line.color} />
    </>
  );
  const atMax = line.quantity >= line.stockQuantity;
  return (
    <tr className="border-b border-slate-200 align-middle">
      <td className="py-3 pr-4">
        <img
          src={line.imageUrl}
          alt=""
          width={64}
          height={64}
          className="h-16 w-16 rounded bg-slate-50 object-contain"
        />
      </td>
      <td className="py-3 pr-4">
        <Link to={`/shop/${line.productId}`} className="font-semibold text-ink hover:underline">
          {line.title}
        </Link>
        {line.color ? <span className="block text-xs text-slate-600">Color: {line.color}</span> : null}
        {line.notice ? (
          <span
            className="mt-1 block rounded bg-amber-50 px-2 py-1 text-xs font-semibold text-amber-900"
            data-testid="line-notice"
          >
            {line.notice}
          </span>
        ) : null}
        {fetcher.data && !fetcher.data.ok ? (
          <span role="alert" className="mt-1 block text-xs text-red-700">
            {fetcher.data.message}
          </span>
        ) : null}
      </td>
      <td className="py-3 pr-4" data-testid="unit-price">
        {formatMoney(line.unitPriceCents)}
        {line.priceSource !== "list" ? (
          <span className="block text-xs text-slate-600">
            {line.priceSource === "volume" ? "Volume price" : "Your trade price"} (list{" "}
            <s>{formatMoney(line.listPriceCents)}</s>)
          </span>
        ) : null}
      </td>
      <td className="py-3 pr-4">
        <div className="flex items-center gap-2">
          <fetcher.Form method="post" action="/cart">
            {hidden}
            <button
              type="submit"
              name="quantity"
              value={line.quantity - 1}
              aria-label="Decrease quantity"
              disabled={line.quantity <= 1}
              className="h-8 w-8 rounded border border-slate-300 font-bold disabled:opacity-40"
            >
              −
            </button>
          </fetcher.Form>
          <span aria-live="polite" className="min-w-8 text-center" data-testid="line-quantity">
            {line.quantity}
          </span>
          <fetcher.Form method="post" action="/cart">
            {hidden}
            <button
              type="submit"
              name="quantity"
              value={line.quantity + 1}
              aria-label="Increase quantity"
              disabled={atMax}
              className="h-8 w-8 rounded border border-slate-300 font-bold disabled:opacity-40"
            >
              +
            </button>
          </fetcher.Form>
        </div>
      </td>
      <td className="py-3 pr-4 font-semibold" data-testid="line-total">
        {formatMoney(line.lineTotalCents)}
      </td>
      <td className="py-3">
        <fetcher.Form method="post" action="/cart">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="productId" value={line.productId} />
          <input type="hidden" name="color" value={line.color} />
          <button
            type="submit"
            className="text-sm font-semibold text-red-700 hover:underline"
            aria-label={`Remove ${line.title}`}
          >
            Remove
          </button>
        </fetcher.Form>
      </td>
    </tr>
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
        <table className="w-full min-w-[40rem] text-left text-sm">
          <caption className="sr-only">Items in your cart</caption>
          <thead className="border-b border-slate-300 text-ink">
            <tr>
              {["Product", "Product Name", "Unit Price", "Quantity", "Total", "Remove"].map((h) => (
                <th key={h} scope="col" className="py-3 pr-4 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.length === 0 ? (
              <tr>
                <td colSpan={6} className="py-10 text-center text-slate-700">
                  Your cart is empty.
                </td>
              </tr>
            ) : (
              lines.map((line) => <CartRow key={lineKey(line)} line={line} />)
            )}
          </tbody>
        </table>
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
            Total price: <strong data-testid="total-price">{formatMoney(totalCents)}</strong>
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
