import type { Route } from "./+types/visitor";
import { PERSONAL_CACHE_CONTROL } from "../lib/cache-control.ts";
import { getDb } from "../../server/db/connection.ts";
import { readVisitor } from "../../server/shopper/visitor.ts";

/** The visitor's own data for the page's header and prices, read by the browser (root.tsx). */
export async function loader({ request }: Route.LoaderArgs) {
  return Response.json(await readVisitor(getDb(), request), { headers: { "Cache-Control": PERSONAL_CACHE_CONTROL } });
}
