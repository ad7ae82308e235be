import { afterEach, describe, expect, it } from "vitest";
import { runJobIfDue } from "../../server/jobs/runner.ts";
import { expireOverdueHolds } from "../../server/orders/holds.ts";
import { LinesOutOfStockError } from "../../server/orders/place-order.ts";
import { ALREADY_PAID_MESSAGE, holdAgainForPayment } from "../../server/payments/attempts.ts";
import { payFromOrderPage } from "../../server/payments/order-page.ts";
import { reconcilePayments, reconcilePaymentsJob } from "../../server/payments/reconcile.ts";
import { placeTestOrder } from "./admin-orders-support.ts";
import { dialects } from "./databases.ts";
import {
  cardOrder,
  countRows,
  HOLD_MINUTES,
  ledgerOf,
  MINUTE,
  orderRow,
  payPage,
  placedMails,
  rejection,
  sessionIdOf,
  setStock,
  SITE,
  startHarness,
  stockOf,
  unreachablePayments,
  type Harness,
} from "./payments-support.ts";

/**
 * What happens to a card order after its hold ends (issue 13): the reconciliation job asks
 * Stripe and places, or closes and releases; a payment that arrives late takes the stock again
 * (or is flagged, never oversold); "Try again" holds the same order again for a new attempt.
 */
describe.each(dialects)("card orders past their hold on %s", (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  /** A card order with its payment page open; `hold` and `sessionEnd` are when each runs out (ms). */
  async function openOrder(productId: number, quantity: number) {
    const order = await cardOrder(h.db, [{ productId, quantity }]);
    await payPage(h, order);
    const row = await orderRow(h.db, order.number);
    return {
      ...order,
      sessionId: row.payment_session_id!,
      hold: Date.parse(row.hold_expires_at!),
      sessionEnd: Date.parse(row.payment_session_expires_at!),
    };
  }
  const at = (ms: number) => new Date(ms);
  const expireCalls = () =>
    h.fake.requests.filter((r) => r.method === "POST" && /^\/v1\/checkout\/sessions\/[^/]+\/expire$/.test(r.path))
      .length;

  it("a session paid at Stripe whose webhook never came: the job places the order, once", async () => {
    h = await startHarness(kind, { webhooks: false });
    await setStock(h.db, 1, 10);
    const order = await openOrder(1, 2);
    await h.fake.completeSession(order.sessionId);
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "awaiting_payment", payment_status: "pending" });

    const now = at(order.hold + MINUTE);
    expect(await reconcilePayments(h.db, h.payments, { now, siteUrl: SITE })).toMatchObject({
      checked: 1,
      placed: 1,
      released: 0,
      unreachable: 0,
    });
    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({ status: "placed", payment_status: "paid", paid_cents: row.total_cents });
    expect(await placedMails(h.db, order)).toBe(1);
    expect(await reconcilePayments(h.db, h.payments, { now, siteUrl: SITE })).toMatchObject({ checked: 0, placed: 0 });
    expect(await placedMails(h.db, order)).toBe(1);
    expect(await ledgerOf(h.db, order.id)).toEqual([["order", -2]]);
    expect(expireCalls()).toBe(0);
  });

  it("an open session past the hold is closed at Stripe and the stock released, once (its expiry webhook changes nothing)", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 10);
    const order = await openOrder(1, 3);
    expect(await reconcilePayments(h.db, h.payments, { now: at(order.hold - MINUTE), siteUrl: SITE })).toMatchObject({
      checked: 0,
    });

    h.fake.pauseWebhooks(); // the expiry webhook comes after the job's own release (else either may release first)
    expect(await reconcilePayments(h.db, h.payments, { now: at(order.hold + MINUTE), siteUrl: SITE })).toMatchObject({
      checked: 1,
      released: 1,
      placed: 0,
    });
    expect((await h.payments.stripe.checkout.sessions.retrieve(order.sessionId)).status).toBe("expired");
    h.fake.resumeWebhooks();
    await h.fake.idle();
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "expired", payment_status: "pending" });
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -3],
      ["order_released", 3],
    ]);
    expect(await stockOf(h.db, 1)).toBe(10);
    const events = await h.db.selectFrom("payment_events").select(["type", "outcome"]).execute();
    expect(events).toEqual([{ type: "checkout.session.expired", outcome: expect.stringMatching(/^ignored/) }]);
    expect(await placedMails(h.db, order)).toBe(0);
  });

  it("the job and the expiry webhook it causes, releasing at the same moment: released once", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 10);
    const orders = [await openOrder(1, 1), await openOrder(1, 2), await openOrder(1, 3)];
    await reconcilePayments(h.db, h.payments, {
      now: at(Math.max(...orders.map((o) => o.hold)) + MINUTE),
      siteUrl: SITE,
    });
    await h.fake.idle();
    for (const order of orders) {
      expect((await orderRow(h.db, order.number)).status).toBe("expired");
      expect((await ledgerOf(h.db, order.id)).map(([reason]) => reason)).toEqual(["order", "order_released"]);
      const moves = await h.db
        .selectFrom("order_events")
        .select("to_status")
        .where("order_id", "=", order.id)
        .where("kind", "=", "status")
        .execute();
      expect(moves).toEqual([{ to_status: "expired" }]);
    }
    expect(await stockOf(h.db, 1)).toBe(10);
    expect(h.replies.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it("Stripe unreachable: nothing is released while the session could still be paid; released once it has expired", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 10);
    const order = await openOrder(1, 2);
    const offline = await unreachablePayments();
    expect(order.sessionEnd).toBeGreaterThan(order.hold);

    const meanwhile = at(order.hold + (order.sessionEnd - order.hold) / 2);
    expect(await reconcilePayments(h.db, offline, { now: meanwhile, siteUrl: SITE })).toMatchObject({
      checked: 1,
      unreachable: 1,
      released: 0,
    });
    expect(await expireOverdueHolds(h.db, { now: meanwhile })).toBe(0);
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "awaiting_payment", payment_status: "pending" });
    expect(await ledgerOf(h.db, order.id)).toEqual([["order", -2]]);

    const closed = at(order.sessionEnd + 1_000);
    expect(await reconcilePayments(h.db, offline, { now: closed, siteUrl: SITE })).toMatchObject({
      checked: 1,
      unreachable: 1,
      released: 1,
    });
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "expired", payment_status: "pending" });
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -2],
      ["order_released", 2],
    ]);
    expect(await stockOf(h.db, 1)).toBe(10);
  });

  it("two processes running the reconciliation at once: the lease lets one of them run", async () => {
    h = await startHarness(kind, { webhooks: false }); // only the job releases (no expiry webhook racing it)
    await setStock(h.db, 1, 10);
    const order = await openOrder(1, 1);
    const job = reconcilePaymentsJob(h.payments, { everyMs: 60_000, siteUrl: SITE });
    const later = at(order.hold + MINUTE);
    const log: string[] = [];
    const ran = await Promise.all(
      ["process-a", "process-b"].map((holder) =>
        runJobIfDue(h.db, job, holder, { now: () => later, log: (l) => log.push(l) }),
      ),
    );
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^Job reconcile-payments: 1 card orders? past their hold checked: 1 released$/);
    expect(expireCalls()).toBe(1);
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -1],
      ["order_released", 1],
    ]);
    const lease = await h.db
      .selectFrom("job_leases")
      .selectAll()
      .where("name", "=", "reconcile-payments")
      .executeTakeFirstOrThrow();
    expect(lease).toMatchObject({ locked_by: null, last_error: null });
  });

  it("a payment that arrives after the hold was released takes the stock again and places the order", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 10);
    const order = await openOrder(1, 2);
    h.fake.pauseWebhooks(); // paid in time, but the store hears of it late
    await h.fake.completeSession(order.sessionId);
    expect(await expireOverdueHolds(h.db, { now: at(order.sessionEnd + 3 * MINUTE) })).toBe(1);
    expect(await stockOf(h.db, 1)).toBe(10);

    h.fake.resumeWebhooks();
    await h.fake.idle();
    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({
      status: "placed",
      payment_status: "paid",
      paid_cents: row.total_cents,
      payment_flag: null,
      hold_expires_at: null,
    });
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -2],
      ["order_released", 2],
      ["order", -2],
    ]);
    expect(await stockOf(h.db, 1)).toBe(8);
    expect(await placedMails(h.db, order)).toBe(1);
  });

  it("a late payment for stock someone else bought meanwhile is flagged for staff, never oversold", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 2);
    const order = await openOrder(1, 2);
    h.fake.pauseWebhooks();
    await h.fake.completeSession(order.sessionId);
    expect(await expireOverdueHolds(h.db, { now: at(order.sessionEnd + 3 * MINUTE) })).toBe(1);
    const other = await placeTestOrder(h.db, { lines: [{ productId: 1, quantity: 2 }] });
    expect(other.status).toBe("placed");
    expect(await stockOf(h.db, 1)).toBe(0);

    h.fake.resumeWebhooks();
    await h.fake.idle();
    const row = await orderRow(h.db, order.number);
    expect(row).toMatchObject({ status: "expired", payment_status: "pending", paid_cents: row.total_cents });
    expect(row.payment_flag).toMatch(/no longer in stock/);
    expect(row.payment_intent_id).toMatch(/^pi_/);
    expect(await stockOf(h.db, 1)).toBe(0);
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -2],
      ["order_released", 2],
    ]);
    const lowest = await h.db
      .selectFrom("stock_movements")
      .select((eb) => eb.fn.min<number>("stock_after").as("n"))
      .where("product_id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(Number(lowest.n)).toBe(0);
    expect(await placedMails(h.db, order)).toBe(0);
    expect(h.replies.every((r) => r.status === 200)).toBe(true);
  });

  it("'Try again' after the hold ended: the same order holds its stock again and gets a second session with a new key", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 10);
    const order = await openOrder(1, 2);
    await h.fake.expireNow(order.sessionId); // the shopper let the page run out
    await h.fake.idle();
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "expired", payment_status: "pending" });
    expect(await stockOf(h.db, 1)).toBe(10);

    const before = Date.now();
    await holdAgainForPayment(h.db, h.payments, order.id, "guest");
    const held = await orderRow(h.db, order.number);
    expect(held).toMatchObject({
      status: "awaiting_payment",
      payment_status: "pending",
      payment_session_id: null,
      payment_attempts: 1,
    });
    expect(Date.parse(held.hold_expires_at!)).toBeGreaterThanOrEqual(before + HOLD_MINUTES * MINUTE - 1_000);
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -2],
      ["order_released", 2],
      ["order", -2],
    ]);
    expect(await stockOf(h.db, 1)).toBe(8);

    const url = await payPage(h, order);
    const second = await sessionIdOf(h.db, order.id);
    expect(second).not.toBe(order.sessionId);
    expect(url).toBe(`${h.fake.url}/pay/${second}`);
    const keys = h.fake.requests
      .filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions")
      .map((r) => r.headers["idempotency-key"]);
    expect(keys).toEqual([`checkout-${order.number}-1`, `checkout-${order.number}-2`]);
    expect((await orderRow(h.db, order.number)).payment_attempts).toBe(2);
    expect(await countRows(h.db, "orders")).toBe(1);

    await h.fake.completeSession(second);
    await h.fake.idle();
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "placed", payment_status: "paid" });
    expect(await placedMails(h.db, order)).toBe(1);
    expect(await stockOf(h.db, 1)).toBe(8);
  });

  it("'Try again' on an order whose first page was in fact paid (webhook late) leaves no second payable page", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 10);
    const order = await openOrder(1, 1);
    h.fake.pauseWebhooks();
    await h.fake.completeSession(order.sessionId);
    expect(await expireOverdueHolds(h.db, { now: at(order.sessionEnd + 3 * MINUTE) })).toBe(1);

    // The order page offers "Try again" on an expired order: it asks Stripe about the last page first.
    const { access_token } = await h.db
      .selectFrom("orders")
      .select("access_token")
      .where("id", "=", order.id)
      .executeTakeFirstOrThrow();
    const tried = await rejection(
      payFromOrderPage(h.db, h.payments, { accessToken: access_token }, "https://shop.example", "203.0.113.9"),
    );
    expect(tried.message).toBe(ALREADY_PAID_MESSAGE);
    h.fake.resumeWebhooks();
    await h.fake.idle();

    expect(await orderRow(h.db, order.number)).toMatchObject({
      status: "placed",
      payment_status: "paid",
      payment_flag: null,
    });
    const open = [...h.fake.db.sessions.values()].filter((s) => s.session.status === "open").map((s) => s.session.id);
    expect(open).toEqual([]); // a page still open could take a second payment for a placed order
  });

  it("'Try again' when the stock is gone is refused with the reason, and changes nothing", async () => {
    h = await startHarness(kind);
    await setStock(h.db, 1, 1);
    const order = await openOrder(1, 1);
    await h.fake.expireNow(order.sessionId);
    await h.fake.idle();
    await placeTestOrder(h.db, { lines: [{ productId: 1, quantity: 1 }] });
    const before = await orderRow(h.db, order.number);
    expect(before.status).toBe("expired");

    const error = await rejection(holdAgainForPayment(h.db, h.payments, order.id, "guest"));
    expect(error).toBeInstanceOf(LinesOutOfStockError);
    expect({ code: error.code, status: error.status }).toEqual({ code: "OUT_OF_STOCK", status: 409 });
    expect(error.message).toMatch(/not enough stock left for/);
    expect(await orderRow(h.db, order.number)).toEqual(before);
    expect(await ledgerOf(h.db, order.id)).toEqual([
      ["order", -1],
      ["order_released", 1],
    ]);
    expect(await stockOf(h.db, 1)).toBe(0);
    expect(h.fake.db.sessions.size).toBe(1);
  });
});
