import { useRouteLoaderData } from "react-router";
import type { PublicUser } from "./auth-rules.ts";
import type { PriceListRules, TradeRule } from "./pricing.ts";

/** A trade price list's rules as JSON: [id, rule] pairs instead of Maps. */
export interface PriceListRulesJson {
  products: [number, TradeRule][];
  categories: [number, TradeRule][];
  everything: TradeRule | null;
}

/**
 * What is one visitor's own on every page: read by the browser from /visitor (never part of a
 * page's HTML, which a cache shares between visitors).
 */
export interface Visitor {
  user: PublicUser | null;
  cartCount: number;
  wishlistIds: number[];
  /** A signed-in trade buyer's price list, to show their prices beside the list prices. */
  priceList: PriceListRulesJson | null;
}

export const VISITOR_PATH = "/visitor";

export const GUEST: Visitor = { user: null, cartCount: 0, wishlistIds: [], priceList: null };

export function priceListToJson(rules: PriceListRules): PriceListRulesJson {
  return { products: [...(rules.products ?? [])], categories: [...(rules.categories ?? [])], everything: rules.everything ?? null };
}

export function priceListFromJson(json: PriceListRulesJson | null): PriceListRules | null {
  return json ? { products: new Map(json.products), categories: new Map(json.categories), everything: json.everything } : null;
}

/** The visitor as the root route read it in the browser; a guest until then (and on the server). */
export function useVisitor(): Visitor {
  const root = useRouteLoaderData("root") as { visitor?: Visitor | null } | undefined;
  return root?.visitor ?? GUEST;
}
