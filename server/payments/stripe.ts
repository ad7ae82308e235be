/**
 * The Stripe client and what the payment code needs from the configuration. Card payments are on
 * only when both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; STRIPE_API_URL points the
 * official SDK at a local stand-in (tests/support/fake-stripe.mjs) where Stripe can't be reached.
 */
import Stripe from "stripe";
import { isLoopbackDefault, loopbackHosts } from "../auth/origins.ts";
import { config, type AppConfig } from "../config.ts";

export interface Payments {
  stripe: Stripe;
  webhookSecret: string;
  /** How long a card order holds its stock while the shopper pays. */
  holdMinutes: number;
}

export interface StripeConnection {
  secretKey: string;
  /** e.g. http://127.0.0.1:12111 for a local stand-in; Stripe's own API when absent. */
  apiUrl?: string;
  /** Network retries of the SDK itself (same idempotency key each time). */
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

export function createStripe(connection: StripeConnection): Stripe {
  const local = connection.apiUrl ? new URL(connection.apiUrl) : null;
  return new Stripe(connection.secretKey, {
    maxNetworkRetries: connection.maxNetworkRetries ?? 2,
    timeout: connection.timeoutMs ?? 20_000,
    appInfo: { name: "ToolHub Wholesale" },
    ...(local
      ? {
          host: local.hostname,
          port: Number(local.port || (local.protocol === "https:" ? 443 : 80)),
          protocol: local.protocol.replace(":", "") as "http" | "https",
        }
      : {}),
  });
}

let cached: Payments | null | undefined;

/** The store's Stripe setup, or null when card payments are off. */
export function paymentsFromConfig(cfg: AppConfig = config()): Payments | null {
  if (cached !== undefined) return cached;
  const key = cfg.STRIPE_SECRET_KEY;
  const webhookSecret = cfg.STRIPE_WEBHOOK_SECRET;
  cached =
    key && webhookSecret
      ? {
          stripe: createStripe({ secretKey: key, apiUrl: cfg.STRIPE_API_URL }),
          webhookSecret,
          holdMinutes: cfg.PAYMENT_HOLD_MINUTES,
        }
      : null;
  return cached;
}

/**
 * Where Stripe sends the shopper back: the site's address, or in the default local mode the
 * loopback host the shopper is using (so a shopper on 127.0.0.1 comes back to 127.0.0.1, where
 * their cookies are).
 */
export function returnOrigin(request: Request, cfg: AppConfig = config()): string {
  const host = request.headers.get("host") ?? "";
  if (isLoopbackDefault(cfg) && loopbackHosts(cfg.PORT).includes(host)) return `http://${host}`;
  return cfg.siteUrl;
}

/** The origin of Stripe's hosted payment page, for the Content-Security-Policy's form-action. */
export function checkoutPageOrigins(cfg: AppConfig = config()): string[] {
  return ["https://checkout.stripe.com", ...(cfg.STRIPE_API_URL ? [new URL(cfg.STRIPE_API_URL).origin] : [])];
}
