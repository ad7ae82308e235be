import { createContext, useContext } from "react";
import { Link, useFetcher, type FetcherWithComponents } from "react-router";
import type { CartLine } from "../../lib/cart-types.ts";
import { Money } from "../ui/Money.tsx";
import { LineRow, LinesTable, type LineColumn } from "../ui/LinesTable.tsx";
import { LineFormFields, RemoveLineFields, UnitPrice } from "../ui/line-cells.tsx";

export const cartLineKey = (l: { productId: number; color: string }) => `${l.productId}:${l.color}`;

type CartFetcher = FetcherWithComponents<{ ok: boolean; message: string }>;

/** The one fetcher of a cart row, shared by its cells so a change shows in the whole row at once. */
const RowFetcher = createContext<CartFetcher | null>(null);

function useRowFetcher(): CartFetcher {
  const fetcher = useContext(RowFetcher);
  if (!fetcher) throw new Error("A cart cell outside its row");
  return fetcher;
}

function ProductCell({ line }: { line: CartLine }) {
  const fetcher = useRowFetcher();
  return (
    <>
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
    </>
  );
}

function QuantityStepper({ line }: { line: CartLine }) {
  const fetcher = useRowFetcher();
  const step = (quantity: number, label: string, disabled: boolean, text: string) => (
    <fetcher.Form method="post" action="/cart">
      <LineFormFields line={line} intent="set" />
      <button
        type="submit"
        name="quantity"
        value={quantity}
        aria-label={label}
        disabled={disabled}
        className="h-8 w-8 rounded border border-slate-300 font-bold disabled:opacity-40"
      >
        {text}
      </button>
    </fetcher.Form>
  );
  return (
    <div className="flex items-center gap-2">
      {step(line.quantity - 1, "Decrease quantity", line.quantity <= 1, "−")}
      <span aria-live="polite" className="min-w-8 text-center" data-testid="line-quantity">
        {line.quantity}
      </span>
      {step(line.quantity + 1, "Increase quantity", line.quantity >= line.stockQuantity, "+")}
    </div>
  );
}

function RemoveButton({ line }: { line: CartLine }) {
  const fetcher = useRowFetcher();
  return (
    <fetcher.Form method="post" action="/cart">
      <RemoveLineFields line={line} intent="remove" className="text-sm font-semibold text-red-700 hover:underline" />
    </fetcher.Form>
  );
}

const HEADER = "py-3 pr-4 font-semibold";

const CART_COLUMNS: LineColumn<CartLine>[] = [
  {
    header: "Product",
    headerClassName: HEADER,
    cellClassName: "py-3 pr-4",
    cell: (line) => (
      <img src={line.imageUrl} alt="" width={64} height={64} className="h-16 w-16 rounded bg-slate-50 object-contain" />
    ),
  },
  {
    header: "Product Name",
    headerClassName: HEADER,
    cellClassName: "py-3 pr-4",
    cell: (line) => <ProductCell line={line} />,
  },
  {
    header: "Unit Price",
    headerClassName: HEADER,
    cellClassName: "py-3 pr-4",
    testId: "unit-price",
    cell: (line) => <UnitPrice line={line} noteClassName="block text-xs text-slate-600" />,
  },
  {
    header: "Quantity",
    headerClassName: HEADER,
    cellClassName: "py-3 pr-4",
    cell: (line) => <QuantityStepper line={line} />,
  },
  {
    header: "Total",
    className: HEADER,
    testId: "line-total",
    cell: (line) => <Money minor={line.lineTotalCents} />,
  },
  { header: "Remove", headerClassName: HEADER, cellClassName: "py-3", cell: (line) => <RemoveButton line={line} /> },
];

/** A cart row with exactly one fetcher (keyed per line), which its quantity and remove forms share. */
function CartRow({ line, index }: { line: CartLine; index: number }) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>({ key: `cart-${cartLineKey(line)}` });
  return (
    <RowFetcher value={fetcher}>
      <LineRow line={line} index={index} columns={CART_COLUMNS} className="border-b border-slate-200 align-middle" />
    </RowFetcher>
  );
}

/** The cart's lines: quantity steppers and remove buttons that change the cart in place. */
export function CartLinesTable({ lines }: { lines: CartLine[] }) {
  return (
    <LinesTable
      caption="Items in your cart"
      className="min-w-[40rem]"
      headClassName="border-b border-slate-300 text-ink"
      columns={CART_COLUMNS}
      lines={lines}
      rowKey={cartLineKey}
      renderRow={(line, i) => <CartRow line={line} index={i} />}
      empty="Your cart is empty."
    />
  );
}
