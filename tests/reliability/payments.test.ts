/**
 * Card payments (issue 13) against the built store and the local Stripe stand-in
 * (tests/support/fake-stripe.mjs), on SQLite and PostgreSQL.
 *
 * 1. kill -9 between the payment and the webhook. Guests place card orders over HTTP and pay on
 *    the stand-in's hosted page while the store is killed (SIGKILL of its process group), or the
 *    store is killed while it is acting on the webhooks; it is started again on the same database.
 *    Stripe's retries (round 1, 2), or the reconciliation job when the webhooks never come (round
 *    3), settle them: every paid order ends `placed` with its payment `paid`, exactly one order
 *    mail, its stock taken exactly once (the reservation, never again, never released).
 * 2. Over HTTP: the same signed event delivered five times at once changes the order once and
 *    queues one mail (a payment, and an expiry releasing stock); bodies that are forged, changed
 *    or re-signed with another key, stale signatures and junk are refused with 400 and change
 *    nothing (orders, payment_events, mails, the stock ledger). A delayed payment's failure that
 *    arrives before its "processing" report leaves the order released (events out of order).
 * 3. A payment page that Stripe opens so slowly that the hold runs out meanwhile (the order
 *    released, its units sold to someone else) is never handed to the shopper as payable.
 *
 * The store talks to the stand-in through stripeGate (below), which can hold back session
 * creation. The stand-in retries failed deliveries every 400 ms (Stripe: hours); the rest is real
 * time, except that a hold "runs out" by moving hold_expires_at into the past. Ports come from
 * RELIABILITY_PORT_FIRST..LAST like the other reliability tests.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/connection.ts";
import { createFakeStripe, signPayload, type FakeStripe, type FakeStripeEvent } from "../support/fake-stripe.mjs";
import { storeBodyLimit } from "../../server/http/body-limit.ts";
import { stockOf } from "./support/checks.ts";
import { send, type RawResponse } from "./support/http.ts";
import { Shopper, uniqueEmail } from "./support/shopper.ts";
import { freePort, startStore, storeDialects, type RunningStore } from "./support/store-server.ts";

const SHOPPERS = Number(process.env.PAYMENT_CRASH_SHOPPERS ?? 6);
const WEBHOOK_PATH = "/api/payments/stripe/webhook";
const WEBHOOK_SECRET = "whsec_reliability_0123456789abcdef";
const SECRET_KEY = "sk_test_reliability";
/** Stripe retries with a growing backoff over days; here every 400 ms for about 40 s, so a restarted store gets its events within the test. */
const RETRY_DELAYS_MS = [200, ...Array.from({ length: 100 }, () => 400)];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  store?: RunningStore,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${store ? `\nserver log:\n${store.logTail(20)}` : ""}`,
  );
}

interface CardOrder {
  shopper: Shopper;
  email: string;
  checkoutToken: string;
  sessionId: string;
  payUrl: string;
  lines: Map<number, number>;
}

interface OrderRow {
  id: number;
  number: string;
  status: string;
  payment_status: string;
  payment_flag: string | null;
  paid_cents: number | null;
  total_cents: number;
  payment_intent_id: string | null;
  payment_session_id: string | null;
  version: number;
  cart_owner: string | null;
}

async function orderByToken(db: Db, checkoutToken: string): Promise<OrderRow | undefined> {
  const row = await db
    .selectFrom("orders")
    .select([
      "id",
      "number",
      "status",
      "payment_status",
      "payment_flag",
      "paid_cents",
      "total_cents",
      "payment_intent_id",
      "payment_session_id",
      "version",
      "cart_owner",
    ])
    .where("checkout_token", "=", checkoutToken)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    id: Number(row.id),
    version: Number(row.version),
    total_cents: Number(row.total_cents),
    paid_cents: row.paid_cents == null ? null : Number(row.paid_cents),
  };
}

async function countRows(
  db: Db,
  table: "orders" | "payment_events" | "mail_queue" | "stock_movements" | "order_events",
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A guest's card checkout over HTTP: cart, checkout page, POST /checkout → 302 to the stand-in's payment page. */
async function placeCardOrder(baseUrl: string, fakeUrl: string, lines: Map<number, number>): Promise<CardOrder> {
  const shopper = new Shopper(baseUrl);
  for (const [productId, quantity] of lines) await shopper.addToCart(productId, quantity);
  const email = uniqueEmail("card");
  const form = await shopper.checkoutForm({ paymentMethod: "card", email });
  const res = await shopper.postForm("/checkout", form);
  expect(res.status, `card checkout answered ${res.status}: ${res.text().slice(0, 300)}`).toBe(302);
  expect(res.location ?? "").toMatch(new RegExp(`^${fakeUrl}/pay/cs_test_`));
  const payUrl = res.location!;
  return { shopper, email, checkoutToken: form.checkoutToken, sessionId: payUrl.split("/").pop()!, payUrl, lines };
}

/** What the customer does on Stripe's page: "Pay". Answers 303 to the store's success_url. */
async function payAtStripe(order: CardOrder): Promise<string> {
  const res = await fetch(order.payUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "action=pay",
    redirect: "manual",
  });
  await res.arrayBuffer();
  expect(res.status, `paying ${order.sessionId}`).toBe(303);
  return res.headers.get("location")!;
}

/**
 * A paid card order as it must end, whatever crashed on the way: placed, paid the order's total,
 * not flagged, exactly one order mail, its reservation the only stock it ever took (one ledger
 * row per line, nothing released), and its lines gone from the cart it came from.
 */
async function paidOrderProblems(db: Db, order: CardOrder): Promise<string[]> {
  const problems: string[] = [];
  const row = await orderByToken(db, order.checkoutToken);
  if (!row) return [`no order for checkout ${order.checkoutToken}`];
  const name = `order ${row.number}`;
  if (row.status !== "placed") problems.push(`${name} is ${row.status}, expected placed`);
  if (row.payment_status !== "paid") problems.push(`${name}: payment ${row.payment_status}, expected paid`);
  if (row.payment_flag) problems.push(`${name} flagged: ${row.payment_flag}`);
  if (row.paid_cents !== row.total_cents) problems.push(`${name}: paid ${row.paid_cents}, total ${row.total_cents}`);
  if (!row.payment_intent_id?.startsWith("pi_")) problems.push(`${name}: payment intent ${row.payment_intent_id}`);
  const mails = await db.selectFrom("mail_queue").select(["subject"]).where("to_address", "=", order.email).execute();
  const orderMails = mails.filter((m) => m.subject.includes(row.number));
  if (orderMails.length !== 1 || mails.length !== 1)
    problems.push(
      `${name}: ${mails.length} mails to the buyer (${orderMails.length} about the order), expected exactly 1: ${mails.map((m) => m.subject).join(" | ")}`,
    );
  const moves = await db
    .selectFrom("stock_movements")
    .select(["product_id", "delta", "reason"])
    .where("order_id", "=", row.id)
    .execute();
  for (const [productId, quantity] of order.lines) {
    const own = moves.filter((m) => Number(m.product_id) === productId);
    const taken = own.filter((m) => m.reason === "order");
    if (taken.length !== 1 || Number(taken[0].delta) !== -quantity)
      problems.push(
        `${name}, product ${productId}: stock taken ${taken.map((m) => m.delta).join(", ") || "never"}, expected once −${quantity}`,
      );
    if (own.length !== taken.length)
      problems.push(
        `${name}, product ${productId}: other ledger rows ${own
          .filter((m) => m.reason !== "order")
          .map((m) => `${m.reason} ${m.delta}`)
          .join(", ")}`,
      );
  }
  const placedEvents = await db
    .selectFrom("order_events")
    .select("id")
    .where("order_id", "=", row.id)
    .where("to_status", "=", "placed")
    .execute();
  if (placedEvents.length !== 1)
    problems.push(`${name}: ${placedEvents.length} moves to placed in its history, expected 1`);
  if (row.cart_owner) {
    const left = await db
      .selectFrom("cart_items")
      .select(["product_id", "quantity"])
      .where("owner", "=", row.cart_owner)
      .execute();
    if (left.length)
      problems.push(
        `${name}: its lines are still in the cart (${left.map((l) => `${l.product_id}×${l.quantity}`).join(", ")})`,
      );
  }
  return problems;
}

/**
 * Stands between the store and the Stripe stand-in (STRIPE_API_URL points here) and passes every
 * request through, except that it can hold back the creation of Checkout sessions: the moment
 * while Stripe opens a payment page, stretched so that the hold can run out during it.
 */
function stripeGate(target: () => string) {
  let gate: { opened: Promise<void>; open: () => void } | null = null;
  let held = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (gate && req.method === "POST" && req.url === "/v1/checkout/sessions") {
      held++;
      await gate.opened;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === "string" && !["host", "content-length", "connection", "transfer-encoding"].includes(k))
        headers[k] = v;
    try {
      const upstream = await fetch(`${target()}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (!["content-length", "transfer-encoding", "connection", "content-encoding", "keep-alive"].includes(k))
          out[k] = v;
      });
      res.writeHead(upstream.status, out);
      res.end(body);
    } catch {
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: "stand-in unreachable" } }));
    }
  });
  return {
    url: "",
    async listen(port: number) {
      await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
      this.url = `http://127.0.0.1:${port}`;
    },
    holdSessionCreation() {
      let open!: () => void;
      gate = { opened: new Promise<void>((r) => (open = r)), open };
      held = 0;
    },
    releaseSessionCreation() {
      gate?.open();
      gate = null;
    },
    held: () => held,
    close: () =>
      new Promise<void>((r) => {
        gate?.open();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const stores: RunningStore[] = [];
const fakes: FakeStripe[] = [];
const gates: ReturnType<typeof stripeGate>[] = [];
afterAll(async () => {
  await Promise.allSettled(fakes.map((f) => f.close()));
  await Promise.allSettled(gates.map((g) => g.close()));
  await Promise.allSettled(stores.map((s) => s.stop()));
});

describe.each(storeDialects)("card payments on %s", (kind) => {
  let fake: FakeStripe;
  let gate: ReturnType<typeof stripeGate>;
  let store: RunningStore;
  let db: Db;
  /** Products with plenty of stock, shared by the crash rounds (so they contend for the rows); test 2 uses its own. */
  let pool: number[] = [];

  beforeAll(async () => {
    fake = createFakeStripe({ webhookSecret: WEBHOOK_SECRET, retryDelaysMs: RETRY_DELAYS_MS, webhookTimeoutMs: 5_000 });
    fakes.push(fake);
    await fake.listen(await freePort());
    gate = stripeGate(() => fake.url!);
    gates.push(gate);
    await gate.listen(await freePort());
    store = await startStore({
      name: "payments",
      kind,
      env: {
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: gate.url,
        PAYMENT_HOLD_MINUTES: "30",
        PAYMENT_RECONCILE_SECONDS: "1",
      },
    });
    stores.push(store);
    fake.setWebhookUrl(`${store.baseUrl}${WEBHOOK_PATH}`);
    db = store.database.open();
    pool = (
      await db.selectFrom("products").select("id").where("stock_quantity", ">=", 100).orderBy("id").limit(4).execute()
    ).map((p) => Number(p.id));
    expect(pool.length).toBeGreaterThanOrEqual(3);
  });
  afterAll(async () => {
    await db?.destroy();
    await fake?.close();
    await gate?.close();
    await store?.stop();
  });

  it("kill -9 between the payment and its webhook: Stripe's retries or the reconciliation job place every paid order once", async () => {
    const initial = await stockOf(db, pool);
    const sold = new Map<number, number>();
    const all: CardOrder[] = [];
    const cartLines = (i: number) => {
      const lines = new Map<number, number>();
      lines.set(pool[i % pool.length], 1 + (i % 3));
      if (i % 2) lines.set(pool[(i + 1) % pool.length], 1);
      return lines;
    };
    const placeRound = async () => {
      const orders = await Promise.all(
        Array.from({ length: SHOPPERS }, (_, i) => placeCardOrder(store.baseUrl, fake.url!, cartLines(i))),
      );
      for (const o of orders) {
        const row = await orderByToken(db, o.checkoutToken);
        expect(row?.status).toBe("awaiting_payment");
        expect(row?.payment_session_id).toBe(o.sessionId);
        for (const [p, q] of o.lines) sold.set(p, (sold.get(p) ?? 0) + q);
      }
      all.push(...orders);
      return orders;
    };
    const allPlaced = (orders: CardOrder[]) => async () => {
      const rows = await Promise.all(orders.map((o) => orderByToken(db, o.checkoutToken)));
      return rows.every((r) => r?.status === "placed");
    };
    const eventsOf = (orders: CardOrder[]) =>
      fake.events.filter(
        (e) => e.type === "checkout.session.completed" && orders.some((o) => o.sessionId === e.data.object.id),
      );

    // Round 1: the store is down when the shoppers pay. Every first delivery fails; the store comes
    // back; Stripe's retries and half of the shoppers (back from Stripe's page) settle the orders
    // at the same time.
    const round1 = await placeRound();
    await store.crash();
    const returns = await Promise.all(round1.map(payAtStripe));
    await waitFor(
      "a failed first delivery of every payment event",
      async () => eventsOf(round1).length === SHOPPERS && eventsOf(round1).every((e) => e.delivery_attempts >= 1),
      10_000,
    );
    for (const e of eventsOf(round1)) expect(e.delivery_status, "delivery while the store is down").toBe("pending");
    let t = Date.now();
    await store.restart();
    const back = await Promise.all(
      round1
        .filter((_, i) => i % 2 === 0)
        .map((o, i) => o.shopper.get(new URL(returns[i * 2]).pathname + new URL(returns[i * 2]).search)),
    );
    for (const r of back) expect(r.status, `back from Stripe: ${r.text().slice(0, 200)}`).toBeLessThan(500);
    await waitFor("round 1 orders placed", allPlaced(round1), 30_000, store);
    await fake.idle();
    console.log(
      `payments (${kind}) round 1: paid while the store was down; all ${SHOPPERS} placed ${Date.now() - t} ms after the restart began`,
    );

    // Round 2: the store is killed while it is acting on the webhooks: the moment Stripe has had
    // its first answer, the next delivery is in flight; the kill rolls it back and it comes again.
    const round2 = await placeRound();
    await Promise.all(round2.map(payAtStripe));
    const deadline = Date.now() + 20_000;
    while (!eventsOf(round2).some((e) => e.delivery_status === "delivered") && Date.now() < deadline)
      await new Promise((r) => setImmediate(r));
    await store.crash();
    const placedAtKill = (await Promise.all(round2.map((o) => orderByToken(db, o.checkoutToken)))).filter(
      (r) => r?.status === "placed",
    ).length;
    // What had committed before the kill is already whole; the rest is untouched.
    for (const o of round2) {
      const row = await orderByToken(db, o.checkoutToken);
      if (row?.status === "placed") expect(await paidOrderProblems(db, o)).toEqual([]);
      else expect(row?.status).toBe("awaiting_payment");
    }
    t = Date.now();
    await store.restart();
    await waitFor("round 2 orders placed", allPlaced(round2), 30_000, store);
    await fake.idle();
    const cutOff = eventsOf(round2).filter((e) => e.delivery_attempts > 1).length;
    console.log(
      `payments (${kind}) round 2: killed with ${placedAtKill} of ${SHOPPERS} webhooks acted on, ${cutOff} delivered again; all placed ${Date.now() - t} ms after the restart began`,
    );
    expect(placedAtKill, "the kill came while webhooks were still to be acted on").toBeLessThan(SHOPPERS);
    expect(cutOff, "deliveries the kill cut off, sent again").toBeGreaterThan(0);

    // Round 3: the webhooks never come (the endpoint is gone while the shoppers pay, and the store
    // is down). After the restart the holds run out (moved into the past, as 30 minutes would) and
    // the reconciliation job asks Stripe and places the paid orders. The events, sent late after
    // all, change nothing.
    const round3 = await placeRound();
    await store.crash();
    fake.setWebhookUrl(undefined);
    await Promise.all(round3.map(payAtStripe));
    for (const e of eventsOf(round3)) expect(e.delivery_status).toBe("no_endpoint");
    const ids = (await Promise.all(round3.map((o) => orderByToken(db, o.checkoutToken)))).map((r) => r!.id);
    await db
      .updateTable("orders")
      .set({ hold_expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "in", ids)
      .execute();
    // A job run cut off by the kill keeps its lease until the lease runs out (60 s); the minutes that pass here free it too.
    await db
      .updateTable("job_leases")
      .set({ locked_by: null, locked_until: null })
      .where("name", "=", "reconcile-payments")
      .execute();
    t = Date.now();
    await store.restart();
    await waitFor("round 3 orders placed by the reconciliation job", allPlaced(round3), 30_000, store);
    console.log(
      `payments (${kind}) round 3: no webhook; the reconciliation job placed all ${SHOPPERS} ${Date.now() - t} ms after the restart began`,
    );
    for (const o of round3) {
      const row = await orderByToken(db, o.checkoutToken);
      const actors = await db
        .selectFrom("order_events")
        .select("actor")
        .where("order_id", "=", row!.id)
        .where("to_status", "=", "placed")
        .execute();
      expect(actors.map((a) => a.actor)).toEqual(["system:payment-reconciliation"]);
    }
    fake.setWebhookUrl(`${store.baseUrl}${WEBHOOK_PATH}`);
    for (const e of eventsOf(round3)) fake.redeliver(e.id);
    await fake.idle();
    for (const e of eventsOf(round3)) expect(e.delivery_status, `late event ${e.id}`).toBe("delivered");

    // Every order of every round: whole, paid once, one mail; the stock down by exactly what was sold.
    const problems = (await Promise.all(all.map((o) => paidOrderProblems(db, o)))).flat();
    expect(problems).toEqual([]);
    const stock = await stockOf(db, pool);
    for (const p of pool) expect(stock.get(p), `stock of product ${p}`).toBe(initial.get(p)! - (sold.get(p) ?? 0));
    // Each event acted on once: stored once, and every delivered completion of these sessions was one of them.
    const completed = eventsOf(all);
    expect(completed).toHaveLength(3 * SHOPPERS);
    const stored = await db
      .selectFrom("payment_events")
      .select(["id", "outcome"])
      .where(
        "id",
        "in",
        completed.map((e) => e.id),
      )
      .execute();
    expect(stored).toHaveLength(3 * SHOPPERS);
    const paidOutcomes = stored.filter((s) => s.outcome.startsWith("paid"));
    expect(
      paidOutcomes.length,
      "orders placed by the webhook (rounds 1 and 2, less those a return settled first)",
    ).toBeLessThanOrEqual(2 * SHOPPERS);
    const health = await fetch(`${store.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });

  it("never sends a shopper to pay for an order whose hold ran out while Stripe was opening its page", async () => {
    // A product of its own with 2 units left.
    const row = await db
      .selectFrom("products")
      .select("id")
      .where("stock_quantity", ">=", 20)
      .where("id", "not in", pool)
      .orderBy("id", "desc")
      .limit(1)
      .offset(1)
      .executeTakeFirstOrThrow();
    const productId = Number(row.id);
    await db.updateTable("products").set({ stock_quantity: 2 }).where("id", "=", productId).execute();
    const buyer = new Shopper(store.baseUrl);
    await buyer.addToCart(productId, 2);
    const form = await buyer.checkoutForm({ paymentMethod: "card", email: uniqueEmail("slow-page") });

    // The order is made and its two units held; Stripe takes its time opening the payment page.
    gate.holdSessionCreation();
    let answer: Promise<RawResponse>;
    try {
      answer = buyer.postForm("/checkout", form);
      await waitFor("the payment page being opened at Stripe", async () => gate.held() === 1, 20_000, store);
      const order = (await orderByToken(db, form.checkoutToken))!;
      expect(order).toMatchObject({ status: "awaiting_payment", payment_session_id: null });
      // Meanwhile the hold runs out (moved into the past, as the minutes would) and the reconciliation job releases the order …
      await db
        .updateTable("orders")
        .set({ hold_expires_at: new Date(Date.now() - 1_000).toISOString() })
        .where("id", "=", order.id)
        .execute();
      await waitFor(
        "the order released after its hold",
        async () => (await orderByToken(db, form.checkoutToken))?.status === "expired",
        20_000,
        store,
      );
      // … and another shopper buys the two units that came back.
      const other = new Shopper(store.baseUrl);
      await other.addToCart(productId, 2);
      const otherAnswer = await other.postForm("/checkout", await other.checkoutForm());
      expect(otherAnswer.status, otherAnswer.text().slice(0, 200)).toBe(302);
      expect((await stockOf(db, [productId])).get(productId)).toBe(0);
    } finally {
      gate.releaseSessionCreation();
    }
    const res = await answer!;
    expect(res.status, res.text().slice(0, 200)).toBeLessThan(500);
    const order = (await orderByToken(db, form.checkoutToken))!;
    // Whatever the shopper was shown, no Stripe page may take money for this order any more.
    const sessions = [...fake.db.sessions.values()]
      .filter((r) => r.session.client_reference_id === order.number)
      .map((r) => r.session);
    expect(sessions).toHaveLength(1);
    let paid = false;
    if (res.location?.startsWith(`${fake.url}/pay/`)) {
      const pay = await fetch(res.location, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "action=pay",
        redirect: "manual",
      });
      paid = pay.status === 303;
      await fake.idle();
    }
    expect(
      { location: res.location, sessionAtStripe: sessions[0].status, paid },
      "the shopper was sent to pay for an order that had let its items go",
    ).toEqual({
      location: expect.not.stringMatching(/\/pay\//),
      sessionAtStripe: "expired",
      paid: false,
    });
    expect(await orderByToken(db, form.checkoutToken)).toMatchObject({
      status: "expired",
      payment_status: "pending",
      payment_flag: null,
      paid_cents: null,
    });
    const ledger = await db
      .selectFrom("stock_movements")
      .select(["reason", "delta"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(ledger.map((m) => [m.reason, Number(m.delta)])).toEqual([
      ["order", -2],
      ["order_released", 2],
    ]);
  });

  describe("the webhook over HTTP", () => {
    /** A product of its own, so the ledger checks here are exact. */
    let product: number;
    let stockBefore: number;
    beforeAll(async () => {
      const row = await db
        .selectFrom("products")
        .select(["id", "stock_quantity"])
        .where("stock_quantity", ">=", 20)
        .where("id", "not in", pool)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      product = Number(row.id);
      stockBefore = Number(row.stock_quantity);
    });

    const post = (
      body: string | Buffer,
      signature?: string,
      extra: Record<string, string> = {},
    ): Promise<RawResponse> =>
      send(store.baseUrl, {
        method: "POST",
        path: WEBHOOK_PATH,
        headers: {
          "content-type": "application/json",
          ...(signature === undefined ? {} : { "stripe-signature": signature }),
          ...extra,
        },
        body,
      });

    /** The event exactly as Stripe sent it (the stand-in keeps the first body and serves it again). */
    async function payloadOf(event: FakeStripeEvent): Promise<string> {
      const res = await fetch(`${fake.url}/v1/events/${event.id}`, {
        headers: { authorization: `Bearer ${SECRET_KEY}` },
      });
      expect(res.status).toBe(200);
      return res.text();
    }

    const snapshot = async (order: CardOrder) => ({
      order: await orderByToken(db, order.checkoutToken),
      orders: await countRows(db, "orders"),
      paymentEvents: await countRows(db, "payment_events"),
      mails: await countRows(db, "mail_queue"),
      ledger: await countRows(db, "stock_movements"),
      history: await countRows(db, "order_events"),
      stock: (await stockOf(db, [product])).get(product),
    });

    it("acts once on the same signed event sent five times at once, and refuses forged or re-signed bodies with 400", async () => {
      fake.pauseWebhooks();
      try {
        const order = await placeCardOrder(store.baseUrl, fake.url!, new Map([[product, 2]]));
        const event = await fake.completeSession(order.sessionId);
        const payload = await payloadOf(event);
        const before = await snapshot(order);
        expect(before.order?.status).toBe("awaiting_payment");
        expect(before.stock).toBe(stockBefore - 2);

        // Forgeries: each must be refused, and none may change anything.
        const body = JSON.parse(payload);
        const changed = structuredClone(body);
        changed.data.object.amount_total = 1;
        const otherOrder = structuredClone(body);
        otherOrder.id = "evt_forged_0000000000000000";
        const now = Math.floor(Date.now() / 1000);
        const forgeries: [string, string | Buffer, string | undefined][] = [
          ["no signature", payload, undefined],
          ["an empty signature", payload, ""],
          ["a junk signature", payload, "t=1,v1=deadbeef"],
          [
            "the body changed under the genuine signature",
            JSON.stringify(changed),
            signPayload(payload, WEBHOOK_SECRET),
          ],
          ["the genuine body re-signed with another key", payload, signPayload(payload, "whsec_guessed_key")],
          [
            "a changed body re-signed with another key",
            JSON.stringify(changed),
            signPayload(JSON.stringify(changed), "whsec_guessed_key"),
          ],
          [
            "a new event id re-signed with another key",
            JSON.stringify(otherOrder),
            signPayload(JSON.stringify(otherOrder), "whsec_guessed_key"),
          ],
          [
            "the genuine body with a signature 10 minutes old (a replay)",
            payload,
            signPayload(payload, WEBHOOK_SECRET, now - 600),
          ],
          [
            "the genuine body re-serialised (whitespace)",
            JSON.stringify(body, null, 2),
            signPayload(payload, WEBHOOK_SECRET),
          ],
          [
            "the signature of another timestamp",
            payload,
            // Signed at `now` and sent as `now + 1`: signed at the current second, it matched whenever
            // the clock had ticked since `now` was read.
            signPayload(payload, WEBHOOK_SECRET, now).replace(/^t=\d+/, `t=${now + 1}`),
          ],
          ["not JSON, signed with another key", "evt_x", signPayload("evt_x", "whsec_guessed_key")],
        ];
        for (const [what, forged, signature] of forgeries) {
          const res = await post(forged, signature);
          expect(res.status, `${what}: ${res.text().slice(0, 200)}`).toBe(400);
        }
        // And all at once.
        const burst = await Promise.all(forgeries.map(([, forged, signature]) => post(forged, signature)));
        for (const r of burst) expect(r.status).toBe(400);
        expect(await snapshot(order), "after the forgeries").toEqual(before);
        expect(
          await db.selectFrom("payment_events").select("id").where("id", "in", [event.id, otherOrder.id]).execute(),
        ).toEqual([]);

        // The genuine event, five times at once (each freshly signed, as Stripe's retries are).
        const answers = await Promise.all(
          Array.from({ length: 5 }, () => post(payload, signPayload(payload, WEBHOOK_SECRET))),
        );
        for (const a of answers) expect(a.status, a.text().slice(0, 200)).toBe(200);
        const replies = answers.map(
          (a) => JSON.parse(a.text()) as { received: boolean; duplicate?: boolean; outcome?: string },
        );
        expect(
          replies.filter((r) => r.outcome === "paid"),
          JSON.stringify(replies),
        ).toHaveLength(1);
        expect(replies.filter((r) => r.duplicate || r.outcome === "ignored")).toHaveLength(4);
        const after = await snapshot(order);
        expect(after.order).toMatchObject({
          status: "placed",
          payment_status: "paid",
          paid_cents: before.order!.total_cents,
          payment_flag: null,
        });
        expect(after.order!.version, "one state change").toBe(before.order!.version + 1);
        expect(after.paymentEvents - before.paymentEvents, "the event stored once").toBe(1);
        expect(after.mails - before.mails, "one mail").toBe(1);
        expect(after.ledger, "no stock taken again").toBe(before.ledger);
        expect(after.stock).toBe(before.stock);
        expect(await paidOrderProblems(db, order)).toEqual([]);

        // Stripe's own delivery of it, late, and five more redeliveries: nothing more.
        fake.resumeWebhooks();
        for (let i = 0; i < 5; i++) fake.redeliver(event.id);
        await fake.idle();
        expect(event.delivery_status).toBe("delivered");
        const later = await snapshot(order);
        expect(later).toEqual(after);
        // A forged "paid" event with a valid body shape for the now-paid order still 400s and changes nothing.
        expect(
          (await post(JSON.stringify(otherOrder), signPayload(JSON.stringify(otherOrder), "whsec_guessed_key"))).status,
        ).toBe(400);
        expect(await snapshot(order)).toEqual(after);
      } finally {
        fake.resumeWebhooks();
      }
    });

    it("releases the stock once when the same expiry event comes five times at once", async () => {
      fake.pauseWebhooks();
      try {
        const order = await placeCardOrder(store.baseUrl, fake.url!, new Map([[product, 3]]));
        const stockHeld = (await stockOf(db, [product])).get(product)!;
        await fake.expireNow(order.sessionId);
        const event = fake.events.find(
          (e) => e.type === "checkout.session.expired" && e.data.object.id === order.sessionId,
        )!;
        const payload = await payloadOf(event);
        const before = await snapshot(order);
        expect(before.order?.status).toBe("awaiting_payment");

        const answers = await Promise.all(
          Array.from({ length: 5 }, () => post(payload, signPayload(payload, WEBHOOK_SECRET))),
        );
        for (const a of answers) expect(a.status, a.text().slice(0, 200)).toBe(200);
        const replies = answers.map((a) => JSON.parse(a.text()) as { duplicate?: boolean; outcome?: string });
        expect(
          replies.filter((r) => r.outcome === "expired"),
          JSON.stringify(replies),
        ).toHaveLength(1);
        const after = await snapshot(order);
        expect(after.order).toMatchObject({ status: "expired", payment_status: "pending" });
        expect(after.order!.version).toBe(before.order!.version + 1);
        expect(after.paymentEvents - before.paymentEvents).toBe(1);
        expect(after.stock, "the 3 units back once").toBe(stockHeld + 3);
        const released = await db
          .selectFrom("stock_movements")
          .select(["delta", "reason"])
          .where("order_id", "=", before.order!.id)
          .where("reason", "!=", "order")
          .execute();
        expect(released.map((m) => [m.reason, Number(m.delta)])).toEqual([["order_released", 3]]);
        expect(after.mails, "no mail for a payment page that ran out").toBe(before.mails);

        fake.resumeWebhooks();
        fake.redeliver(event.id);
        await fake.idle();
        expect(await snapshot(order)).toEqual(after);
      } finally {
        fake.resumeWebhooks();
      }
    });

    it("keeps a failed delayed payment released when its 'processing' report arrives after the failure (events out of order)", async () => {
      fake.pauseWebhooks();
      try {
        const stockAtStart = (await stockOf(db, [product])).get(product)!;
        const order = await placeCardOrder(store.baseUrl, fake.url!, new Map([[product, 1]]));
        await fake.completeSession(order.sessionId, { outcome: "processing" });
        const failed = await fetch(`${fake.url}/_test/checkout/sessions/${order.sessionId}/async_payment_failed`, {
          method: "POST",
        });
        expect(failed.status).toBe(200);
        // Stripe doesn't promise the order of its events: the failure comes first, then "completed (processing)".
        fake.resumeWebhooks({ order: "reverse" });
        await fake.idle();
        const sent = fake.events
          .filter((e) => e.data.object.id === order.sessionId)
          .map((e) => [e.type, e.delivery_status]);
        expect(sent).toEqual([
          ["checkout.session.completed", "delivered"],
          ["checkout.session.async_payment_failed", "delivered"],
        ]);
        const row = await orderByToken(db, order.checkoutToken);
        expect(row, "the failed payment's order").toMatchObject({ status: "expired", payment_status: "failed" });
        expect((await stockOf(db, [product])).get(product), "its unit back on the shelf").toBe(stockAtStart);
        const ledger = await db
          .selectFrom("stock_movements")
          .select(["reason", "delta"])
          .where("order_id", "=", row!.id)
          .orderBy("id")
          .execute();
        expect(
          ledger.map((m) => [m.reason, Number(m.delta)]),
          "taken once, released once, never taken again",
        ).toEqual([
          ["order", -1],
          ["order_released", 1],
        ]);
      } finally {
        fake.resumeWebhooks();
      }
    });

    it("answers junk, unknown events and unknown sessions without a 5xx", async () => {
      const before = {
        orders: await countRows(db, "orders"),
        mails: await countRows(db, "mail_queue"),
        ledger: await countRows(db, "stock_movements"),
      };
      const unsigned: (string | Buffer)[] = [
        "",
        "{}",
        "null",
        "[]",
        '{"id":"evt_1","type":"checkout.session.completed"}',
        "\u0000\u0001",
        Buffer.alloc(300_000, 0x7b),
        "x".repeat(2_000_000),
      ];
      for (const body of unsigned) {
        const res = await post(
          body,
          signPayload(typeof body === "string" ? body : body.toString("latin1"), "whsec_guessed_key"),
        ).catch((error: NodeJS.ErrnoException) => {
          // Past the body limit the server answers 413 and closes at once. A client still writing the
          // body can find the connection cut before it reads that answer (the fuzz allows the same).
          if (body.length > storeBodyLimit(WEBHOOK_PATH) && (error.code === "EPIPE" || error.code === "ECONNRESET"))
            return null;
          throw error;
        });
        if (res === null) continue;
        expect(res.status, `unsigned body of ${body.length} bytes`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      // Genuinely signed events the store doesn't act on: stored, answered 200, nothing else changes.
      const event = (type: string, object: object) =>
        JSON.stringify({
          id: `evt_rel_${Math.random().toString(36).slice(2)}`,
          object: "event",
          type,
          created: Math.floor(Date.now() / 1000),
          data: { object },
        });
      const signed = [
        event("customer.created", { id: "cus_1", object: "customer" }),
        event("checkout.session.completed", {
          id: "cs_test_unknown",
          object: "checkout.session",
          status: "complete",
          payment_status: "paid",
          client_reference_id: "TH-NOPE",
          amount_total: 100,
          currency: "usd",
          payment_intent: "pi_x",
          metadata: {},
        }),
        event("checkout.session.expired", {
          id: "cs_test_unknown2",
          object: "checkout.session",
          status: "expired",
          payment_status: "unpaid",
          client_reference_id: null,
          metadata: {},
        }),
      ];
      for (const body of signed) {
        const res = await post(body, signPayload(body, WEBHOOK_SECRET));
        expect(res.status, res.text().slice(0, 200)).toBe(200);
      }
      expect({
        orders: await countRows(db, "orders"),
        mails: await countRows(db, "mail_queue"),
        ledger: await countRows(db, "stock_movements"),
      }).toEqual(before);
    });
  });
});
