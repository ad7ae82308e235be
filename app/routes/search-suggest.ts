import type { Route } from "./+types/search-suggest";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import { getDb } from "../../server/db/connection.ts";

/** GET /search/suggest?q=… — products, categories and brands for the search box, as JSON. */
export async function loader({ request }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get("q") ?? "";
  const suggestions = await suggestSearch(getDb(), q);
  return Response.json(suggestions, {
    headers: {
      // The same words give the same suggestions for a while; let the browser reuse them briefly.
      "Cache-Control": "public, max-age=60",
      "X-Robots-Tag": "noindex",
    },
  });
}
