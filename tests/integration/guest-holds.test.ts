import { randomBytes } from "node:crypto";
import { sql, type RawBuilder } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { submitCheckout, type CheckoutDeps, type CheckoutResult } from "../../server/orders/checkout.ts";
import {
  guestHoldClient,
  guestHoldMessage,
  guestUnitsHeld,
  type GuestHoldCaps,
} from "../../server/orders/guest-holds.ts";
import { confirmGuestOrder, expireOverdueHolds } from "../../server/orders/holds.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { payFromOrderPage, RETRY_LIMIT_MESSAGES } from "../../server/payments/order-page.ts";
import { clientKey, createRateLimiter } from "../../server/security/rate-limit.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects } from "./databases.ts";
import {
  ledgerOf,
  MINUTE,
  orderRow,
  rejection,
  setStock,
  SITE,
  startHarness,
  stockOf,
  type Harness,
} from "./payments-support.ts";

/**
 * Issue 48, item 7: guests' orders that wait for a confirmation or a card payment hold stock, and
 * the units they hold at once are capped per client network (an IPv4 address or an IPv6 /64) and
 * per email address, across payment methods, counted from the database. "Try again" on a card
 * order counts as a checkout. Every assertion reads what the database holds or what the guest reads.
 */

const newEmail = () => `guest.${randomBytes(5).toString("hex")}@example.com`;
const newOwner = () => `g:${randomBytes(18).toString("base64url")}`;
const newToken = () => randomBytes(18).toString("base64url");
/** A host of the /64 `net` (a different one each call, as a client rotating its address would). */
const hostOf = (net: string) =>
  `${net}:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;

function formOf(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe.each(dialects)("caps on what guests' orders hold, on %s", (kind) => {
  // One database and Stripe stand-in for the file: each test has a product of its own (its
  // stock and its orders), and its own addresses and networks.
  let h: Harness;
  let product = 0;
  /** This test's IPv6 networks (the first four groups of an address). */
  let NET = "";
  let OTHER_NET = "";
  beforeAll(async () => {
    h = await startHarness(kind);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    product++;
    NET = `2001:db8:${product}:7`;
    OTHER_NET = `2001:db8:${product}:8`;
    await setStock(h.db, product, 100);
  });
  const stock = () => stockOf(h.db, product);
  /** This test's orders. */
  const orders = () =>
    h.db
      .selectFrom("orders")
      .selectAll("orders")
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom("order_lines")
            .select("order_lines.id")
            .whereRef("order_lines.order_id", "=", "orders.id")
            .where("order_lines.product_id", "=", product),
        ),
      )
      .execute();

  function deps(caps: GuestHoldCaps, limits: { ip?: number; email?: number } = {}): CheckoutDeps {
    const name = `gh-${randomBytes(4).toString("hex")}`;
    return {
      siteUrl: SITE,
      holdMinutes: 60,
      ipLimiter: createRateLimiter({ name: `${name}-ip`, windowSeconds: 3600, max: limits.ip ?? 10_000 }),
      emailLimiter: createRateLimiter({ name: `${name}-email`, windowSeconds: 3600, max: limits.email ?? 10_000 }),
      payments: h.payments,
      guestHolds: caps,
    };
  }

  interface Attempt {
    owner: string;
    email: string;
    ip: string;
    result: CheckoutResult;
  }

  /** A guest (or `member`) fills a cart with `units` of this test's product and checks out from `address` (its limiter key, as the route takes it). */
  async function checkout(
    d: CheckoutDeps,
    options: { address: string; units: number; email?: string; method?: "card" | "pay-on-delivery"; member?: string },
  ): Promise<Attempt> {
    const owner = options.member ? `u:${options.member}` : newOwner();
    await addToCart(h.db, owner, { productId: product, quantity: options.units });
    const email = options.email ?? newEmail();
    const ip = clientKey(options.address);
    const result = await submitCheckout(
      h.db,
      formOf({
        ...validCheckoutForm,
        email,
        paymentMethod: options.method ?? "pay-on-delivery",
        checkoutToken: newToken(),
      }),
      { ip, origin: SITE },
      { owner, userId: options.member ?? null, email: options.member ? email : null },
      d,
    );
    return { owner, email, ip, result };
  }

  function accepted(attempt: Attempt) {
    if (!attempt.result.ok)
      throw new Error(`checkout refused: ${attempt.result.status} ${attempt.result.data.message}`);
    return attempt.result.order;
  }

  /** A 409 with the cap's message, the typed values given back, and nothing written for it. */
  async function expectCapped(attempt: Attempt, message: string, before: { orders: number; stock: number }) {
    const r = attempt.result;
    if (r.ok) throw new Error(`expected the cap to refuse, the order ${r.order.number} was placed`);
    expect(r.status).toBe(409);
    expect(r.data.message).toBe(message);
    expect(r.data.values).toMatchObject({
      email: attempt.email,
      name: validCheckoutForm.name,
      line1: validCheckoutForm.line1,
    });
    expect(await orders()).toHaveLength(before.orders);
    expect(await stock()).toBe(before.stock);
    expect(
      (await h.db.selectFrom("mail_queue").select("id").where("to_address", "=", attempt.email).execute()).length,
    ).toBe(0);
    expect(
      (await h.db.selectFrom("cart_items").select("quantity").where("owner", "=", attempt.owner).execute()).map(
        (l) => l.quantity,
      ),
    ).toHaveLength(1);
  }

  const confirmTokenOf = async (email: string) => {
    const mail = await h.db
      .selectFrom("mail_queue")
      .select("text_body")
      .where("to_address", "=", email)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    return /\?confirm=([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
  };

  it("one email address: pay-on-delivery and card orders count together, in any letter case and from any network; confirming one makes room", async () => {
    const d = deps({ perClient: 1_000, perEmail: 10 });
    const email = newEmail();
    const pod = await checkout(d, { address: hostOf(NET), units: 6, email });
    const podOrder = accepted(pod);
    const card = accepted(
      await checkout(d, { address: "198.51.100.20", units: 4, email: email.toUpperCase(), method: "card" }),
    );
    expect(await orderRow(h.db, card.number)).toMatchObject({
      status: "awaiting_payment",
      hold_client: guestHoldClient("198.51.100.20"),
    });
    expect(await guestUnitsHeld(h.db, { email })).toBe(10);

    const refused = await checkout(d, { address: "203.0.113.9", units: 1, email: ` ${email} ` });
    await expectCapped(refused, guestHoldMessage({ cap: "email", held: 10, limit: 10 }, "checkout"), {
      orders: 2,
      stock: 90,
    });
    expect(refused.result.ok || refused.result.data.message).toMatch(
      /^Your orders with this email address that are waiting for confirmation or payment already hold 10 units, .* log in to order more/,
    );
    // Another address on the same network is not affected.
    accepted(await checkout(d, { address: hostOf(NET), units: 3 }));

    // Confirmed, the pay-on-delivery order is placed: it no longer counts, and its network is forgotten.
    await confirmGuestOrder(h.db, {
      accessToken: podOrder.accessToken,
      confirmToken: await confirmTokenOf(email),
      siteUrl: SITE,
    });
    expect(await orderRow(h.db, podOrder.number)).toMatchObject({ status: "placed", hold_client: null });
    expect(await guestUnitsHeld(h.db, { email })).toBe(4);
    accepted(await checkout(d, { address: "203.0.113.9", units: 6, email }));
    expect(await guestUnitsHeld(h.db, { email })).toBe(10);
  });

  it("one IPv6 /64: every host part counts as the same network, whatever the email; another /64 is not affected", async () => {
    const d = deps({ perClient: 10, perEmail: 1_000 });
    accepted(await checkout(d, { address: hostOf(NET), units: 4 }));
    accepted(await checkout(d, { address: hostOf(NET), units: 4, method: "card" }));
    expect(await guestUnitsHeld(h.db, { client: clientKey(hostOf(NET)) })).toBe(8);
    const refused = await checkout(d, { address: hostOf(NET), units: 3 });
    await expectCapped(refused, guestHoldMessage({ cap: "client", held: 8, limit: 10 }, "checkout"), {
      orders: 2,
      stock: 92,
    });
    expect(refused.result.ok || refused.result.data.message).toMatch(
      /^Orders placed from your network that are waiting for confirmation or payment already hold 8 units/,
    );
    accepted(await checkout(d, { address: hostOf(NET), units: 2 }));
    accepted(await checkout(d, { address: hostOf(OTHER_NET), units: 10 }));
    expect(await guestUnitsHeld(h.db, { client: clientKey(hostOf(NET)) })).toBe(10);
    expect(await guestUnitsHeld(h.db, { client: clientKey(hostOf(OTHER_NET)) })).toBe(10);
    // No address is stored, only a hash of the network, and only while the order holds stock.
    const stored = (await orders()).map((r) => r.hold_client);
    expect(stored).toHaveLength(4);
    expect(stored.every((c) => c != null && /^[0-9a-f]{32}$/.test(c))).toBe(true);
  });

  it("an order above the cap on its own is refused with the reason; a member's orders are neither capped nor counted", async () => {
    const d = deps({ perClient: 12, perEmail: 8 });
    const big = await checkout(d, { address: "192.0.2.30", units: 9 });
    await expectCapped(big, guestHoldMessage({ cap: "order", held: 0, limit: 8 }, "checkout"), {
      orders: 0,
      stock: 100,
    });
    expect(big.result.ok || big.result.data.message).toBe(
      "An order placed without an account can hold at most 8 units while it waits for confirmation or payment. Lower the quantities in your cart, or log in to order more. Your details are still filled in below.",
    );
    const member = `user-${randomBytes(6).toString("hex")}`;
    const memberEmail = newEmail();
    const placed = accepted(await checkout(d, { address: "192.0.2.30", units: 20, member, email: memberEmail }));
    const card = accepted(
      await checkout(d, { address: "192.0.2.30", units: 20, member, email: memberEmail, method: "card" }),
    );
    expect(await orderRow(h.db, placed.number)).toMatchObject({ status: "placed", hold_client: null });
    expect(await orderRow(h.db, card.number)).toMatchObject({ status: "awaiting_payment", hold_client: null });
    expect(await guestUnitsHeld(h.db, { email: memberEmail })).toBe(0);
    accepted(await checkout(d, { address: "192.0.2.30", units: 8 }));
  });

  it("holds that ran out but were not released yet are released to make room", async () => {
    const caps = { perClient: 10, perEmail: 10 };
    const email = newEmail();
    const owner = newOwner();
    await addToCart(h.db, owner, { productId: product, quantity: 7 });
    const checkoutInput = checkoutSchema.parse({ ...validCheckoutForm, email, checkoutToken: newToken() });
    const old = await placeOrder(h.db, {
      owner,
      userId: null,
      checkout: checkoutInput,
      siteUrl: SITE,
      holdMinutes: 60,
      guestHolds: { client: "192.0.2.40", caps },
      now: new Date(Date.now() - 2 * 60 * MINUTE),
    });
    expect(await orderRow(h.db, old.number)).toMatchObject({ status: "awaiting_confirmation" });
    expect(await stock()).toBe(93);

    accepted(await checkout(deps(caps), { address: "192.0.2.40", units: 8, email }));
    const released = await orderRow(h.db, old.number);
    expect(released).toMatchObject({ status: "expired", hold_client: null });
    expect(await ledgerOf(h.db, released.id)).toEqual([
      ["order", -7],
      ["order_released", 7],
    ]);
    expect(await stock()).toBe(92);
  });

  it("'Try again' on a guest's card order counts as a checkout: the checkout's limiter, then the caps for the network trying again", async () => {
    const caps = { perClient: 100, perEmail: 8 };
    const d = deps(caps, { ip: 2 });
    const email = newEmail();
    const first = await checkout(d, { address: "198.51.100.60", units: 5, email, method: "card" });
    const order = accepted(first);
    const row = await orderRow(h.db, order.number);
    await h.fake.expireNow(row.payment_session_id!);
    await h.fake.idle();
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "expired", hold_client: null });
    expect(await stock()).toBe(100);
    // Meanwhile the same address holds 4 units in another order (from another network).
    accepted(await checkout(d, { address: "198.51.100.61", units: 4, email }));

    // From the network that already checked out: its second hit of the checkout limiter (max 2) is allowed, the cap is not.
    const ref = { accessToken: order.accessToken };
    const capped = await rejection(payFromOrderPage(h.db, h.payments, ref, SITE, clientKey("198.51.100.60"), d));
    expect({ code: capped.code, status: capped.status, message: capped.message }).toEqual({
      code: "GUEST_HOLD_LIMIT",
      status: 409,
      message: guestHoldMessage({ cap: "email", held: 4, limit: 8 }, "order-page"),
    });
    expect(capped.message).not.toContain("filled in below");
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "expired" });
    expect(await stock()).toBe(96);

    // Its third is refused by the checkout limiter before anything is read.
    const limited = await rejection(payFromOrderPage(h.db, h.payments, ref, SITE, clientKey("198.51.100.60"), d));
    expect({ code: limited.code, status: limited.status }).toEqual({ code: "TOO_MANY_ORDERS", status: 429 });
    expect(limited.message).toMatch(
      /^Too many orders have been placed or tried again from your network in the last hour\. Please try again in (60|59) minutes\.$/,
    );
    expect(RETRY_LIMIT_MESSAGES.ip(3600)).toBe(
      "Too many orders have been placed or tried again from your network in the last hour. Please try again in 60 minutes.",
    );

    // Once the other order is confirmed, the retry from a new network holds the stock again, counted for that network.
    const other = await h.db
      .selectFrom("orders")
      .select(["access_token"])
      .where("email", "=", email)
      .where("status", "=", "awaiting_confirmation")
      .executeTakeFirstOrThrow();
    await confirmGuestOrder(h.db, {
      accessToken: other.access_token,
      confirmToken: await confirmTokenOf(email),
      siteUrl: SITE,
    });
    const url = await payFromOrderPage(h.db, h.payments, ref, SITE, clientKey(hostOf(NET)), d);
    expect(url).toMatch(new RegExp(`^${h.fake.url}/pay/`));
    expect(await orderRow(h.db, order.number)).toMatchObject({
      status: "awaiting_payment",
      hold_client: guestHoldClient(clientKey(hostOf(NET))),
    });
    expect(await guestUnitsHeld(h.db, { client: clientKey(hostOf(NET)) })).toBe(5);
    expect(await stock()).toBe(91);
    // Paid, the order is placed: it no longer counts, and its network is forgotten.
    await h.fake.completeSession((await orderRow(h.db, order.number)).payment_session_id!);
    await h.fake.idle();
    expect(await orderRow(h.db, order.number)).toMatchObject({
      status: "placed",
      payment_status: "paid",
      hold_client: null,
    });
    expect(await guestUnitsHeld(h.db, { email })).toBe(0);
  });

  it("the email's limiter counts a retry too", async () => {
    const d = deps({ perClient: 100, perEmail: 100 }, { email: 1 });
    const order = accepted(await checkout(d, { address: "198.51.100.70", units: 2, method: "card" }));
    await h.fake.expireNow((await orderRow(h.db, order.number)).payment_session_id!);
    await h.fake.idle();
    const limited = await rejection(
      payFromOrderPage(h.db, h.payments, { accessToken: order.accessToken }, SITE, clientKey("198.51.100.71"), d),
    );
    expect({ code: limited.code, status: limited.status }).toEqual({ code: "TOO_MANY_ORDERS", status: 429 });
    expect(limited.message).toMatch(
      /^Too many orders have been placed or tried again with this order's email address in the last hour\./,
    );
    expect(await orderRow(h.db, order.number)).toMatchObject({ status: "expired" });
  });

  it("checkouts of one network at the same moment never hold more than the cap together", async () => {
    const d = deps({ perClient: 10, perEmail: 100 });
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        checkout(d, { address: hostOf(NET), units: 3, method: i % 2 ? "card" : "pay-on-delivery" }),
      ),
    );
    const ok = attempts.filter((a) => a.result.ok);
    expect(ok).toHaveLength(3);
    expect(attempts.filter((a) => !a.result.ok).map((a) => !a.result.ok && a.result.status)).toEqual([
      409, 409, 409, 409, 409,
    ]);
    expect(await guestUnitsHeld(h.db, { client: clientKey(hostOf(NET)) })).toBe(9);
    expect(await stock()).toBe(91);
    expect(await expireOverdueHolds(h.db, { now: new Date(Date.now() + 3 * 60 * MINUTE), productIds: [product] })).toBe(
      3,
    );
    expect(await stock()).toBe(100);
    expect((await orders()).map((o) => [o.status, o.hold_client])).toEqual([
      ["expired", null],
      ["expired", null],
      ["expired", null],
    ]);
  });

  it("each count reads an index", async () => {
    async function plan(query: RawBuilder<unknown>): Promise<string> {
      if (kind === "sqlite")
        return ((await sql`explain query plan ${query}`.execute(h.db)).rows as { detail: string }[])
          .map((r) => r.detail)
          .join("\n");
      return h.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return ((await sql`explain ${query}`.execute(trx)).rows as { "QUERY PLAN": string }[])
          .map((r) => r["QUERY PLAN"])
          .join("\n");
      });
    }
    expect(
      await plan(
        sql`select id from orders where status in ('awaiting_confirmation', 'awaiting_payment') and user_id is null and hold_client = ${"c"}`,
      ),
    ).toContain("orders_hold_client_idx");
    expect(
      await plan(
        sql`select id from orders as o where status in ('awaiting_confirmation', 'awaiting_payment') and user_id is null and lower(o.email) = ${"a@b.c"}`,
      ),
    ).toContain("orders_email_idx");
  });
});
