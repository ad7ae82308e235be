/**
 * Shared set-up for the card-payment tests (issue 13): a fresh database, the local Stripe stand-in
 * (tests/support/fake-stripe.mjs) driven through the official SDK, and a small HTTP receiver that
 * hands the stand-in's signed webhooks to the store's own handleStripeWebhook, exactly as the
 * route does. Orders are placed through the real cart and placeOrder. Nothing of the store's own
 * code is mocked.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import type { Db, DbKind } from "../../server/db/connection.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { openPaymentPage, orderPagePath } from "../../server/payments/attempts.ts";
import { createStripe, type Payments } from "../../server/payments/stripe.ts";
import { handleStripeWebhook, type WebhookReply } from "../../server/payments/webhook.ts";
import { createFakeStripe, type FakeStripe } from "../support/fake-stripe.mjs";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { freshSeededDb, mailsTo, type TestDb } from "./databases.ts";

export { countRows, mailsTo } from "./databases.ts";

export const SITE = "https://shop.example";
const WEBHOOK_SECRET = "whsec_payments_integration";
export const HOLD_MINUTES = 30;
export const MINUTE = 60_000;
export const STAFF = { userId: "staff-1", name: "Sam Staff" };
export const OTHER_STAFF = { userId: "staff-2", name: "Pat Packer" };

export interface Harness {
  t: TestDb;
  db: Db;
  fake: FakeStripe;
  payments: Payments;
  /** Every answer the store gave to a webhook the stand-in delivered. */
  replies: (WebhookReply | { status: 500; error: string })[];
  close(): Promise<void>;
}

/**
 * A fresh database with `products` seeded products, a Stripe stand-in and a webhook receiver.
 * `webhooks: false` gives a stand-in with no endpoint (as if the webhook never came).
 */
export async function startHarness(
  kind: DbKind,
  options: { webhooks?: boolean; products?: number } = {},
): Promise<Harness> {
  const t = await freshSeededDb(kind, options.products ?? 12);
  const replies: Harness["replies"] = [];
  // Assigned once the receiver is listening; the handler above reads it later.
  // eslint-disable-next-line prefer-const
  let payments!: Payments;
  const receiver = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const signature = req.headers["stripe-signature"];
    try {
      const reply = await handleStripeWebhook(t.db, payments, {
        rawBody: Buffer.concat(chunks),
        signature: typeof signature === "string" ? signature : null,
        siteUrl: SITE,
      });
      replies.push(reply);
      res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.body));
    } catch (error) {
      replies.push({ status: 500, error: String(error) });
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/stripe/webhook`;
  const fake = createFakeStripe({
    webhookUrl: options.webhooks === false ? undefined : receiverUrl,
    webhookSecret: WEBHOOK_SECRET,
    retryDelaysMs: [20, 50, 100],
    expiryCheckMs: 0,
  });
  await fake.listen();
  payments = {
    stripe: createStripe({ secretKey: "sk_test_payments", apiUrl: fake.url, maxNetworkRetries: 0 }),
    webhookSecret: WEBHOOK_SECRET,
    holdMinutes: HOLD_MINUTES,
  };
  return {
    t,
    db: t.db,
    fake,
    payments,
    replies,
    async close() {
      await fake.close();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
      await t.drop();
    },
  };
}

/** Payments pointing at a port nobody listens on (Stripe unreachable). */
export async function unreachablePayments(): Promise<Payments> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return {
    stripe: createStripe({
      secretKey: "sk_test_payments",
      apiUrl: `http://127.0.0.1:${port}`,
      maxNetworkRetries: 0,
      timeoutMs: 2_000,
    }),
    webhookSecret: WEBHOOK_SECRET,
    holdMinutes: HOLD_MINUTES,
  };
}

export async function setStock(db: Db, productId: number, stock: number): Promise<void> {
  await db.updateTable("products").set({ stock_quantity: stock }).where("id", "=", productId).execute();
}

export async function stockOf(db: Db, productId: number): Promise<number> {
  return Number(
    (await db.selectFrom("products").select("stock_quantity").where("id", "=", productId).executeTakeFirstOrThrow())
      .stock_quantity,
  );
}

export const orderRow = (db: Db, number: string) =>
  db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();

/** The order's stock movements as [reason, delta]. */
export async function ledgerOf(db: Db, orderId: number): Promise<[string, number][]> {
  const rows = await db
    .selectFrom("stock_movements")
    .select(["reason", "delta"])
    .where("order_id", "=", orderId)
    .orderBy("id")
    .execute();
  return rows.map((r) => [r.reason, Number(r.delta)]);
}

export const newOwner = () => `g:${randomBytes(18).toString("base64url")}`;
const newEmail = () => `card.${randomBytes(5).toString("hex")}@example.com`;

export interface CardOrder {
  id: number;
  number: string;
  accessToken: string;
  owner: string;
  userId: string | null;
  email: string;
}

/** A shopper's cart (guest unless `member`), checked out with "Card": the order awaits payment. */
export async function cardOrder(
  db: Db,
  lines: { productId: number; quantity: number }[],
  options: { member?: boolean; owner?: string; now?: Date } = {},
): Promise<CardOrder> {
  const userId = options.member ? `user-${randomBytes(6).toString("hex")}` : null;
  const owner = options.owner ?? (userId ? `u:${userId}` : newOwner());
  if (!options.owner) for (const line of lines) await addToCart(db, owner, line);
  return placeCardOrder(db, owner, userId, options.now);
}

/** Places a card order from the cart `owner` already holds. */
export async function placeCardOrder(
  db: Db,
  owner: string,
  userId: string | null = null,
  now?: Date,
): Promise<CardOrder> {
  const email = newEmail();
  const checkout = checkoutSchema.parse({
    ...validCheckoutForm,
    email,
    paymentMethod: "card",
    checkoutToken: randomBytes(18).toString("base64url"),
  });
  const placed = await placeOrder(db, {
    owner,
    userId,
    checkout,
    siteUrl: SITE,
    paymentHoldMinutes: HOLD_MINUTES,
    now,
  });
  const row = await orderRow(db, placed.number);
  return { id: row.id, number: placed.number, accessToken: placed.accessToken, owner, userId, email };
}

/** "Continue to payment": the Stripe URL for the order (a new Checkout session, or the open one). */
export function payPage(h: Harness, order: CardOrder, now?: Date): Promise<string> {
  return openPaymentPage(
    h.db,
    h.payments,
    order.id,
    {
      orderPath: orderPagePath({ user_id: order.userId, number: order.number, access_token: order.accessToken }),
      origin: SITE,
    },
    now,
  );
}

export async function sessionIdOf(db: Db, orderId: number): Promise<string> {
  const row = await db
    .selectFrom("orders")
    .select("payment_session_id")
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  if (!row.payment_session_id) throw new Error(`order ${orderId} has no Checkout session`);
  return row.payment_session_id;
}

/** A control route of the stand-in (e.g. async_payment_succeeded), outside Stripe's API. */
export async function control(fake: FakeStripe, path: string): Promise<void> {
  const res = await fetch(`${fake.url}${path}`, { method: "POST" });
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
}

/** The event exactly as the stand-in sends it (its JSON body). */
export async function rawEvent(fake: FakeStripe, eventId: string): Promise<string> {
  const res = await fetch(`${fake.url}/v1/events/${eventId}`, {
    headers: { authorization: "Bearer sk_test_payments" },
  });
  if (res.status !== 200) throw new Error(`event ${eventId}: HTTP ${res.status}`);
  return res.text();
}

/** A Stripe event around `object`, with a new id (for deliveries Stripe might make out of order). */
export function eventBody(type: string, object: unknown): string {
  return JSON.stringify({
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
}

export const sign = (payload: string, secret = WEBHOOK_SECRET) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret });

/** Delivers a webhook body to the store's handler, signed with the store's secret unless `signature` is given. */
export function deliver(h: Harness, rawBody: string, signature: string | null = sign(rawBody)): Promise<WebhookReply> {
  return handleStripeWebhook(h.db, h.payments, { rawBody, signature, siteUrl: SITE });
}

/** The session as the stand-in holds it now (a plain object, as a webhook would carry it). */
export async function sessionAtStripe(h: Harness, sessionId: string): Promise<Stripe.Checkout.Session> {
  return JSON.parse(
    JSON.stringify(await h.payments.stripe.checkout.sessions.retrieve(sessionId)),
  ) as Stripe.Checkout.Session;
}

/** The confirmation mails ("Your ToolHub Wholesale order …") queued for this order. */
export async function placedMails(db: Db, order: CardOrder): Promise<number> {
  return (await mailsTo(db, order.email)).filter((m) => m.subject === `Your ToolHub Wholesale order ${order.number}`)
    .length;
}

/** The rejection of `promise`. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code?: string; status?: number; fields?: Record<string, string> }> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e as Error,
  );
}
