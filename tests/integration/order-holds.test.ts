import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkoutSchema, type CheckoutInput } from "../../app/lib/checkout-schema.ts";
import { MAX_LINE_QUANTITY, MAX_ORDER_QUANTITY, QUANTITY_LIMIT_MESSAGES } from "../../app/lib/order-rules.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { DomainError } from "../../server/errors.ts";
import { submitCheckout, type CheckoutDeps } from "../../server/orders/checkout.ts";
import {
  confirmGuestOrder,
  expireGuestOrderIfOverdue,
  expireHoldsJob,
  expireOverdueHolds,
  guestHoldView,
  hashConfirmToken,
} from "../../server/orders/holds.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { createRateLimiter } from "../../server/security/rate-limit.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { countRows, dialects, freshSeededDb, type TestDb } from "./databases.ts";

/**
 * Issue 17, item 2: a guest's pay-on-delivery order no longer takes the stock for good. It holds
 * the stock as `awaiting_confirmation` until the guest confirms it from the mail (which carries
 * nothing the guest typed), and the hold runs out after GUEST_ORDER_HOLD_MINUTES: the order
 * becomes `expired` and its stock goes back through the ledger. Orders are capped per line and per
 * order. Every assertion reads what the database holds.
 */

const SITE = "https://shop.example";
const HOLD_MINUTES = 30;
const MINUTE = 60_000;

/** What a guest types at checkout: each value is distinctive, so finding it in a mail means the mail echoes typed text. */
const TYPED = {
  name: "Zebulon Quaffington",
  line1: "742 Evergreen Terrace",
  line2: "Suite Xylophone",
  city: "Frobozzville",
  region: "Quuxshire",
  postcode: "97403",
} as const;

const guestOwner = () => `g:${randomBytes(18).toString("base64url")}`;
const newUserId = () => `user-${randomBytes(6).toString("hex")}`;
const newEmail = () => `buyer.${randomBytes(5).toString("hex")}@example.com`;
const newToken = () => randomBytes(18).toString("base64url");

function checkoutInput(overrides: Partial<Record<string, string>> = {}): CheckoutInput {
  return checkoutSchema.parse({
    ...validCheckoutForm,
    ...TYPED,
    email: newEmail(),
    checkoutToken: newToken(),
    ...overrides,
  });
}

function formOf(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

/** Route-shaped dependencies with limits far away, so only the behaviour under test can refuse. */
function roomyDeps(): CheckoutDeps {
  const name = `t-${randomBytes(4).toString("hex")}`;
  return {
    siteUrl: SITE,
    holdMinutes: HOLD_MINUTES,
    ipLimiter: createRateLimiter({ name: `${name}-ip`, windowSeconds: 3600, max: 10_000 }),
    emailLimiter: createRateLimiter({ name: `${name}-email`, windowSeconds: 3600, max: 10_000 }),
    payments: null,
  };
}

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a DomainError, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe.each(dialects)("order holds on %s", (kind) => {
  let t: TestDb;
  let nextProduct = 1;

  // A fresh database for each test: the expiry job sweeps every overdue hold, so the counts it
  // returns are exact only when no other test's orders are around.
  beforeEach(async () => {
    t = await freshSeededDb(kind, 15);
    nextProduct = 1;
  });
  afterEach(async () => {
    await t?.drop();
  });

  async function product(stock: number) {
    const id = nextProduct++;
    await t.db.updateTable("products").set({ stock_quantity: stock }).where("id", "=", id).execute();
    const p = await t.db
      .selectFrom("products")
      .select(["id", "title", "colors"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return { id, title: p.title, color: (JSON.parse(p.colors) as string[])[0] ?? "" };
  }
  const stockOf = async (id: number) =>
    (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", id).executeTakeFirstOrThrow())
      .stock_quantity;
  const orderRow = (number: string) =>
    t.db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
  const ledgerOf = (orderId: number) =>
    t.db
      .selectFrom("stock_movements")
      .select(["product_id", "delta", "stock_before", "stock_after", "reason", "order_id", "actor"])
      .where("order_id", "=", orderId)
      .orderBy("id")
      .execute();
  const mailsTo = (address: string) =>
    t.db
      .selectFrom("mail_queue")
      .select(["subject", "text_body", "html_body", "status"])
      .where("to_address", "=", address)
      .orderBy("id")
      .execute();
  const placedMailsFor = async (number: string) =>
    (
      await t.db
        .selectFrom("mail_queue")
        .select("id")
        .where("subject", "=", `Your ToolHub Wholesale order ${number}`)
        .execute()
    ).length;
  const count = (table: "orders" | "order_lines" | "stock_movements" | "mail_queue" | "cart_items") =>
    countRows(t.db, table);
  /** The stock implied by the ledger: what the product started with plus every movement. */
  const ledgerSum = async (productId: number) =>
    Number(
      (
        await t.db
          .selectFrom("stock_movements")
          .select((eb) => eb.fn.sum<number>("delta").as("n"))
          .where("product_id", "=", productId)
          .executeTakeFirst()
      )?.n ?? 0,
    );

  /** A guest's order placed as the checkout does, with the secret taken from its confirmation mail. */
  async function guestOrder(lines: { productId: number; quantity: number }[]) {
    const owner = guestOwner();
    for (const line of lines) await addToCart(t.db, owner, line);
    const input = checkoutInput();
    const placed = await placeOrder(t.db, {
      owner,
      userId: null,
      checkout: input,
      siteUrl: SITE,
      holdMinutes: HOLD_MINUTES,
    });
    const row = await orderRow(placed.number);
    const mails = await mailsTo(input.email);
    expect(mails.map((m) => m.subject)).toEqual([`Confirm your ToolHub Wholesale order ${placed.number}`]);
    const confirmToken = /\?confirm=([A-Za-z0-9_-]+)/.exec(mails[0].text_body)?.[1];
    if (!confirmToken) throw new Error("no confirmation link in the mail");
    return { ...placed, input, row, confirmToken, holdEndsAt: Date.parse(row.hold_expires_at!) };
  }
  const confirm = (order: { accessToken: string; confirmToken: string }, now?: Date) =>
    confirmGuestOrder(t.db, { accessToken: order.accessToken, confirmToken: order.confirmToken, siteUrl: SITE, now });

  describe("a guest checkout", () => {
    it("creates an order awaiting confirmation, holds its stock through the ledger, and mails only a confirmation that echoes nothing typed", async () => {
      const a = await product(50);
      const b = await product(20);
      const owner = guestOwner();
      await addToCart(t.db, owner, { productId: a.id, quantity: 3 });
      await addToCart(t.db, owner, { productId: b.id, quantity: 2 });
      const email = newEmail();
      const before = Date.now();
      const result = await submitCheckout(
        t.db,
        formOf({ ...validCheckoutForm, ...TYPED, email, checkoutToken: newToken() }),
        { ip: "198.51.100.1" },
        { owner, userId: null, email: null },
        roomyDeps(),
      );
      const after = Date.now();
      if (!result.ok) throw new Error(`checkout refused: ${JSON.stringify(result)}`);
      const { number, accessToken } = result.order;
      expect(result.location).toBe(`/orders/${accessToken}?placed=1`);

      const row = await orderRow(number);
      expect(row).toMatchObject({
        status: "awaiting_confirmation",
        version: 0,
        user_id: null,
        email,
        ship_name: TYPED.name,
      });
      const holdEndsAt = Date.parse(row.hold_expires_at!);
      expect(holdEndsAt).toBeGreaterThanOrEqual(before + HOLD_MINUTES * MINUTE);
      expect(holdEndsAt).toBeLessThanOrEqual(after + HOLD_MINUTES * MINUTE);

      // The stock is taken now: one ledger row per line, the order's own.
      expect(await stockOf(a.id)).toBe(47);
      expect(await stockOf(b.id)).toBe(18);
      expect(await ledgerOf(row.id)).toEqual([
        {
          product_id: a.id,
          delta: -3,
          stock_before: 50,
          stock_after: 47,
          reason: "order",
          order_id: row.id,
          actor: "guest",
        },
        {
          product_id: b.id,
          delta: -2,
          stock_before: 20,
          stock_after: 18,
          reason: "order",
          order_id: row.id,
          actor: "guest",
        },
      ]);
      expect(await count("stock_movements")).toBe(2);
      expect(
        await t.db
          .selectFrom("order_lines")
          .select(["product_id", "quantity"])
          .where("order_id", "=", row.id)
          .orderBy("product_id")
          .execute(),
      ).toEqual([
        { product_id: a.id, quantity: 3 },
        { product_id: b.id, quantity: 2 },
      ]);
      expect(await count("cart_items")).toBe(0);

      // Exactly one mail, the confirmation request; no "order placed" mail yet.
      expect(await count("mail_queue")).toBe(1);
      const [mail] = await mailsTo(email);
      expect(mail.subject).toBe(`Confirm your ToolHub Wholesale order ${number}`);
      expect(mail.status).toBe("queued");
      expect(await placedMailsFor(number)).toBe(0);
      // Its link carries the secret whose hash (only) the order stores.
      const token = /\?confirm=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1];
      expect(mail.text_body).toContain(`${SITE}/orders/${accessToken}?confirm=${token}`);
      expect(row.confirm_token_hash).toBe(hashConfirmToken(token!));
      expect(Object.values(row)).not.toContain(token);
      // It names the catalog's items, and nothing the person at the keyboard typed.
      expect(mail.text_body).toContain(a.title);
      expect(mail.text_body).toContain(b.title);
      for (const [field, value] of Object.entries(TYPED)) {
        for (const part of ["subject", "text_body", "html_body"] as const)
          expect(mail[part], `${field} in ${part}`).not.toContain(value);
      }
    });

    it("a member's order is placed at once, holds nothing, mails the order, and the expiry job never touches it", async () => {
      const p = await product(40);
      const uid = newUserId();
      await addToCart(t.db, `u:${uid}`, { productId: p.id, quantity: 5 });
      const input = checkoutInput();
      const placed = await placeOrder(t.db, {
        owner: `u:${uid}`,
        userId: uid,
        checkout: input,
        siteUrl: SITE,
        holdMinutes: HOLD_MINUTES,
      });
      const row = await orderRow(placed.number);
      expect(row).toMatchObject({
        status: "placed",
        version: 0,
        user_id: uid,
        hold_expires_at: null,
        confirm_token_hash: null,
      });
      expect((await mailsTo(input.email)).map((m) => m.subject)).toEqual([
        `Your ToolHub Wholesale order ${placed.number}`,
      ]);
      expect(await stockOf(p.id)).toBe(35);

      const farFuture = new Date(Date.now() + 400 * 24 * 60 * MINUTE);
      expect(await expireOverdueHolds(t.db, { now: farFuture })).toBe(0);
      expect(await expireHoldsJob().run(t.db, farFuture)).toBeUndefined();
      expect(await orderRow(placed.number)).toEqual(row);
      expect(await stockOf(p.id)).toBe(35);
      expect(await ledgerOf(row.id)).toEqual([
        {
          product_id: p.id,
          delta: -5,
          stock_before: 40,
          stock_after: 35,
          reason: "order",
          order_id: row.id,
          actor: `user:${uid}`,
        },
      ]);
    });
  });

  describe("confirming a guest order", () => {
    it("with the mail's secret: placed, version bumped, one order mail; confirming again changes nothing", async () => {
      const p = await product(25);
      const order = await guestOrder([{ productId: p.id, quantity: 4 }]);
      const ledgerBefore = await ledgerOf(order.row.id);

      expect(await confirm(order)).toEqual({ outcome: "confirmed", number: order.number });
      const placed = await orderRow(order.number);
      expect(placed).toMatchObject({ status: "placed", version: 1, hold_expires_at: null });
      expect(await placedMailsFor(order.number)).toBe(1);
      expect((await mailsTo(order.input.email)).map((m) => m.subject)).toEqual([
        `Confirm your ToolHub Wholesale order ${order.number}`,
        `Your ToolHub Wholesale order ${order.number}`,
      ]);
      // The stock stays taken, with no new ledger row.
      expect(await stockOf(p.id)).toBe(21);
      expect(await ledgerOf(order.row.id)).toEqual(ledgerBefore);

      expect(await confirm(order)).toEqual({ outcome: "already_placed", number: order.number });
      expect(await orderRow(order.number)).toEqual(placed);
      expect(await placedMailsFor(order.number)).toBe(1);

      // A confirmed order no longer holds anything: the job leaves it alone.
      expect(await expireOverdueHolds(t.db, { now: new Date(order.holdEndsAt + 60 * MINUTE) })).toBe(0);
      expect(await orderRow(order.number)).toEqual(placed);
      expect(await stockOf(p.id)).toBe(21);
    });

    it("with a wrong secret: 403, and nothing changes", async () => {
      const p = await product(25);
      const order = await guestOrder([{ productId: p.id, quantity: 4 }]);
      const other = await guestOrder([{ productId: p.id, quantity: 1 }]);
      const snapshot = async () => ({
        row: await orderRow(order.number),
        stock: await stockOf(p.id),
        ledger: await count("stock_movements"),
        mails: await count("mail_queue"),
      });
      const before = await snapshot();

      // Another order's genuine secret, a made-up one of the right shape, a malformed one, none.
      for (const confirmToken of [other.confirmToken, newToken(), `${order.confirmToken}!`, ""]) {
        const error = await rejection(
          confirmGuestOrder(t.db, { accessToken: order.accessToken, confirmToken, siteUrl: SITE }),
        );
        expect(error.status).toBe(403);
        expect(error.code).toBe("BAD_CONFIRM_LINK");
      }
      // The order page's own link (the access token) is not a confirmation secret either.
      expect(
        (
          await rejection(
            confirmGuestOrder(t.db, { accessToken: order.accessToken, confirmToken: order.accessToken, siteUrl: SITE }),
          )
        ).status,
      ).toBe(403);
      // A wrong secret after the hold ran out does not expire the order either.
      expect(
        (
          await rejection(
            confirmGuestOrder(t.db, {
              accessToken: order.accessToken,
              confirmToken: newToken(),
              siteUrl: SITE,
              now: new Date(order.holdEndsAt + MINUTE),
            }),
          )
        ).status,
      ).toBe(403);

      expect(await snapshot()).toEqual(before);
      expect(before.row.status).toBe("awaiting_confirmation");
      expect(await placedMailsFor(order.number)).toBe(0);
    });

    it("the order page offers Confirm only to the mail's link, and only while the hold lasts", async () => {
      const p = await product(10);
      const order = await guestOrder([{ productId: p.id, quantity: 1 }]);
      const placedAt = Date.parse(order.row.created_at);
      expect(await guestHoldView(t.db, order.accessToken, order.confirmToken, new Date(placedAt))).toEqual({
        minutesLeft: HOLD_MINUTES,
        canConfirm: true,
      });
      expect(await guestHoldView(t.db, order.accessToken, null, new Date(placedAt))).toEqual({
        minutesLeft: HOLD_MINUTES,
        canConfirm: false,
      });
      expect(await guestHoldView(t.db, order.accessToken, newToken(), new Date(placedAt))).toEqual({
        minutesLeft: HOLD_MINUTES,
        canConfirm: false,
      });

      // Looking at the page before the end changes nothing; after it, the order expires there and then.
      await expireGuestOrderIfOverdue(t.db, order.accessToken, new Date(order.holdEndsAt - 1000));
      expect((await orderRow(order.number)).status).toBe("awaiting_confirmation");
      await expireGuestOrderIfOverdue(t.db, order.accessToken, new Date(order.holdEndsAt + 1000));
      expect((await orderRow(order.number)).status).toBe("expired");
      expect(await stockOf(p.id)).toBe(10);
      expect(
        await guestHoldView(t.db, order.accessToken, order.confirmToken, new Date(order.holdEndsAt + 1000)),
      ).toBeNull();
    });
  });

  describe("an unconfirmed hold running out", () => {
    it("the job expires it after hold minutes and gives the stock back through the ledger, once; a late confirmation says expired", async () => {
      const p = await product(30);
      const q = await product(12);
      const order = await guestOrder([
        { productId: p.id, quantity: 4 },
        { productId: q.id, quantity: 2 },
      ]);
      expect(await stockOf(p.id)).toBe(26);
      expect(await stockOf(q.id)).toBe(10);

      // One minute before the end: still held.
      expect(await expireOverdueHolds(t.db, { now: new Date(order.holdEndsAt - MINUTE) })).toBe(0);
      expect((await orderRow(order.number)).status).toBe("awaiting_confirmation");
      expect(await stockOf(p.id)).toBe(26);

      // One minute after: expired, stock back, one release row per line.
      expect(await expireOverdueHolds(t.db, { now: new Date(order.holdEndsAt + MINUTE) })).toBe(1);
      const expired = await orderRow(order.number);
      expect(expired).toMatchObject({ status: "expired", version: 1, hold_expires_at: null });
      expect(await stockOf(p.id)).toBe(30);
      expect(await stockOf(q.id)).toBe(12);
      const ledger = await ledgerOf(order.row.id);
      expect(ledger.filter((m) => m.reason === "order_released")).toEqual([
        {
          product_id: p.id,
          delta: 4,
          stock_before: 26,
          stock_after: 30,
          reason: "order_released",
          order_id: order.row.id,
          actor: "system:hold-expiry",
        },
        {
          product_id: q.id,
          delta: 2,
          stock_before: 10,
          stock_after: 12,
          reason: "order_released",
          order_id: order.row.id,
          actor: "system:hold-expiry",
        },
      ]);
      expect(ledger).toHaveLength(4);
      expect(await ledgerSum(p.id)).toBe(0);
      expect(await ledgerSum(q.id)).toBe(0);

      // Running it again (and the periodic job itself) changes nothing.
      expect(await expireOverdueHolds(t.db, { now: new Date(order.holdEndsAt + 2 * MINUTE) })).toBe(0);
      expect(await expireHoldsJob().run(t.db, new Date(order.holdEndsAt + 3 * MINUTE))).toBeUndefined();
      expect(await orderRow(order.number)).toEqual(expired);
      expect(await stockOf(p.id)).toBe(30);
      expect(await ledgerOf(order.row.id)).toEqual(ledger);

      // The guest comes back too late: told so, nothing placed, no order mail.
      expect(await confirm(order, new Date(order.holdEndsAt + 5 * MINUTE))).toEqual({
        outcome: "expired",
        number: order.number,
      });
      expect(await confirm(order)).toEqual({ outcome: "expired", number: order.number });
      expect(await orderRow(order.number)).toEqual(expired);
      expect(await placedMailsFor(order.number)).toBe(0);
      expect(await count("mail_queue")).toBe(1);
      expect(await stockOf(p.id)).toBe(30);
    });

    it("the periodic job reports what it released", async () => {
      const p = await product(9);
      const first = await guestOrder([{ productId: p.id, quantity: 2 }]);
      const second = await guestOrder([{ productId: p.id, quantity: 3 }]);
      expect(await stockOf(p.id)).toBe(4);
      const after = new Date(Math.max(first.holdEndsAt, second.holdEndsAt) + MINUTE);
      expect(await expireHoldsJob().run(t.db, after)).toBe("2 order holds expired, stock released");
      expect(await stockOf(p.id)).toBe(9);
      expect(await ledgerSum(p.id)).toBe(0);
    });

    it("a confirmation that comes after the end, before the job ran, expires the order itself and returns the stock", async () => {
      const p = await product(8);
      const order = await guestOrder([{ productId: p.id, quantity: 8 }]);
      expect(await stockOf(p.id)).toBe(0);
      expect(await confirm(order, new Date(order.holdEndsAt))).toEqual({ outcome: "expired", number: order.number });
      expect(await orderRow(order.number)).toMatchObject({ status: "expired", version: 1 });
      expect(await stockOf(p.id)).toBe(8);
      expect(await placedMailsFor(order.number)).toBe(0);
      expect(await ledgerSum(p.id)).toBe(0);
    });

    it("a sold-out product's overdue holds are released for a new order instead of refusing it", async () => {
      const p = await product(5);
      const stale = await guestOrder([{ productId: p.id, quantity: 5 }]);
      expect(await stockOf(p.id)).toBe(0);
      // The job has not run yet; a member orders after the hold ran out.
      const uid = newUserId();
      await t.db
        .insertInto("cart_items")
        .values({
          owner: `u:${uid}`,
          product_id: p.id,
          color: p.color,
          quantity: 2,
          seen_price_cents: 100,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .execute();
      const placed = await placeOrder(t.db, {
        owner: `u:${uid}`,
        userId: uid,
        checkout: checkoutInput(),
        siteUrl: SITE,
        now: new Date(stale.holdEndsAt + MINUTE),
      });
      expect((await orderRow(stale.number)).status).toBe("expired");
      expect((await orderRow(placed.number)).status).toBe("placed");
      expect(await stockOf(p.id)).toBe(3);
      expect(await ledgerSum(p.id)).toBe(-2);
    });
  });

  it("a confirmation and the expiry job at the same instant: exactly one wins, and the stock and ledger agree with it (10 rounds)", async () => {
    const p = await product(100);
    const wins = { confirmed: 0, expired: 0 };
    for (let round = 0; round < 10; round++) {
      const stockBefore = await stockOf(p.id);
      const order = await guestOrder([{ productId: p.id, quantity: 3 }]);
      expect(await stockOf(p.id)).toBe(stockBefore - 3);
      // The guest clicks in the hold's last second; the job runs as it ends. Which of the two
      // starts first alternates, so each gets to be the one that finds the order already moved.
      const confirming = () => confirm(order, new Date(order.holdEndsAt - 500));
      const expiring = () => expireOverdueHolds(t.db, { now: new Date(order.holdEndsAt) });
      const [confirmed, expiredCount] =
        round % 2 === 0
          ? await Promise.all([confirming(), expiring()])
          : await Promise.all([expiring(), confirming()]).then(([n, c]) => [c, n] as const);

      const row = await orderRow(order.number);
      const ledger = await ledgerOf(order.row.id);
      expect(["confirmed", "expired"]).toContain(confirmed.outcome);
      // Exactly one of the two moved the order, once.
      expect(confirmed.outcome === "confirmed" ? 1 : 0).toBe(1 - expiredCount);
      expect(row.version).toBe(1);
      if (confirmed.outcome === "confirmed") {
        wins.confirmed++;
        expect(row.status).toBe("placed");
        expect(await stockOf(p.id)).toBe(stockBefore - 3);
        expect(ledger.map((m) => [m.reason, m.delta])).toEqual([["order", -3]]);
        expect(await placedMailsFor(order.number)).toBe(1);
      } else {
        wins.expired++;
        expect(row.status).toBe("expired");
        expect(await stockOf(p.id)).toBe(stockBefore);
        expect(ledger.map((m) => [m.reason, m.delta])).toEqual([
          ["order", -3],
          ["order_released", 3],
        ]);
        expect(await placedMailsFor(order.number)).toBe(0);
      }
      // Whatever happened so far, the product's stock is its starting stock plus the ledger.
      expect(await stockOf(p.id)).toBe(100 + (await ledgerSum(p.id)));
    }
    expect(wins.confirmed + wins.expired).toBe(10);
  });

  describe("quantity caps at checkout", () => {
    /** A cart written as it is stored (the cart page cannot build one this big; an old or crafted cart can). */
    async function rawCart(lines: { productId: number; color: string; quantity: number }[]) {
      const owner = guestOwner();
      const now = new Date().toISOString();
      await t.db
        .insertInto("cart_items")
        .values(
          lines.map((l) => ({
            owner,
            product_id: l.productId,
            color: l.color,
            quantity: l.quantity,
            seen_price_cents: 100,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      return owner;
    }
    async function nothingWritten(productIds: number[], stock: number, owner: string, cartLines: number) {
      expect(await count("orders")).toBe(0);
      expect(await count("order_lines")).toBe(0);
      expect(await count("stock_movements")).toBe(0);
      expect(await count("mail_queue")).toBe(0);
      for (const id of productIds) expect(await stockOf(id)).toBe(stock);
      // The cart is kept, so the shopper can lower the quantities.
      expect(
        await t.db.selectFrom("cart_items").select("product_id").where("owner", "=", owner).execute(),
      ).toHaveLength(cartLines);
    }

    it(`refuses a line of ${MAX_LINE_QUANTITY + 1} units, writing nothing`, async () => {
      const p = await product(5_000);
      const owner = await rawCart([{ productId: p.id, color: p.color, quantity: MAX_LINE_QUANTITY + 1 }]);
      const error = await rejection(
        placeOrder(t.db, { owner, userId: null, checkout: checkoutInput(), siteUrl: SITE, holdMinutes: HOLD_MINUTES }),
      );
      expect(error.code).toBe("QUANTITY_LIMIT");
      expect(error.message).toContain(QUANTITY_LIMIT_MESSAGES.line);
      // The checkout form shows the same text.
      const result = await submitCheckout(
        t.db,
        formOf({ ...validCheckoutForm, email: newEmail(), checkoutToken: newToken() }),
        { ip: "198.51.100.2" },
        { owner, userId: null, email: null },
        roomyDeps(),
      );
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.status).toBe(409);
      expect(result.data.message).toContain(QUANTITY_LIMIT_MESSAGES.line);
      await nothingWritten([p.id], 5_000, owner, 1);
    });

    it(`refuses lines that add up to ${MAX_ORDER_QUANTITY + 1} units, writing nothing`, async () => {
      const products = [];
      for (let i = 0; i < 11; i++) products.push(await product(5_000));
      // 11 lines of 91 = 1,001 units, each line within its own cap.
      const owner = await rawCart(products.map((p) => ({ productId: p.id, color: p.color, quantity: 91 })));
      const error = await rejection(
        placeOrder(t.db, { owner, userId: null, checkout: checkoutInput(), siteUrl: SITE, holdMinutes: HOLD_MINUTES }),
      );
      expect(error.code).toBe("QUANTITY_LIMIT");
      expect(error.message).toContain(QUANTITY_LIMIT_MESSAGES.order);
      const uid = newUserId();
      const memberOwner = await rawCart(products.map((p) => ({ productId: p.id, color: p.color, quantity: 91 })));
      await t.db
        .updateTable("cart_items")
        .set({ owner: `u:${uid}` })
        .where("owner", "=", memberOwner)
        .execute();
      const result = await submitCheckout(
        t.db,
        formOf({ ...validCheckoutForm, checkoutToken: newToken() }),
        { ip: "198.51.100.3" },
        { owner: `u:${uid}`, userId: uid, email: newEmail() },
        roomyDeps(),
      );
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.status).toBe(409);
        expect(result.data.message).toContain(QUANTITY_LIMIT_MESSAGES.order);
      }
      await nothingWritten(
        products.map((p) => p.id),
        5_000,
        owner,
        11,
      );
    });

    it(`accepts exactly ${MAX_LINE_QUANTITY} a line and ${MAX_ORDER_QUANTITY} in all`, async () => {
      const products = [];
      for (let i = 0; i < MAX_ORDER_QUANTITY / MAX_LINE_QUANTITY; i++) products.push(await product(5_000));
      const owner = await rawCart(
        products.map((p) => ({ productId: p.id, color: p.color, quantity: MAX_LINE_QUANTITY })),
      );
      const placed = await placeOrder(t.db, {
        owner,
        userId: null,
        checkout: checkoutInput(),
        siteUrl: SITE,
        holdMinutes: HOLD_MINUTES,
      });
      expect((await orderRow(placed.number)).status).toBe("awaiting_confirmation");
      for (const p of products) expect(await stockOf(p.id)).toBe(5_000 - MAX_LINE_QUANTITY);
      expect(await count("stock_movements")).toBe(products.length);
    });

    it("the cart itself never holds more than the line cap (the issue's 99,999 units)", async () => {
      const p = await product(200_000);
      const owner = guestOwner();
      expect(await addToCart(t.db, owner, { productId: p.id, quantity: 99_999 })).toMatchObject({
        quantity: MAX_LINE_QUANTITY,
        capped: true,
        cappedBy: "line",
      });
      expect(await addToCart(t.db, owner, { productId: p.id, quantity: 99_999 })).toMatchObject({
        quantity: MAX_LINE_QUANTITY,
      });
      expect(
        (await t.db.selectFrom("cart_items").select("quantity").where("owner", "=", owner).executeTakeFirstOrThrow())
          .quantity,
      ).toBe(MAX_LINE_QUANTITY);
    });
  });
});
