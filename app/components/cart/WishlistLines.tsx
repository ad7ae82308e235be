import { createContext, useContext } from "react";
import { ProductImage } from "../catalog/ProductImage.tsx";
import { Link, useFetcher, type FetcherWithComponents } from "react-router";
import type { WishlistLine } from "../../lib/cart-types.ts";
import { Money } from "../ui/Money.tsx";
import { WISHLIST_TITLE_MAX } from "../../lib/site.ts";
import { CartIcon, CloseIcon } from "../ui/icons.tsx";
import { LineRow, LinesTable, type LineColumn } from "../ui/LinesTable.tsx";
import { LineFormFields } from "../ui/line-cells.tsx";

/** The spec's Title Name: cut at 30 characters, then dots. */
function truncateTitle(title: string): string {
  return title.length > WISHLIST_TITLE_MAX ? `${title.slice(0, WISHLIST_TITLE_MAX)}...` : title;
}

type WishlistFetcher = FetcherWithComponents<{ ok: boolean; message: string }>;

/** The one fetcher of a wishlist row, shared by its message and its buttons. */
const RowFetcher = createContext<WishlistFetcher | null>(null);

function useRowFetcher(): WishlistFetcher {
  const fetcher = useContext(RowFetcher);
  if (!fetcher) throw new Error("A wishlist cell outside its row");
  return fetcher;
}

function TitleCell({ line }: { line: WishlistLine }) {
  const fetcher = useRowFetcher();
  return (
    <>
      <Link to={`/shop/${line.productId}`} className="font-semibold text-ink hover:underline" title={line.title}>
        {truncateTitle(line.title)}
      </Link>
      {fetcher.data ? (
        <span role="status" className={`mt-1 block text-xs ${fetcher.data.ok ? "text-green-800" : "text-red-700"}`}>
          {fetcher.data.message}
        </span>
      ) : null}
    </>
  );
}

function ActionsCell({ line }: { line: WishlistLine }) {
  const fetcher = useRowFetcher();
  const button = "rounded-full border border-slate-300 p-2 hover:bg-slate-100 disabled:opacity-40";
  return (
    <div className="flex gap-2">
      <fetcher.Form method="post" action="/wishlist">
        <LineFormFields line={line} intent="to-cart" />
        <button
          type="submit"
          className={button}
          aria-label={`Add ${line.title} to cart`}
          title="Add to cart"
          disabled={line.stockQuantity === 0}
        >
          <CartIcon width={16} height={16} />
        </button>
      </fetcher.Form>
      <fetcher.Form method="post" action="/wishlist">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="productId" value={line.productId} />
        <button type="submit" className={button} aria-label={`Remove ${line.title} from wishlist`} title="Remove">
          <CloseIcon width={16} height={16} />
        </button>
      </fetcher.Form>
    </div>
  );
}

const HEADER = "py-3 pr-4 font-semibold";
const CELL = "py-3 pr-4";

const WISHLIST_COLUMNS: LineColumn<WishlistLine>[] = [
  { header: "N/A", headerClassName: HEADER, cellClassName: CELL, cell: (_, index) => index + 1 },
  { header: "Title Name", headerClassName: HEADER, cellClassName: CELL, cell: (line) => <TitleCell line={line} /> },
  {
    header: "Product Image",
    headerClassName: HEADER,
    cellClassName: CELL,
    cell: (line) => <ProductImage product={line} size={56} className="h-14 w-14 rounded bg-slate-50 object-contain" />,
  },
  { header: "Color", headerClassName: HEADER, cellClassName: CELL, cell: (line) => line.color || "—" },
  {
    header: "Stock Limit",
    headerClassName: HEADER,
    cellClassName: CELL,
    cell: (line) => (line.stockQuantity > 0 ? line.stockQuantity : "Stock out"),
  },
  {
    header: "Unit Price",
    headerClassName: HEADER,
    cellClassName: CELL,
    cell: (line) => <Money minor={line.unitPriceCents} />,
  },
  {
    header: "Total Price",
    headerClassName: HEADER,
    cellClassName: CELL,
    cell: (line) => <Money minor={line.totalPriceCents} />,
  },
  { header: "Action", headerClassName: HEADER, cellClassName: "py-3", cell: (line) => <ActionsCell line={line} /> },
];

/** A wishlist row with one fetcher; the row leaves at once when its remove is on its way. */
function WishlistRow({ line, index }: { line: WishlistLine; index: number }) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>();
  if (fetcher.formData?.get("intent") === "remove") return null;
  return (
    <RowFetcher value={fetcher}>
      <LineRow line={line} index={index} columns={WISHLIST_COLUMNS} className="border-b border-slate-200" />
    </RowFetcher>
  );
}

/** The saved products, each with buttons that move it to the cart or drop it, in place. */
export function WishlistTable({ lines }: { lines: WishlistLine[] }) {
  return (
    <LinesTable
      caption="Your wishlist"
      className="min-w-[48rem]"
      headClassName="border-b border-slate-300 text-ink"
      columns={WISHLIST_COLUMNS}
      lines={lines}
      rowKey={(line) => line.productId}
      renderRow={(line, i) => <WishlistRow line={line} index={i} />}
      empty="Your wishlist is empty. Tap the heart on any product to save it here."
    />
  );
}
