import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Card payments through Stripe Checkout (server/payments/): the order's current Checkout session
 * and what was paid and refunded; every Stripe event by its id (stored in the transaction that
 * acts on it, so a replay changes nothing); and refunds, each written before Stripe is asked, so
 * its idempotency key survives a crash.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const serial = kind === "postgres" ? "serial" : "integer";
  const orders = [
    // The cart the order came from: emptied of the ordered lines once the payment succeeds.
    ["cart_owner", "text"],
    ["payment_session_id", "text"],
    // ISO-8601 UTC: after this, Stripe no longer accepts a payment on the session.
    ["payment_session_expires_at", "text"],
    // Numbers the Checkout sessions of one order (part of each session's idempotency key).
    ["payment_attempts", "integer"],
    ["payment_intent_id", "text"],
    // What Stripe says it received (even when the order was flagged instead of marked paid).
    ["paid_cents", "integer"],
    ["paid_at", "text"],
    ["refunded_cents", "integer"],
    // Set when staff must look at the payment (amount mismatch, paid after expiry, paid twice).
    ["payment_flag", "text"],
  ] as const;
  for (const [name, type] of orders) {
    await db.schema
      .alterTable("orders")
      .addColumn(name, type, (c) =>
        name === "payment_attempts" || name === "refunded_cents" ? c.notNull().defaultTo(0) : c,
      )
      .execute();
  }
  await db.schema.createIndex("orders_payment_session_idx").on("orders").column("payment_session_id").execute();
  await db.schema.createIndex("orders_payment_intent_idx").on("orders").column("payment_intent_id").execute();
  // The checkout page looks for the cart's order still waiting for payment.
  await db.schema.createIndex("orders_cart_owner_idx").on("orders").columns(["cart_owner", "status"]).execute();
  // Flagged payments are few: the dashboard counts them through this index.
  await db.schema.createIndex("orders_payment_flag_idx").on("orders").column("payment_flag").execute();

  await db.schema
    .createTable("payment_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("object_id", "text")
    .addColumn("order_id", "integer", (c) => c.references("orders.id").onDelete("set null"))
    // Stripe's own creation time (Unix seconds) and when this store received it.
    .addColumn("created", "integer", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    // What the store did with it: "paid", "ignored: …", "flagged: …".
    .addColumn("outcome", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_events_order_idx").on("payment_events").column("order_id").execute();

  await db.schema
    .createTable("payment_refunds")
    .addColumn("id", serial, (c) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id"))
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("stripe_refund_id", "text", (c) => c.unique())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("actor", "text")
    // pending (asked, answer not recorded yet) → succeeded | failed
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("payment_refunds_order_idx")
    .on("payment_refunds")
    .columns(["order_id", "status"])
    .execute();
}
