import type { Route } from "./+types/wishlist";
import { pageMarketContext } from "../lib/market-context.ts";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { StaticAlert } from "../components/ui/Alert.tsx";
import { WishlistTable } from "../components/cart/WishlistLines.tsx";
import { seo } from "../lib/seo.ts";
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

export async function loader({ request, context }: Route.LoaderArgs) {
  const shopper = await resolveShopper(request);
  return { lines: await getWishlist(getDb(), shopper.owner, context.get(pageMarketContext).market) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { market } = context.get(pageMarketContext);
  return shopperFormAction(
    request,
    (owner, form) => applyWishlistAction(getDb(), owner, form, market),
    (form) => (form.get("intent") === "to-cart" ? "/cart" : "/wishlist"),
  );
}

export default function Wishlist({ loaderData, actionData }: Route.ComponentProps) {
  const { lines } = loaderData;
  return (
    <>
      <PageHeader title="Wishlist" />
      {actionData && !actionData.ok ? <StaticAlert tone="error" text={actionData.message} /> : null}
      <div className="mx-auto max-w-7xl overflow-x-auto px-4 py-10">
        <WishlistTable lines={lines} />
      </div>
    </>
  );
}
