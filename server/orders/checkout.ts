import { createHash, randomBytes } from "node:crypto";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import {
  summarizeOrder,
  type OrderSummary,
  type PricedLine,
  type ShippingCountry,
  type SummaryTax,
} from "../../app/lib/order-rules.ts";
import { DEFAULT_MARKET, MARKETS, type MarketId } from "../../app/lib/markets.ts";
import {
  buyingMarket,
  checkoutCountries,
  deliveryMarketProblem,
  orderMarket,
  type CheckoutBuyer,
} from "./checkout-market.ts";
import { getCart } from "../cart/cart.ts";
import { config } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { isDomainError } from "../errors.ts";
import { clientIp, createRateLimiter, type RateLimiter } from "../security/rate-limit.ts";
import { confirmGuestOrder, type ConfirmOutcome } from "./holds.ts";
import type { GuestHoldCaps } from "./guest-holds.ts";
import { placeOrder, type PlacedOrder } from "./place-order.ts";
import { openPaymentPage, orderPagePath } from "../payments/attempts.ts";
import { paymentsFromConfig, type Payments } from "../payments/stripe.ts";
import { logLine } from "../ops/log.ts";
import { acceptRefusal } from "../quotes/accept.ts";
import { quoteForCustomer } from "../quotes/quotes.ts";
import { checkoutTax } from "../tax/checkout-tax.ts";
import { CheckoutReviewError, type CheckoutReview } from "./checkout-review.ts";

/**
 * What the checkout page shows: the cart at today's prices in the buyer's market and the summary
 * for each country it delivers to.
 */
export async function checkoutPreview(
  db: Db,
  owner: string,
  isMember: boolean,
  buyer: CheckoutBuyer = { market: DEFAULT_MARKET, trade: false, quote: false },
) {
  const cart = await getCart(db, owner, buyer.market);
  const priced = cart.lines.map((l) => ({
    productId: l.productId,
    unitPriceCents: l.unitPriceCents,
    quantity: l.quantity,
  }));
  return {
    cart,
    ...(await previewSummaries(db, priced, isMember, buyer)),
    checkoutToken: randomBytes(18).toString("base64url"),
  };
}

/**
 * What the checkout's summary says of US sales tax before the ZIP code is known: the same whether
 * or not the store collects anywhere yet, so the page never depends on the tax table's state.
 */
const US_TAX_AT_CHECKOUT = "By ZIP code, shown before you place the order";

/**
 * Each country's summary before the address is known, and its tax: the VAT inside UK prices, and
 * for the US that the ZIP code decides the sales tax.
 */
async function previewSummaries(
  db: Db,
  priced: (PricedLine & { productId: number })[],
  isMember: boolean,
  buyer: CheckoutBuyer,
) {
  const summaryFor = (country: ShippingCountry) =>
    summarizeOrder(priced, { isMember, country, market: orderMarket(country, buyer) });
  const countries = checkoutCountries(buyer);
  const summaries: Partial<Record<ShippingCountry, OrderSummary>> = Object.fromEntries(
    countries.map((c) => [c, summaryFor(c)]),
  );
  const gb = summaries.GB ?? summaryFor("GB");
  const ids = [...new Set(priced.map((l) => l.productId))];
  const rules = ids.length
    ? await db.selectFrom("products").select(["id", "vat_class"]).where("id", "in", ids).execute()
    : [];
  const vatClassOf = new Map(rules.map((r) => [Number(r.id), r.vat_class]));
  const vat = await checkoutTax(db, {
    country: "GB",
    postcode: "",
    organizationId: null,
    lines: priced.map((l) => ({
      amountCents: l.unitPriceCents * l.quantity,
      vatClass: vatClassOf.get(l.productId) ?? "standard",
    })),
    discountCents: gb.memberDiscountCents,
    shippingCents: gb.shippingCents,
    today: new Date().toISOString().slice(0, 10),
  });
  const taxes: Record<ShippingCountry, SummaryTax> = {
    GB: { lines: vat.lines.map((l) => ({ label: l.label, taxCents: l.taxCents, included: true })), note: null },
    US: { lines: [], note: US_TAX_AT_CHECKOUT },
  };
  return { summaries, taxes, currency: MARKETS[buyingMarket(buyer)].currency };
}

/**
 * What the checkout page shows when a quote is being accepted: its lines at the quoted prices
 * (no member discount on top), or null when the quote isn't this buyer's or can't be accepted now.
 */
export async function quoteCheckoutPreview(db: Db, userId: string, number: string, now = new Date()) {
  const quote = await quoteForCustomer(db, userId, number, now);
  if (!quote) return null;
  const refusal = acceptRefusal(quote, now);
  if (refusal) return { refusal: refusal.message, number: quote.number };
  const priced = quote.lines.map((l) => ({
    productId: l.productId,
    unitPriceCents: l.quotedUnitCents!,
    quantity: l.quantity,
  }));
  const lines = quote.lines.map((l) => ({
    productId: l.productId,
    color: l.color,
    title: l.title,
    quantity: l.quantity,
    lineTotalCents: l.quotedUnitCents! * l.quantity,
  }));
  return {
    refusal: null,
    number: quote.number,
    validUntil: quote.valid_until!,
    cart: { lines },
    ...(await previewSummaries(db, priced, false, { market: "us", trade: false, quote: true })),
    checkoutToken: randomBytes(18).toString("base64url"),
  };
}

export interface CheckoutDeps {
  siteUrl: string;
  holdMinutes: number;
  /** Order attempts per client IP. */
  ipLimiter: RateLimiter;
  /** Order attempts per email address (the typed one, or the member's). */
  emailLimiter: RateLimiter;
  /** Card payments through Stripe, or null when they are off (the card option is then refused). */
  payments: Payments | null;
  /**
   * The caps on units that guests' orders awaiting confirmation or payment hold at once, per
   * client network and per email (server/orders/guest-holds.ts); the route always has them.
   */
  guestHolds?: GuestHoldCaps;
}

export interface CheckoutShopper {
  owner: string;
  userId: string | null;
  /** A member's account email; a guest types one. */
  email: string | null;
  /** The market the shopper's cart is priced in (default the US), and whether they buy for a trade account. */
  market?: MarketId;
  trade?: boolean;
}

export type FieldErrors = Partial<Record<string, string>>;

interface CheckoutFailure {
  errors: FieldErrors;
  message: string;
  /** Put back into the form, so nothing typed is lost. */
  values: Record<string, string>;
  /** The sales tax and California's warning, shown before the buyer places the order again. */
  review?: CheckoutReview;
}

export type CheckoutResult =
  | { ok: true; order: PlacedOrder; location: string }
  | { ok: false; status: number; data: CheckoutFailure; retryAfterSeconds?: number };

const HOUR = 3600;

/** "45 seconds", "1 minute", "37 minutes". */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.ceil(seconds))} second${Math.ceil(seconds) === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export const CHECKOUT_LIMIT_MESSAGES = {
  ip: (seconds: number) =>
    `Too many orders have been placed from your network in the last hour. Please try again in ${waitText(seconds)}. Your details are still filled in below.`,
  email: (seconds: number) =>
    `Too many orders have been placed with this email address in the last hour. Please try again in ${waitText(seconds)}. Your details are still filled in below.`,
};

/** Limiter key for an address: a hash, so no address sits in Redis in clear. */
export function emailKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex").slice(0, 32);
}

function echoValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && key.length <= 40) values[key] = value.slice(0, 300);
  return values;
}

/**
 * The checkout form's server side: validates the form, applies the per-IP and per-email rate
 * limits (a retry of a checkout that already made its order is not counted), and places the
 * order; a guest's order only within the caps on what guests' orders hold (deps.guestHolds).
 * Every refusal comes back with a readable message and the values to refill the form.
 */
export async function submitCheckout(
  db: Db,
  form: FormData,
  client: { ip: string; origin?: string },
  shopper: CheckoutShopper,
  deps: CheckoutDeps,
): Promise<CheckoutResult> {
  const values = echoValues(form);
  if (shopper.email) values.email = shopper.email;
  const parsed = checkoutSchema.safeParse(values);
  if (!parsed.success) {
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    return { ok: false, status: 400, data: { errors, message: "Please correct the highlighted fields.", values } };
  }
  const checkout = parsed.data;
  const quoteField = form.get("quote");
  const quoteNumber = typeof quoteField === "string" && quoteField ? quoteField.slice(0, 20) : null;
  const wrongMarket = deliveryMarketProblem(checkout.country, {
    market: shopper.market ?? DEFAULT_MARKET,
    trade: shopper.trade ?? false,
    quote: quoteNumber != null,
  });
  if (wrongMarket)
    return { ok: false, status: 409, data: { errors: { country: wrongMarket }, message: wrongMarket, values } };
  if (checkout.paymentMethod === "card" && !deps.payments) {
    const message = "Card payment isn't available on this store. Choose another way to pay.";
    return { ok: false, status: 400, data: { errors: { paymentMethod: message }, message, values } };
  }
  const retry = await db
    .selectFrom("orders")
    .select("id")
    .where("checkout_token", "=", checkout.checkoutToken)
    .executeTakeFirst();
  if (!retry) {
    const byIp = await deps.ipLimiter.hit(client.ip);
    if (!byIp.allowed)
      return {
        ok: false,
        status: 429,
        retryAfterSeconds: byIp.retryAfterSeconds,
        data: { errors: {}, message: CHECKOUT_LIMIT_MESSAGES.ip(byIp.retryAfterSeconds), values },
      };
    const byEmail = await deps.emailLimiter.hit(emailKey(checkout.email));
    if (!byEmail.allowed) {
      return {
        ok: false,
        status: 429,
        retryAfterSeconds: byEmail.retryAfterSeconds,
        data: { errors: {}, message: CHECKOUT_LIMIT_MESSAGES.email(byEmail.retryAfterSeconds), values },
      };
    }
  }
  try {
    const order = await placeOrder(db, {
      owner: shopper.owner,
      userId: shopper.userId,
      quoteNumber,
      checkout,
      siteUrl: deps.siteUrl,
      holdMinutes: deps.holdMinutes,
      paymentHoldMinutes: deps.payments?.holdMinutes,
      guestHolds: shopper.userId == null && deps.guestHolds ? { client: client.ip, caps: deps.guestHolds } : undefined,
    });
    const orderPath = orderPagePath({ user_id: shopper.userId, number: order.number, access_token: order.accessToken });
    if (checkout.paymentMethod === "card" && deps.payments) {
      return {
        ok: true,
        order,
        location: await paymentLocation(db, deps.payments, order, orderPath, client.origin ?? deps.siteUrl),
      };
    }
    return { ok: true, order, location: `${orderPath}?placed=1` };
  } catch (error) {
    if (error instanceof CheckoutReviewError) {
      const { tax, prop65 } = error.review;
      const shown = { ...values };
      if (tax) shown.shownTaxCents = String(tax.taxCents);
      if (prop65) shown.prop65Shown = "1";
      return {
        ok: false,
        status: error.status,
        data: { errors: {}, message: error.message, values: shown, review: error.review },
      };
    }
    if (isDomainError(error)) {
      const field =
        error.code === "PO_REQUIRED" ? "poNumber" : error.code === "APPROVAL_NOT_BY_CARD" ? "paymentMethod" : null;
      return {
        ok: false,
        status: error.status,
        data: { errors: field ? { [field]: error.message } : {}, message: error.message, values },
      };
    }
    throw error;
  }
}

/** Stripe's page for a new card order; if Stripe can't be reached, the order's page, which offers "Pay now". */
async function paymentLocation(
  db: Db,
  payments: Payments,
  order: PlacedOrder,
  orderPath: string,
  origin: string,
): Promise<string> {
  const row = await db
    .selectFrom("orders")
    .select(["id", "status", "payment_status"])
    .where("number", "=", order.number)
    .executeTakeFirstOrThrow();
  if (row.status !== "awaiting_payment" || row.payment_status !== "pending") return orderPath;
  try {
    return await openPaymentPage(db, payments, row.id, { orderPath, origin });
  } catch (error) {
    logLine(
      `Payment page for order ${order.number} not opened: ${error instanceof Error ? error.message : String(error)}`,
    );
    return `${orderPath}?payment=unavailable`;
  }
}

let defaults: CheckoutDeps | undefined;

/** The dependencies the /checkout route uses, built once from the configuration. */
export function defaultCheckoutDeps(): CheckoutDeps {
  if (!defaults) {
    const cfg = config();
    defaults = {
      siteUrl: cfg.siteUrl,
      holdMinutes: cfg.GUEST_ORDER_HOLD_MINUTES,
      ipLimiter: createRateLimiter({
        name: "checkout-ip",
        windowSeconds: HOUR,
        max: cfg.CHECKOUT_IP_LIMIT,
        redisUrl: cfg.REDIS_URL,
      }),
      emailLimiter: createRateLimiter({
        name: "checkout-email",
        windowSeconds: HOUR,
        max: cfg.CHECKOUT_EMAIL_LIMIT,
        redisUrl: cfg.REDIS_URL,
      }),
      payments: paymentsFromConfig(cfg),
      guestHolds: { perClient: cfg.GUEST_HOLD_IP_UNITS, perEmail: cfg.GUEST_HOLD_EMAIL_UNITS },
    };
  }
  return defaults;
}

let confirmLimiter: RateLimiter | undefined;

/**
 * The guest order page's "Confirm order" post: rate-limited per client IP (the link's secret is
 * far too long to guess, this only keeps a flood off the database), then confirmGuestOrder.
 */
export async function confirmGuestOrderAction(
  db: Db,
  input: { accessToken: string; confirmToken: string; request: Request; limiter?: RateLimiter; siteUrl?: string },
): Promise<
  { ok: true; outcome: ConfirmOutcome } | { ok: false; status: number; message: string; retryAfterSeconds?: number }
> {
  const cfg = config();
  confirmLimiter ??= createRateLimiter({
    name: "order-confirm",
    windowSeconds: 15 * 60,
    max: 30,
    redisUrl: cfg.REDIS_URL,
  });
  const limit = await (input.limiter ?? confirmLimiter).hit(clientIp(input.request));
  if (!limit.allowed)
    return {
      ok: false,
      status: 429,
      retryAfterSeconds: limit.retryAfterSeconds,
      message: `Too many attempts. Please try again in ${waitText(limit.retryAfterSeconds)}.`,
    };
  try {
    const { outcome } = await confirmGuestOrder(db, {
      accessToken: input.accessToken,
      confirmToken: input.confirmToken,
      siteUrl: input.siteUrl ?? cfg.siteUrl,
    });
    return { ok: true, outcome };
  } catch (error) {
    if (isDomainError(error)) return { ok: false, status: error.status, message: error.message };
    throw error;
  }
}
