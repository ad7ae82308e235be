import { redirect } from "react-router";
import type { Route } from "./+types/shop";
import { cardFields } from "../components/catalog/ProductCard.tsx";
import { ShopPage, type ShopData } from "../components/catalog/ShopPage.tsx";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { seo } from "../lib/seo.ts";
import { parseShopQuery, shopHref, shopTitle } from "../lib/shop-query.ts";
import { searchProducts } from "../../server/catalog/search.ts";
import { getDb } from "../../server/db/connection.ts";
import { pageMarketContext } from "../lib/market-context.ts";
import { MARKET_PARAM, marketFromSearch, withMarketParam } from "../lib/markets.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // React Router's client names the routes it wants data for; that is not part of the page's state.
  url.searchParams.delete("_routes");
  // A market the URL names stays in it (the page's hreflang alternates and the sitemap use it).
  const named = marketFromSearch(url.searchParams);
  url.searchParams.delete(MARKET_PARAM);
  const query = parseShopQuery(url.searchParams);
  // One URL per state: a GET form without JavaScript sends empty fields and defaults; tidy them
  // (and any hand-made URL) into the canonical form, which is what links and sharing use.
  const canonical = shopHref(query);
  if (url.search !== new URL(canonical, url).search || (new URL(request.url).searchParams.has(MARKET_PARAM) && !named))
    throw redirect(named ? withMarketParam(canonical, named) : canonical);
  const results = await searchProducts(getDb(), {
    market: context.get(pageMarketContext).market,
    q: query.q,
    categories: query.categories,
    brands: query.brands,
    minCents: query.minCents,
    maxCents: query.maxCents,
    inStockOnly: query.inStockOnly,
    onSaleOnly: query.onSaleOnly,
    sort: query.sort,
    page: query.page,
  });
  // The cards' fields only: the rest of each hit (its slug, brand and category name) is not shown.
  const page: ShopData = {
    query: { ...query, page: results.page },
    results: { ...results, items: results.items.map(cardFields) },
  };
  return page;
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const data = loaderData;
  const page = data?.results.page ?? 1;
  const q = data?.query.q ?? "";
  return seo({
    title: shopTitle(q, page),
    description:
      "Browse wholesale-priced power tools, hand tools, safety gear, electrical, automotive, gardening and construction equipment.",
    path: page > 1 && !q ? `/shop?page=${page}` : "/shop",
    matches,
    noindex: Boolean(q),
    perMarket: true,
  });
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  return <ShopPage loaderData={loaderData} />;
}
