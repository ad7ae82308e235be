/**
 * Which market a shopper shops in (issue 51, decision 0052): the one they chose, remembered in the
 * `market` cookie and, when signed in, on the account; else the default market. A catalog page's
 * URL may name a market (`?market=uk`), which that page then shows. A first visit is offered the
 * market of the browser's language or a trusted proxy's country header, never switched to it.
 */
import {
  DEFAULT_MARKET,
  MARKET_COOKIE,
  isMarketId,
  marketFromCookieHeader,
  proposedMarket,
  type MarketId,
} from "../../app/lib/markets.ts";
import type { PageMarket } from "../../app/lib/market-context.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { getSessionInfo } from "../auth/session.ts";
import { ownerForUser } from "./guest.ts";

export interface ShopperMarket {
  market: MarketId;
  /** False until the shopper has chosen (the default market then stands in). */
  chosen: boolean;
  /**
   * A trade buyer's: their company's price list, quotes, spending limits and credit are in US
   * dollars, so they buy in the US market (delivering to either country) whatever was chosen.
   */
  trade: boolean;
}

/** A year: the choice outlives a session, like the store's other remembered settings. */
const MARKET_COOKIE_SECONDS = 60 * 60 * 24 * 365;

/**
 * The shopper's market: a trade buyer's is the US market; anyone else's is the cookie's (this
 * device's latest choice), else the account's, else the default (not chosen).
 */
export function shopperMarket(db: Db, request: Request): Promise<ShopperMarket> {
  // The root's middleware, /visitor and an action may each ask during one request: read once.
  let found = readings.get(request);
  if (!found) {
    found = readShopperMarket(db, request);
    readings.set(request, found);
    const failed = found;
    failed.catch(() => {
      if (readings.get(request) === failed) readings.delete(request);
    });
  }
  return found;
}

const readings = new WeakMap<Request, Promise<ShopperMarket>>();

async function readShopperMarket(db: Db, request: Request): Promise<ShopperMarket> {
  const fromCookie = marketFromCookieHeader(request.headers.get("cookie"));
  const session = await getSessionInfo(request);
  if (session) {
    const [saved, member] = await Promise.all([
      db
        .selectFrom("shopper_markets")
        .select("market")
        .where("owner", "=", ownerForUser(session.userId))
        .executeTakeFirst(),
      // A trade buyer as the checkout knows one (buyerTerms): a member of an approved company.
      db
        .selectFrom("member as m")
        .innerJoin("companies as c", "c.organization_id", "m.organizationId")
        .select("m.id")
        .where("m.userId", "=", session.userId)
        .limit(1)
        .executeTakeFirst(),
    ]);
    if (member) return { market: "us", chosen: true, trade: true };
    const market = fromCookie ?? (saved && isMarketId(saved.market) ? saved.market : null);
    if (market) return { market, chosen: true, trade: false };
  }
  if (fromCookie) return { market: fromCookie, chosen: true, trade: false };
  return { market: DEFAULT_MARKET, chosen: false, trade: false };
}

/**
 * The market every page of a request shows unless a catalog page's URL names another
 * (sharedPageMiddleware): the shopper's. For an anonymous visitor that is read from the cookie
 * alone, which is part of a shared cache's key.
 */
export async function pageMarket(db: Db, request: Request): Promise<PageMarket> {
  const { market, trade } = await shopperMarket(db, request);
  return { market, shopper: market, trade };
}

/** The market a first visit is offered, from its languages and the trusted country header. */
export function marketProposal(request: Request): MarketId | null {
  const header = config().COUNTRY_HEADER;
  return proposedMarket(request.headers.get("accept-language"), header ? request.headers.get(header) : null);
}

/** A Set-Cookie for the whole store, httpOnly, sent over HTTPS only when the store is served so. */
export function storeCookie(name: string, value: string, seconds: number): string {
  const secure = config().siteUrl.startsWith("https://") ? "; Secure" : "";
  return `${name}=${value}; Path=/; Max-Age=${seconds}; SameSite=Lax; HttpOnly${secure}`;
}

/** The Set-Cookie that remembers a chosen market. */
export function marketCookie(market: MarketId): string {
  return storeCookie(MARKET_COOKIE, market, MARKET_COOKIE_SECONDS);
}

/** Keeps a signed-in shopper's choice on their account (one row per account). */
export async function saveAccountMarket(db: Db, userId: string, market: MarketId): Promise<void> {
  const owner = ownerForUser(userId);
  const updated_at = new Date().toISOString();
  await db
    .insertInto("shopper_markets")
    .values({ owner, market, updated_at })
    .onConflict((oc) => oc.column("owner").doUpdateSet({ market, updated_at }))
    .execute();
}
