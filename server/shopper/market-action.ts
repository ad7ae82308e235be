/**
 * The market picker's post (/market): remembers the choice (cookie, and the account when signed
 * in) and sends the shopper back where they were. A cart that changes market is repriced, as
 * every cart is priced in its shopper's market when read, and the cart page says so.
 */
import { z } from "zod";
import { MARKETS, MARKET_PARAM, isMarketId, type MarketId } from "../../app/lib/markets.ts";
import { CONTROL_IN_LINE } from "../../app/lib/control-characters.ts";
import { CURRENCY_NAMES } from "../../app/lib/money.ts";
import { acknowledgePrices, cartCount } from "../cart/cart.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { checkPublicForm } from "../http/public-form.ts";
import { createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { resolveShopper } from "./identity.ts";
import { marketCookie, saveAccountMarket, shopperMarket, storeCookie } from "./market.ts";

/** The short-lived cookie that tells the cart page its prices changed market (and from which). */
const REPRICED_COOKIE = "market_repriced";

export const MARKET_CHOICE_PROBLEM = "Choose a market: United Kingdom or United States.";

const marketForm = z.object({
  market: z.string().refine(isMarketId, MARKET_CHOICE_PROBLEM),
  returnTo: z.string(),
});

export type MarketActionResult =
  | { status: 200; ok: true; location: string; cookies: string[] }
  | { status: 400 | 409 | 413 | 429; ok: false; message: string };

export const TRADE_MARKET_MESSAGE =
  "Your trade account buys in US dollars: its prices, spending limits, credit and quotes are in dollars.";

/**
 * Where to go back to: a path of this store (never another site's, never `//host`), without a
 * `market` parameter, which would outrank the choice just made. Anything else is the home page.
 */
export function returnPath(value: string): string {
  const local = (path: string) => /^\/(?![/\\])/.test(path) && !CONTROL_IN_LINE.test(path);
  if (!local(value)) return "/";
  const url = new URL(value, "http://store.invalid");
  url.searchParams.delete(MARKET_PARAM);
  // Checked again once resolved: "/.//evil.example" resolves to "//evil.example", another site.
  const path = `${url.pathname}${url.search}`;
  return url.origin === "http://store.invalid" && local(path) ? path : "/";
}

export async function changeMarket(db: Db, request: Request, limiter: RateLimiter): Promise<MarketActionResult> {
  const checked = await checkPublicForm(request, {
    fields: ["market", "returnTo"] as const,
    maxLength: 2048,
    schema: marketForm,
    limiter,
    messages: {
      invalid: (errors) => errors.market ?? MARKET_CHOICE_PROBLEM,
      rateLimited: (seconds) => `Too many changes of market. Try again in ${seconds} seconds.`,
    },
  });
  if (checked.refusal) return { status: checked.refusal.status, ok: false, message: checked.refusal.message };
  const { market } = checked.data;
  const [before, shopper] = await Promise.all([shopperMarket(db, request), resolveShopper(request)]);
  if (before.trade) return { status: 409, ok: false, message: TRADE_MARKET_MESSAGE };
  if (shopper.session) await saveAccountMarket(db, shopper.session.userId, market);
  const repriced = before.market !== market && shopper.owner !== "" && (await cartCount(db, shopper.owner)) > 0;
  if (repriced) await acknowledgePrices(db, shopper.owner, market);
  const cookies = [marketCookie(market)];
  if (repriced) cookies.push(storeCookie(REPRICED_COOKIE, before.market, 600));
  return {
    status: 200,
    ok: true,
    location: returnPath(checked.data.returnTo),
    cookies,
  };
}

let limiter: RateLimiter | undefined;

/** Market changes allowed per client IP: plenty for a person, few for a script. */
export function marketLimiter(): RateLimiter {
  limiter ??= createRateLimiter({ name: "market", windowSeconds: 60, max: 30, redisUrl: config().REDIS_URL });
  return limiter;
}

/**
 * What the cart page says once after the shopper's market changed with things in the cart, and
 * the Set-Cookie that stops it saying so again; null when nothing changed.
 */
export function repricedNotice(request: Request, market: MarketId): { message: string; clear: string } | null {
  const from = new RegExp(`(?:^|;\\s*)${REPRICED_COOKIE}=([a-z]{2})(?:;|$)`).exec(request.headers.get("cookie") ?? "");
  if (!from || !isMarketId(from[1]) || from[1] === market) return null;
  const { name, currency } = MARKETS[market];
  return {
    message: `Your cart was repriced in ${CURRENCY_NAMES[currency]} when you changed market to the ${name}.`,
    clear: storeCookie(REPRICED_COOKIE, "", 0),
  };
}
