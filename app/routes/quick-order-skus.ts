import type { Route } from "./+types/quick-order-skus";
import { getDb } from "../../server/db/connection.ts";
import { suggestSkus } from "../../server/trade/quick-order.ts";

/** GET /quick-order/skus?q=TH-00 — up to 8 SKUs starting with what was typed, with their titles, as JSON. */
export async function loader({ request }: Route.LoaderArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 64);
  return Response.json(await suggestSkus(getDb(), q), {
    headers: { "Cache-Control": "public, max-age=60", "X-Robots-Tag": "noindex" },
  });
}

/**
 * Suggestions depend only on what was typed: a check or an add on the quick-order page does not
 * load them again (a reload redraws the datalist under the shopper's cursor, where Chromium's
 * popup takes the next Enter).
 */
export function shouldRevalidate() {
  return false;
}
