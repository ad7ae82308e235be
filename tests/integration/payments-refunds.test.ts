import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cancelOrder } from "../../server/orders/fulfilment.ts";
import { OrderInputError } from "../../server/orders/input.ts";
import { StaleOrderError } from "../../server/orders/staff-order.ts";
import { reconcilePayments } from "../../server/payments/reconcile.ts";
import { refundOrder, resendPendingRefunds } from "../../server/payments/refunds.ts";
import { placeTestOrder } from "./admin-orders-support.ts";
import { dialects } from "./databases.ts";
import {
  cardOrder,
  countRows,
  ledgerOf,
  mailsTo,
  MINUTE,
  orderRow,
  OTHER_STAFF,
  payPage,
  rejection,
  sessionIdOf,
  setStock,
  SITE,
  STAFF,
  startHarness,
  stockOf,
  type CardOrder,
  type Harness,
} from "./payments-support.ts";

/**
 * Refunds of card payments from the back office (issue 13): whole or in part, never more than
 * was paid, never twice (two staff at once, a crash between asking Stripe and recording the
 * answer), and refunds made in Stripe's dashboard recorded from charge.refunded. Every assertion
 * reads the database and what the Stripe stand-in holds.
 */
describe.each(dialects)("card refunds on %s", (kind) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 20);
  });
  afterEach(async () => {
    await h?.close();
  });

  /** A member's card order for `quantity` of product 1, paid through Stripe and placed by the webhook. */
  async function paidOrder(quantity = 2): Promise<CardOrder & { paid: number; intent: string }> {
    const order = await cardOrder(h.db, [{ productId: 1, quantity }], { member: true });
    await payPage(h, order);
    await h.fake.completeSession(await sessionIdOf(h.db, order.id));
    await h.fake.idle();
    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({ status: "placed", payment_status: "paid" });
    return { ...order, paid: row.paid_cents!, intent: row.payment_intent_id! };
  }
  const version = async (order: CardOrder) => Number((await orderRow(h.db, order.number)).version);
  /** STAFF refunds what is left of the order's payment. */
  const refundInFull = async (order: CardOrder) =>
    refundOrder(
      h.db,
      h.payments,
      STAFF,
      order.number,
      { version: await version(order), amount: null },
      { siteUrl: SITE },
    );
  const refundRows = (order: CardOrder) =>
    h.db
      .selectFrom("payment_refunds")
      .select(["amount_cents", "status", "reason", "actor", "stripe_refund_id"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
  const refundMails = async (order: CardOrder) =>
    (await mailsTo(h.db, order.email)).map((m) => m.subject).filter((s) => /refunded$/.test(s));
  const stripeRefunds = () =>
    [...h.fake.db.refunds.values()] as { id: string; amount: number; payment_intent: string }[];
  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

  it("refunds part, then the rest: amounts, payment status, refund rows, mails and audit rows; Stripe's echoes change nothing", async () => {
    const order = await paidOrder();
    const first = await refundOrder(
      h.db,
      h.payments,
      STAFF,
      order.number,
      { version: String(await version(order)), amount: "10.00", reason: "Box arrived damaged" },
      { siteUrl: SITE },
    );
    expect(first.message).toBe(`Refunded $10.00 on order ${order.number}. The customer has been emailed.`);
    expect(await orderRow(h.db, order.number)).toMatchObject({
      refunded_cents: 1_000,
      payment_status: "paid",
      status: "placed",
    });
    expect(await refundMails(order)).toEqual([`Part of your payment for order ${order.number} was refunded`]);

    const second = await refundOrder(
      h.db,
      h.payments,
      OTHER_STAFF,
      order.number,
      { version: await version(order), amount: "" },
      { siteUrl: SITE },
    );
    expect(second.message).toBe(
      `Refunded ${dollars(order.paid - 1_000)} on order ${order.number}. The customer has been emailed.`,
    );
    await h.fake.idle(); // Stripe's charge.refunded for both refunds arrive
    expect(await orderRow(h.db, order.number)).toMatchObject({
      refunded_cents: order.paid,
      payment_status: "refunded",
      status: "placed",
    });

    const rows = await refundRows(order);
    expect(rows).toEqual([
      {
        amount_cents: 1_000,
        status: "succeeded",
        reason: "Box arrived damaged",
        actor: "staff:staff-1",
        stripe_refund_id: stripeRefunds()[0].id,
      },
      {
        amount_cents: order.paid - 1_000,
        status: "succeeded",
        reason: null,
        actor: "staff:staff-2",
        stripe_refund_id: stripeRefunds()[1].id,
      },
    ]);
    expect(stripeRefunds().map((r) => [r.amount, r.payment_intent])).toEqual([
      [1_000, order.intent],
      [order.paid - 1_000, order.intent],
    ]);
    expect(await refundMails(order)).toEqual([
      `Part of your payment for order ${order.number} was refunded`,
      `Your payment for order ${order.number} was refunded`,
    ]);
    const audit = await h.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "object_id", "after"])
      .orderBy("id")
      .execute();
    expect(audit.map((a) => [a.action, a.actor_id, a.object_id, JSON.parse(a.after!)])).toEqual([
      ["order.refund", "staff-1", order.number, { refundCents: 1_000, reason: "Box arrived damaged" }],
      ["order.refund", "staff-2", order.number, { refundCents: order.paid - 1_000, reason: null }],
    ]);
    const refundEvents = await h.db
      .selectFrom("payment_events")
      .select("outcome")
      .where("type", "=", "charge.refunded")
      .execute();
    expect(refundEvents.map((e) => e.outcome)).toEqual([
      "ignored: refunds already recorded",
      "ignored: refunds already recorded",
    ]);

    const none = await rejection(
      refundOrder(
        h.db,
        h.payments,
        STAFF,
        order.number,
        { version: await version(order), amount: "1.00" },
        { siteUrl: SITE },
      ),
    );
    expect({ code: none.code, status: none.status }).toEqual({ code: "NOTHING_TO_REFUND", status: 409 });
    expect(stripeRefunds()).toHaveLength(2);
  });

  it("more than is left to refund is a field error, and nothing is sent or written", async () => {
    const order = await paidOrder();
    const before = await orderRow(h.db, order.number);
    const error = await rejection(
      refundOrder(
        h.db,
        h.payments,
        STAFF,
        order.number,
        { version: before.version, amount: dollars(order.paid + 1) },
        { siteUrl: SITE },
      ),
    );
    expect(error).toBeInstanceOf(OrderInputError);
    expect(error.fields).toEqual({ amount: `You can refund at most ${dollars(order.paid)} on this order.` });
    expect(await orderRow(h.db, order.number)).toEqual(before);
    expect(await refundRows(order)).toEqual([]);
    expect(stripeRefunds()).toEqual([]);
    expect(await countRows(h.db, "audit_log")).toBe(0);
  });

  it("two staff refunding the whole payment at once: one refund at Stripe, the other told clearly (409)", async () => {
    const order = await paidOrder();
    const v = await version(order);
    const results = await Promise.allSettled(
      [STAFF, OTHER_STAFF].map((staff) =>
        refundOrder(h.db, h.payments, staff, order.number, { version: v, amount: null }, { siteUrl: SITE }),
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.flatMap((r) => (r.status === "rejected" ? [r.reason as StaleOrderError] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(StaleOrderError);
    expect({ code: lost[0].code, status: lost[0].status }).toEqual({ code: "ORDER_CHANGED", status: 409 });
    expect(lost[0].message).toMatch(/Someone else changed this order while you had it open/);

    await h.fake.idle();
    expect(stripeRefunds().map((r) => r.amount)).toEqual([order.paid]);
    expect((await refundRows(order)).map((r) => [r.amount_cents, r.status])).toEqual([[order.paid, "succeeded"]]);
    expect(await orderRow(h.db, order.number)).toMatchObject({
      refunded_cents: order.paid,
      payment_status: "refunded",
    });
    expect(await refundMails(order)).toHaveLength(1);
    expect(await countRows(h.db, "audit_log")).toBe(1);
  });

  it("a crash between asking Stripe and recording the answer: Stripe's charge.refunded comes first, the job asks again with the same key, one refund, recorded and mailed once", async () => {
    const order = await paidOrder();
    const crashedAt = new Date();
    const key = `refund-${order.number}-crashed`;
    // What requestRefund wrote before the process died, and the refund Stripe made for it.
    const { id } = await h.db
      .insertInto("payment_refunds")
      .values({
        order_id: order.id,
        idempotency_key: key,
        amount_cents: order.paid,
        reason: "Cancelled by phone",
        actor: "staff:staff-1",
        status: "pending",
        created_at: crashedAt.toISOString(),
        updated_at: crashedAt.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const made = await h.payments.stripe.refunds.create(
      {
        payment_intent: order.intent,
        amount: order.paid,
        metadata: { order_number: order.number, refund_ref: String(id) },
      },
      { idempotencyKey: key },
    );
    await h.fake.idle();
    const echo = await h.db
      .selectFrom("payment_events")
      .select("outcome")
      .where("type", "=", "charge.refunded")
      .execute();
    expect(echo).toEqual([{ outcome: "ignored: refunds already recorded" }]);
    expect(await refundMails(order)).toEqual([]);
    expect((await refundRows(order)).map((r) => r.status)).toEqual(["pending"]);

    expect(
      await resendPendingRefunds(h.db, h.payments, { now: new Date(crashedAt.getTime() - MINUTE), siteUrl: SITE }),
    ).toBe(0); // too soon: maybe still in flight
    expect(
      await resendPendingRefunds(h.db, h.payments, { now: new Date(crashedAt.getTime() + 2 * MINUTE), siteUrl: SITE }),
    ).toBe(1);
    expect(stripeRefunds().map((r) => r.id)).toEqual([made.id]);
    expect(await refundRows(order)).toEqual([
      {
        amount_cents: order.paid,
        status: "succeeded",
        reason: "Cancelled by phone",
        actor: "staff:staff-1",
        stripe_refund_id: made.id,
      },
    ]);
    expect(await orderRow(h.db, order.number)).toMatchObject({
      refunded_cents: order.paid,
      payment_status: "refunded",
    });
    expect(await refundMails(order)).toEqual([`Your payment for order ${order.number} was refunded`]);

    expect(
      (await reconcilePayments(h.db, h.payments, { now: new Date(crashedAt.getTime() + 5 * MINUTE), siteUrl: SITE }))
        .refunds,
    ).toBe(0);
    await h.fake.idle();
    expect(stripeRefunds()).toHaveLength(1);
    expect(await refundMails(order)).toHaveLength(1);
  });

  it("a refund made in Stripe's dashboard arrives as charge.refunded: recorded and mailed once; the rest can still be refunded here", async () => {
    const order = await paidOrder();
    await h.payments.stripe.refunds.create({ payment_intent: order.intent, amount: 500 });
    await h.fake.idle();
    const rows = await refundRows(order);
    expect(rows).toEqual([
      {
        amount_cents: 500,
        status: "succeeded",
        reason: null,
        actor: expect.stringMatching(/^stripe:evt_/),
        stripe_refund_id: null,
      },
    ]);
    expect(await orderRow(h.db, order.number)).toMatchObject({ refunded_cents: 500, payment_status: "paid" });
    expect(await refundMails(order)).toEqual([`Part of your payment for order ${order.number} was refunded`]);

    const event = h.fake.events.find((e) => e.type === "charge.refunded")!;
    h.fake.redeliver(event.id);
    await h.fake.idle();
    expect(await refundRows(order)).toHaveLength(1);
    expect(await refundMails(order)).toHaveLength(1);

    await refundInFull(order);
    await h.fake.idle();
    expect(stripeRefunds().map((r) => r.amount)).toEqual([500, order.paid - 500]);
    expect(await orderRow(h.db, order.number)).toMatchObject({
      refunded_cents: order.paid,
      payment_status: "refunded",
    });
    expect(await refundMails(order)).toHaveLength(2);
    expect(await refundRows(order)).toHaveLength(2);
  });

  it("refuses orders with no card payment: pay on delivery, a card order not paid yet, card payments off", async () => {
    const cash = await placeTestOrder(h.db, { lines: [{ productId: 1, quantity: 1 }] });
    const unpaid = await cardOrder(h.db, [{ productId: 1, quantity: 1 }]);
    await payPage(h, unpaid);
    for (const [number, v] of [
      [cash.number, cash.version],
      [unpaid.number, await version(unpaid)],
    ] as const) {
      const error = await rejection(
        refundOrder(h.db, h.payments, STAFF, number, { version: v, amount: "" }, { siteUrl: SITE }),
      );
      expect({ code: error.code, status: error.status, message: error.message }).toEqual({
        code: "NOT_PAID_BY_CARD",
        status: 409,
        message: "This order has no card payment to refund.",
      });
    }
    const off = await rejection(
      refundOrder(h.db, null, STAFF, cash.number, { version: cash.version, amount: "" }, { siteUrl: SITE }),
    );
    expect(off.code).toBe("CARD_PAYMENTS_OFF");
    expect(await countRows(h.db, "payment_refunds")).toBe(0);
    expect(stripeRefunds()).toEqual([]);
    expect(await countRows(h.db, "audit_log")).toBe(0);
  });

  it("a paid card order can't be cancelled before its money is refunded; after the refund it can", async () => {
    const order = await paidOrder(3);
    expect(await stockOf(h.db, 1)).toBe(17);
    const before = await orderRow(h.db, order.number);
    const error = await rejection(
      cancelOrder(h.db, STAFF, order.number, { version: before.version }, { siteUrl: SITE }),
    );
    expect({ code: error.code, status: error.status }).toEqual({ code: "REFUND_FIRST", status: 409 });
    expect(await orderRow(h.db, order.number)).toEqual(before);
    expect(await stockOf(h.db, 1)).toBe(17);
    expect(await countRows(h.db, "audit_log")).toBe(0);

    await refundOrder(
      h.db,
      h.payments,
      STAFF,
      order.number,
      { version: before.version, amount: null },
      { siteUrl: SITE },
    );
    const cancelled = await cancelOrder(
      h.db,
      STAFF,
      order.number,
      { version: await version(order) },
      { siteUrl: SITE },
    );
    expect(cancelled.status).toBe("cancelled");
    expect(await stockOf(h.db, 1)).toBe(20);
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -3],
      ["cancellation", 3],
    ]);
  });

  it("a payment flagged for the wrong amount is refunded in full, then the held order cancelled and its stock released", async () => {
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 2 }]);
    await payPage(h, order);
    await h.fake.completeSession(await sessionIdOf(h.db, order.id), { amount_total: 1_234 });
    await h.fake.idle();
    expect((await orderRow(h.db, order.number)).payment_flag).toBeTruthy();

    await refundInFull(order);
    expect(stripeRefunds().map((r) => r.amount)).toEqual([1_234]);
    expect(await orderRow(h.db, order.number)).toMatchObject({
      refunded_cents: 1_234,
      paid_cents: 1_234,
      payment_status: "refunded",
    });
    await cancelOrder(h.db, STAFF, order.number, { version: await version(order) }, { siteUrl: SITE });
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "cancelled" });
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -2],
      ["order_released", 2],
    ]);
    expect(await stockOf(h.db, 1)).toBe(20);
  });
});
