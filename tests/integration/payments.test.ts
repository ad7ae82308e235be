import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatMoney } from "../../app/lib/money.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { expireOverdueHolds } from "../../server/orders/holds.ts";
import { reconcilePayments } from "../../server/payments/reconcile.ts";
import { dialects } from "./databases.ts";
import {
  cardOrder,
  control,
  countRows,
  deliver,
  eventBody,
  HOLD_MINUTES,
  ledgerOf,
  mailsTo,
  MINUTE,
  orderRow,
  payPage,
  placedMails,
  rawEvent,
  sessionAtStripe,
  sessionIdOf,
  setStock,
  sign,
  SITE,
  startHarness,
  stockOf,
  type Harness,
} from "./payments-support.ts";

/**
 * Card payments through Stripe Checkout (issue 13): placing a card order, opening its payment
 * page, and what Stripe's webhooks do to it — once, whatever the order, the repetition or the
 * forgery. Every assertion reads what the database (or the Stripe stand-in) holds.
 */
describe.each(dialects)("card payments on %s", (kind) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness(kind);
  });
  afterEach(async () => {
    await h?.close();
  });

  const cartOf = (owner: string) =>
    h.db
      .selectFrom("cart_items")
      .select(["product_id", "quantity"])
      .where("owner", "=", owner)
      .orderBy("product_id")
      .execute();

  it("a card order waits for payment holding its stock, keeps the cart, and its payment page is one Stripe session for the order's total", async () => {
    await setStock(h.db, 1, 40);
    const before = Date.now();
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 3 }]);
    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({
      status: "awaiting_payment",
      payment_method: "card",
      payment_status: "pending",
      payment_attempts: 0,
      payment_session_id: null,
      paid_cents: null,
      cart_owner: order.owner,
    });
    const holdMs = Date.parse(row.hold_expires_at!) - before;
    expect(holdMs).toBeGreaterThan(HOLD_MINUTES * MINUTE - 5_000);
    expect(holdMs).toBeLessThanOrEqual(HOLD_MINUTES * MINUTE + 5_000);
    expect(await stockOf(h.db, 1)).toBe(37);
    expect(await ledgerOf(h.db, order.id)).toEqual([["order", -3]]);
    expect(await cartOf(order.owner)).toEqual([{ product_id: 1, quantity: 3 }]);
    expect(await mailsTo(h.db, order.email)).toEqual([]); // the confirmation goes out when the money arrives

    const url = await payPage(h, order);
    const sessionId = await sessionIdOf(h.db, order.id);
    expect(url).toBe(`${h.fake.url}/pay/${sessionId}`);
    const session = await h.payments.stripe.checkout.sessions.retrieve(sessionId);
    expect(session).toMatchObject({
      status: "open",
      amount_total: row.total_cents,
      currency: "usd",
      client_reference_id: order.number,
    });
    const after = await orderRow(h.db, order.number);
    expect(after.payment_attempts).toBe(1);
    expect(after.payment_session_expires_at).toBe(new Date(session.expires_at * 1000).toISOString());
    expect(session.expires_at * 1000).toBeGreaterThanOrEqual(Date.parse(row.hold_expires_at!)); // the page stays payable until the hold ends

    // "Pay now" again while the page is open: the same page, no second session.
    expect(await payPage(h, order)).toBe(url);
    const creates = h.fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
    expect(creates.map((r) => r.headers["idempotency-key"])).toEqual([`checkout-${order.number}-1`]);
    expect(h.fake.db.sessions.size).toBe(1);
    expect((await orderRow(h.db, order.number)).payment_attempts).toBe(1);
  });

  it("a paid session's webhook places the order once: paid, one mail, and only the ordered lines leave the cart", async () => {
    await setStock(h.db, 1, 10);
    await setStock(h.db, 2, 10);
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 2 }], { member: true });
    await payPage(h, order);
    // While paying, the shopper puts more in the cart: one more of the same and something else.
    await addToCart(h.db, order.owner, { productId: 1, quantity: 1 });
    await addToCart(h.db, order.owner, { productId: 2, quantity: 4 });
    const total = (await orderRow(h.db, order.number)).total_cents;

    const sessionId = await sessionIdOf(h.db, order.id);
    await h.fake.completeSession(sessionId);
    await h.fake.idle();

    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({
      status: "placed",
      payment_status: "paid",
      paid_cents: total,
      hold_expires_at: null,
      payment_flag: null,
    });
    expect(row.payment_intent_id).toMatch(/^pi_/);
    expect(row.paid_at).toBeTruthy();
    expect(await placedMails(h.db, order)).toBe(1);
    expect(await cartOf(order.owner)).toEqual([
      { product_id: 1, quantity: 1 },
      { product_id: 2, quantity: 4 },
    ]);
    expect(await stockOf(h.db, 1)).toBe(8);
    expect(await ledgerOf(h.db, order.id)).toEqual([["order", -2]]);
    const events = await h.db.selectFrom("payment_events").select(["type", "order_id", "outcome"]).execute();
    expect(events).toEqual([
      { type: "checkout.session.completed", order_id: order.id, outcome: expect.stringMatching(/^paid: /) },
    ]);
    expect(h.replies.map((r) => r.status)).toEqual([200]);
  });

  it("the same event delivered five times at once changes the order once: one mail, one event row, every reply 200", async () => {
    await setStock(h.db, 1, 10);
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 1 }]);
    await payPage(h, order);
    h.fake.pauseWebhooks(); // the five copies come from here instead
    const event = await h.fake.completeSession(await sessionIdOf(h.db, order.id));
    const body = await rawEvent(h.fake, event.id);
    const replies = await Promise.all(Array.from({ length: 5 }, () => deliver(h, body)));

    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(replies.filter((r) => r.body.outcome === "paid")).toHaveLength(1);
    expect(replies.filter((r) => r.body.duplicate)).toHaveLength(4);
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "placed", payment_status: "paid", version: 2 }); // 1 when the payment page was opened, 2 when paid: one state change
    expect(await placedMails(h.db, order)).toBe(1);
    expect(await countRows(h.db, "payment_events")).toBe(1);
    const moves = await h.db
      .selectFrom("order_events")
      .select(["from_status", "to_status"])
      .where("order_id", "=", order.id)
      .where("kind", "=", "status")
      .execute();
    expect(moves).toEqual([{ from_status: "awaiting_payment", to_status: "placed" }]);

    // And Stripe's own redelivery, later, through the wire: still nothing more.
    h.fake.resumeWebhooks();
    await h.fake.idle();
    h.fake.redeliver(event.id);
    await h.fake.idle();
    expect(h.replies.every((r) => r.status === 200)).toBe(true);
    expect(await placedMails(h.db, order)).toBe(1);
    expect(await countRows(h.db, "payment_events")).toBe(1);
  });

  it("events out of order change nothing twice: expired after completed, async success before completed", async () => {
    await setStock(h.db, 1, 10);
    const a = await cardOrder(h.db, [{ productId: 1, quantity: 1 }]);
    await payPage(h, a);
    const aSession = await sessionIdOf(h.db, a.id);
    await h.fake.completeSession(aSession);
    await h.fake.idle();
    const placed = await orderRow(h.db, a.number);
    expect(placed).toMatchObject({ status: "placed", payment_status: "paid" });
    // An expiry of the same session arriving after it was paid (as if sent late).
    const expired = { ...(await sessionAtStripe(h, aSession)), status: "expired", payment_status: "unpaid" };
    expect(await deliver(h, eventBody("checkout.session.expired", expired))).toMatchObject({
      status: 200,
      body: { outcome: "ignored" },
    });
    expect(await orderRow(h.db, a.number)).toEqual(placed);
    expect(await ledgerOf(h.db, a.id)).toEqual([["order", -1]]);

    // A bank-transfer payment: "completed" (unpaid) and "async_payment_succeeded", delivered newest first.
    const b = await cardOrder(h.db, [{ productId: 1, quantity: 2 }]);
    await payPage(h, b);
    const bSession = await sessionIdOf(h.db, b.id);
    h.fake.pauseWebhooks();
    await h.fake.completeSession(bSession, { outcome: "processing" });
    await control(h.fake, `/_test/checkout/sessions/${bSession}/async_payment_succeeded`);
    h.fake.resumeWebhooks({ order: "reverse" });
    await h.fake.idle();
    const events = await h.db
      .selectFrom("payment_events")
      .select(["type", "outcome"])
      .where("order_id", "=", b.id)
      .orderBy("received_at")
      .execute();
    expect(events.map((e) => [e.type, e.outcome.split(":")[0]]).sort()).toEqual([
      ["checkout.session.async_payment_succeeded", "paid"],
      ["checkout.session.completed", "ignored"],
    ]);
    expect(await orderRow(h.db, b.number)).toMatchObject({
      status: "placed",
      payment_status: "paid",
      hold_expires_at: null,
      version: 2,
    }); // opened, then paid once
    expect(await placedMails(h.db, b)).toBe(1);
    expect(await ledgerOf(h.db, b.id)).toEqual([["order", -2]]);
    expect(await stockOf(h.db, 1)).toBe(7);
  });

  it("a delayed payment that failed is not brought back by its late 'completed' event", async () => {
    await setStock(h.db, 1, 10);
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 2 }]);
    await payPage(h, order);
    const sessionId = await sessionIdOf(h.db, order.id);
    h.fake.pauseWebhooks();
    await h.fake.completeSession(sessionId, { outcome: "processing" });
    await control(h.fake, `/_test/checkout/sessions/${sessionId}/async_payment_failed`);
    h.fake.resumeWebhooks({ order: "reverse" }); // the failure first, then the (older) "completed, processing"
    await h.fake.idle();

    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({ status: "expired", payment_status: "failed" });
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -2],
      ["order_released", 2],
    ]);
    expect(await stockOf(h.db, 1)).toBe(10);
  });

  it("'Pay now' after the shopper paid but before the store heard of it opens no second payment page", async () => {
    await setStock(h.db, 1, 10);
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 1 }]);
    await payPage(h, order);
    h.fake.pauseWebhooks(); // paid on Stripe's page; the webhook is late and the return didn't settle it
    await h.fake.completeSession(await sessionIdOf(h.db, order.id));

    await payPage(h, order).catch(() => null); // a second tab's "Pay now", or the back button
    expect(h.fake.db.sessions.size).toBe(1);
    h.fake.resumeWebhooks();
    await h.fake.idle();
    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({ status: "placed", payment_status: "paid", payment_flag: null });
  });

  it("forged, re-signed, altered or unsigned webhooks are refused with 400 and change nothing", async () => {
    await setStock(h.db, 1, 10);
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 1 }]);
    await payPage(h, order);
    h.fake.pauseWebhooks();
    const event = await h.fake.completeSession(await sessionIdOf(h.db, order.id));
    const body = await rawEvent(h.fake, event.id);
    const before = await orderRow(h.db, order.number);
    const t = Math.floor(Date.now() / 1000);

    const attempts: [string, string | null][] = [
      [body, `t=${t},v1=${"ab".repeat(32)}`], // forged
      [body, sign(body, "whsec_someone_else")], // signed with another secret
      [body.replace(`"amount_total":${before.total_cents}`, `"amount_total":1`), sign(body)], // altered after signing
      [body, null], // no Stripe-Signature header
      [body, ""],
    ];
    expect(attempts[2][0]).not.toBe(body);
    for (const [raw, signature] of attempts) {
      expect(await deliver(h, raw, signature)).toEqual({
        status: 400,
        body: { received: false, error: "Invalid signature" },
      });
    }
    expect(await countRows(h.db, "payment_events")).toBe(0);
    expect(await orderRow(h.db, order.number)).toEqual(before);
    expect(await countRows(h.db, "mail_queue")).toBe(0);

    // The genuine one still works (so the refusals above were about the signature).
    expect((await deliver(h, body)).status).toBe(200);
    expect((await orderRow(h.db, order.number)).status).toBe("placed");
  });

  it("a payment that doesn't match the order's total is not taken as payment: the order is flagged and keeps its stock", async () => {
    await setStock(h.db, 1, 10);
    const order = await cardOrder(h.db, [{ productId: 1, quantity: 2 }]);
    await payPage(h, order);
    const total = (await orderRow(h.db, order.number)).total_cents;
    await h.fake.completeSession(await sessionIdOf(h.db, order.id), { amount_total: total - 100 });
    await h.fake.idle();

    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({
      status: "awaiting_payment",
      payment_status: "pending",
      paid_cents: total - 100,
      hold_expires_at: null,
    });
    expect(row.payment_flag).toMatch(/differs from the order total/);
    expect(row.payment_intent_id).toMatch(/^pi_/);
    expect(await placedMails(h.db, order)).toBe(0);

    // Neither the expiry job nor the reconciliation releases a flagged order's stock: staff decide.
    const later = new Date(Date.now() + 3 * 60 * MINUTE);
    expect(await expireOverdueHolds(h.db, { now: later })).toBe(0);
    expect((await reconcilePayments(h.db, h.payments, { now: later, siteUrl: SITE })).checked).toBe(0);
    expect(await ledgerOf(h.db, order.id)).toEqual([["order", -2]]);
    expect(await orderRow(h.db, order.number)).toEqual(row);
  });

  it("an order in pounds is charged in pounds; its mail says pounds; a payment in dollars for it is flagged, never taken", async () => {
    await setStock(h.db, 1, 10);
    // UK market orders are made in pounds (the checkout's market); here the order is moved to pounds by hand.
    const inPounds = async () => {
      const order = await cardOrder(h.db, [{ productId: 1, quantity: 1 }]);
      await h.db.updateTable("orders").set({ currency: "gbp" }).where("id", "=", order.id).execute();
      await payPage(h, order);
      return order;
    };
    const paid = await inPounds();
    const sessionId = await sessionIdOf(h.db, paid.id);
    const total = (await orderRow(h.db, paid.number)).total_cents;
    expect(await h.payments.stripe.checkout.sessions.retrieve(sessionId)).toMatchObject({
      currency: "gbp",
      amount_total: total,
    });
    await h.fake.completeSession(sessionId);
    await h.fake.idle();
    expect(await orderRow(h.db, paid.number)).toMatchObject({
      status: "placed",
      payment_status: "paid",
      payment_flag: null,
    });
    const [mail] = await mailsTo(h.db, paid.email);
    expect(mail.text_body).toContain(`Total ${formatMoney(total, "gbp")}`);

    const wrong = await inPounds();
    await h.fake.completeSession(await sessionIdOf(h.db, wrong.id), { currency: "usd" });
    await h.fake.idle();
    const row = await orderRow(h.db, wrong.number);
    expect(row).toMatchObject({ status: "awaiting_payment", payment_status: "pending" });
    expect(row.payment_flag).toBe(
      `Amount paid ${formatMoney(row.total_cents, "usd")} USD differs from the order total ${formatMoney(row.total_cents, "gbp")} GBP.`,
    );
    expect(await placedMails(h.db, wrong)).toBe(0);
  });
});
