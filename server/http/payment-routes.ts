import express, { type Router } from "express";
import type { AppConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { logLine } from "../ops/log.ts";
import { handleStripeWebhook } from "../payments/webhook.ts";
import { paymentsFromConfig } from "../payments/stripe.ts";
import { clientKey, createRateLimiter } from "../security/rate-limit.ts";

export const STRIPE_WEBHOOK_PATH = "/api/payments/stripe/webhook";

/**
 * Stripe's webhook: the raw body (the signature covers the exact bytes, so nothing may parse it
 * first), answered 400 for a bad signature or a signed body that is no event (handleStripeWebhook
 * says why), 200 once the event is stored (or was already), 404 while card payments are off. A
 * generous per-address limit (an IPv6 client by its /64) keeps a flood off the database.
 */
export function paymentRouter(db: Db, cfg: AppConfig): Router {
  const router = express.Router();
  const limiter = createRateLimiter({ name: "stripe-webhook", windowSeconds: 60, max: 1200, redisUrl: cfg.REDIS_URL });
  router.post(STRIPE_WEBHOOK_PATH, express.raw({ type: () => true, limit: "1mb" }), async (req, res) => {
    const payments = paymentsFromConfig(cfg);
    if (!payments) {
      res.status(404).json({ received: false, error: "Card payments are not configured on this store." });
      return;
    }
    const limit = await limiter.hit(clientKey(req.ip ?? req.socket.remoteAddress));
    if (!limit.allowed) {
      res
        .status(429)
        .set("Retry-After", String(limit.retryAfterSeconds))
        .json({ received: false, error: "Too many requests" });
      return;
    }
    try {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const reply = await handleStripeWebhook(db, payments, {
        rawBody,
        signature: req.get("stripe-signature") ?? null,
        siteUrl: cfg.siteUrl,
      });
      if (reply.status !== 200) logLine(`Stripe webhook refused: ${reply.body.error}`);
      res.status(reply.status).json(reply.body);
    } catch (error) {
      // Not stored: Stripe sends the event again later.
      logLine(`Stripe webhook failed: ${error instanceof Error ? error.message : String(error)}`);
      res.status(500).json({ received: false, error: "Not processed; send it again." });
    }
  });
  return router;
}
