import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/wishlist";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { StaticAlert } from "../components/ui/Alert.tsx";
import { CartIcon, CloseIcon } from "../components/ui/icons.tsx";
import type { WishlistLine } from "../lib/cart-types.ts";
import { formatMoney } from "../lib/money.ts";
import { seo } from "../lib/seo.ts";
import { WISHLIST_TITLE_MAX } from "../lib/site.ts";
import { getDb } from "../../server/db/connection.ts";
import { shopperFormAction } from "../../server/http/form-action.ts";
import { resolveShopper } from "../../server/shopper/identity.ts";
import { applyWishlistAction } from "../../server/wishlist/actions.ts";
import { getWishlist } from "../../server/wishlist/wishlist.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Wishlist",
    description: "Tools you saved for later.",
    path: "/wishlist",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const shopper = await resolveShopper(request);
  return { lines: await getWishlist(getDb(), shopper.owner) };
}

export async function action({ request }: Route.ActionArgs) {
  return shopperFormAction(
    request,
    (owner, form) => applyWishlistAction(getDb(), owner, form),
    (form) => (form.get("intent") === "to-cart" ? "/cart" : "/wishlist"),
  );
}

/** The spec's Title Name: cut at 30 characters, then dots. */
export function truncateTitle(title: string): string {
  return title.length > WISHLIST_TITLE_MAX ? `${title.slice(0, WISHLIST_TITLE_MAX)}...` : title;
}

function WishlistRow({ line, index }: { line: WishlistLine; index: number }) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>();
  if (fetcher.formData?.get("intent") === "remove") return null;
  const button = "rounded-full border border-slate-300 p-2 hover:bg-slate-100 disabled:opacity-40";
  return (
    <tr className="border-b border-slate-200">
      <td className="py-3 pr-4">{index + 1}</td>
      <td className="py-3 pr-4">
        <Link to={`/shop/${line.productId}`} className="font-semibold text-ink hover:underline" title={line.title}>
          {truncateTitle(line.title)}
        </Link>
        {fetcher.data ? (
          <span role="status" className={`mt-1 block text-xs ${fetcher.data.ok ? "text-green-800" : "text-red-700"}`}>
            {fetcher.data.message}
          </span>
        ) : null}
      </td>
      <td className="py-3 pr-4">
        <img
          src={line.imageUrl}
          alt={line.title}
          width={56}
          height={56}
          className="h-14 w-14 rounded bg-slate-50 object-contain"
        />
      </td>
      <td className="py-3 pr-4">{line.color || "—"}</td>
      <td className="py-3 pr-4">{line.stockQuantity > 0 ? line.stockQuantity : "Stock out"}</td>
      <td className="py-3 pr-4">{formatMoney(line.unitPriceCents)}</td>
      <td className="py-3 pr-4">{formatMoney(line.totalPriceCents)}</td>
      <td className="py-3">
        <div className="flex gap-2">
          <fetcher.Form method="post" action="/wishlist">
            <input type="hidden" name="intent" value="to-cart" />
            <input type="hidden" name="productId" value={line.productId} />
            <input type="hidden" name="color" value={line.color} />
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
      </td>
    </tr>
  );
}

export default function Wishlist({ loaderData, actionData }: Route.ComponentProps) {
  const { lines } = loaderData;
  return (
    <>
      <PageHeader title="Wishlist" />
      {actionData && !actionData.ok ? <StaticAlert tone="error" text={actionData.message} /> : null}
      <div className="mx-auto max-w-7xl overflow-x-auto px-4 py-10">
        <table className="w-full min-w-[48rem] text-left text-sm">
          <caption className="sr-only">Your wishlist</caption>
          <thead className="border-b border-slate-300 text-ink">
            <tr>
              {[
                "N/A",
                "Title Name",
                "Product Image",
                "Color",
                "Stock Limit",
                "Unit Price",
                "Total Price",
                "Action",
              ].map((h) => (
                <th key={h} scope="col" className="py-3 pr-4 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.length === 0 ? (
              <tr>
                <td colSpan={8} className="py-10 text-center text-slate-700">
                  Your wishlist is empty. Tap the heart on any product to save it here.
                </td>
              </tr>
            ) : (
              lines.map((line, i) => <WishlistRow key={line.productId} line={line} index={i} />)
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
