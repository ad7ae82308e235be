import type { Route } from "./+types/search-suggest";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import { getDb } from "../../server/db/connection.ts";
import { pageMarketContext } from "../lib/market-context.ts";
import { marketFromSearch } from "../lib/markets.ts";

/** GET /search/suggest?q=… — products, categories and brands for the search box, as JSON. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  // The shopper's market (a caller may name one with ?market=).
  const market = marketFromSearch(url.searchParams) ?? context.get(pageMarketContext).market;
  const suggestions = await suggestSearch(getDb(), q, undefined, market);
  return Response.json(suggestions, {
    headers: {
      // The same words give the same suggestions for a while; let the browser reuse them briefly.
      "Cache-Control": "public, max-age=60",
      "X-Robots-Tag": "noindex",
    },
  });
}
