import { useEffect } from "react";
import { useFetcher, useLocation, useRouteLoaderData } from "react-router";
import type { PublicUser } from "./auth-rules.ts";
import type { MarketId } from "./markets.ts";
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
  /** The market to offer a visitor who hasn't chosen one (from their browser), else null. */
  marketProposal: MarketId | null;
}

const VISITOR_PATH = "/visitor";

const GUEST: Visitor = { user: null, cartCount: 0, wishlistIds: [], priceList: null, marketProposal: null };

export function priceListToJson(rules: PriceListRules): PriceListRulesJson {
  return {
    products: [...(rules.products ?? [])],
    categories: [...(rules.categories ?? [])],
    everything: rules.everything ?? null,
  };
}

export function priceListFromJson(json: PriceListRulesJson | null): PriceListRules | null {
  return json
    ? { products: new Map(json.products), categories: new Map(json.categories), everything: json.everything }
    : null;
}

const VISITOR_FETCHER = "visitor";

/**
 * Reads the visitor from /visitor in the browser (the site frame calls it once): after the page
 * has hydrated and on every navigation; React Router reads it again after every submission and
 * revalidation. So the header follows a guest's cart, a sign-in, a sign-out or another tab.
 */
export function useVisitorReader(): void {
  const { load } = useFetcher<Visitor>({ key: VISITOR_FETCHER });
  const { key } = useLocation();
  useEffect(() => {
    void load(VISITOR_PATH);
  }, [key, load]);
}

/**
 * The visitor: as last read from /visitor; until then as the page carried it (a page no cache
 * shares is rendered with its visitor, root.tsx), else a guest (a shared page, on the server).
 */
export function useVisitor(): Visitor {
  return useVisitorState().visitor;
}

/** The visitor, and whether it is known yet (false on a shared page until /visitor has answered). */
export function useVisitorState(): { visitor: Visitor; known: boolean } {
  const read = useFetcher<Visitor>({ key: VISITOR_FETCHER }).data;
  const root = useRouteLoaderData<{ visitor?: Visitor | null }>("root");
  const visitor = read ?? root?.visitor ?? null;
  return { visitor: visitor ?? GUEST, known: visitor !== null };
}
