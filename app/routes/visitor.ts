import { data } from "react-router";
import type { Route } from "./+types/visitor";
import { PERSONAL_CACHE_CONTROL } from "../lib/cache-control.ts";
import { getDb } from "../../server/db/connection.ts";
import { readVisitor } from "../../server/shopper/visitor.ts";

/** The visitor's own data for the header and prices: JSON at /visitor, and what the site frame's fetcher reads (app/lib/visitor.ts). */
export async function loader({ request }: Route.LoaderArgs) {
  return data(await readVisitor(getDb(), request), { headers: { "Cache-Control": PERSONAL_CACHE_CONTROL } });
}
