/**
 * "Order again" through the database: a customer's past order back into their cart at today's
 * prices, with the lines that changed price or could not be added reported, on SQLite and PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { MAX_LINE_QUANTITY } from "../../app/lib/order-rules.ts";
import { discountedPriceCents } from "../../app/lib/pricing.ts";
import { addToCart, getCart } from "../../server/cart/cart.ts";
import { DomainError } from "../../server/errors.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { orderAgain } from "../../server/orders/reorder.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const newUser = () => `user-${randomBytes(6).toString("hex")}`;
const token = () => randomBytes(18).toString("base64url");

describe.each(dialects)("order again on %s", (kind) => {
  let t: TestDb;
  // Product 3 sells cheaper by volume (10+ −5%); the others have no breaks.
  const BROKEN = 3;

  beforeAll(async () => {
    t = await freshSeededDb(kind, 20);
    await t.db.updateTable("products").set({ stock_quantity: 500, archived_at: null }).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function placedOrder(userId: string, lines: { productId: number; quantity: number }[]): Promise<string> {
    const owner = `u:${userId}`;
    for (const line of lines) await addToCart(t.db, owner, line);
    const placed = await placeOrder(t.db, {
      owner,
      userId,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, checkoutToken: token() }),
      siteUrl: "http://x",
    });
    return placed.number;
  }

  const cartOf = async (userId: string) =>
    Object.fromEntries(
      (await getCart(t.db, `u:${userId}`)).lines.map((l) => [
        l.productId,
        { quantity: l.quantity, unit: l.unitPriceCents },
      ]),
    );
  const product = (id: number) =>
    t.db.selectFrom("products").select(["sale_price_cents", "colors"]).where("id", "=", id).executeTakeFirstOrThrow();

  it("puts the lines in the cart at today's prices and reports the line whose price changed", async () => {
    const user = newUser();
    const before = (await product(1)).sale_price_cents;
    const listOfBroken = (await product(BROKEN)).sale_price_cents;
    const number = await placedOrder(user, [
      { productId: 1, quantity: 2 },
      { productId: 2, quantity: 3 },
      { productId: BROKEN, quantity: 12 },
    ]);
    const today = before + 150;
    await t.db.updateTable("products").set({ sale_price_cents: today }).where("id", "=", 1).execute();

    const result = await orderAgain(t.db, user, number);

    expect(result.lines.map((l) => [l.ordered, l.added, l.status, l.reason])).toEqual([
      [2, 2, "price-changed", `price changed from ${formatMoney(before)} to ${formatMoney(today)}`],
      [3, 3, "added", "added"],
      // Paid and priced today at the same volume break: not a change.
      [12, 12, "added", "added"],
    ]);
    expect(result.lines[0]).toMatchObject({ paidUnitCents: before, todayUnitCents: today });
    expect(result.summary).toBe("3 of 3 lines are in your cart at today's prices.");
    expect(await cartOf(user)).toMatchObject({
      1: { quantity: 2, unit: today },
      2: { quantity: 3 },
      [BROKEN]: { quantity: 12, unit: discountedPriceCents(listOfBroken, 5) },
    });
  });

  it("leaves out sold-out, archived and no-longer-offered colors, and says why", async () => {
    const user = newUser();
    const number = await placedOrder(
      user,
      [4, 5, 6, 7].map((productId) => ({ productId, quantity: 1 })),
    );
    await t.db.updateTable("products").set({ stock_quantity: 0 }).where("id", "=", 5).execute();
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", 6).execute();
    const colors = JSON.parse((await product(7)).colors) as string[];
    await t.db
      .updateTable("products")
      .set({ colors: JSON.stringify(["Chartreuse"]) })
      .where("id", "=", 7)
      .execute();

    const result = await orderAgain(t.db, user, number);

    expect(result.lines.map((l) => [l.added, l.status, l.reason, l.todayUnitCents === null])).toEqual([
      [1, "added", "added", false],
      [0, "out-of-stock", "out of stock", true],
      [0, "no-longer-sold", "no longer sold", true],
      [0, "no-longer-sold", "no longer sold", true],
    ]);
    expect(result.lines[3].color).toBe(colors[0]);
    expect(result.summary).toBe("1 of 4 lines are in your cart at today's prices.");
    expect(Object.keys(await cartOf(user))).toEqual(["4"]);
  });

  it("adds what the stock allows and says so, and nothing more the second time", async () => {
    const user = newUser();
    const number = await placedOrder(user, [{ productId: 8, quantity: 5 }]);
    await t.db.updateTable("products").set({ stock_quantity: 3 }).where("id", "=", 8).execute();

    const first = await orderAgain(t.db, user, number);
    expect(first.lines[0]).toMatchObject({
      ordered: 5,
      added: 3,
      status: "partly-added",
      reason: "only 3 added (stock)",
    });
    const second = await orderAgain(t.db, user, number);
    expect(second.lines[0]).toMatchObject({
      added: 0,
      status: "partly-added",
      reason: "none added (all 3 in stock are already in your cart)",
    });
    expect(second.summary).toBe("1 of 1 line is in your cart at today's prices.");
    expect((await cartOf(user))[8].quantity).toBe(3);
  });

  it("adds the order again on a second click, up to one line's cap", async () => {
    const user = newUser();
    const number = await placedOrder(user, [
      { productId: 9, quantity: 60 },
      { productId: 10, quantity: 2 },
    ]);
    await orderAgain(t.db, user, number);
    const second = await orderAgain(t.db, user, number);
    expect(second.lines.map((l) => [l.added, l.reason])).toEqual([
      [
        MAX_LINE_QUANTITY - 60,
        `only ${MAX_LINE_QUANTITY - 60} added (at most ${MAX_LINE_QUANTITY} of one item per order)`,
      ],
      [2, "added"],
    ]);
    expect(await cartOf(user)).toMatchObject({ 9: { quantity: MAX_LINE_QUANTITY }, 10: { quantity: 4 } });
  });

  it("reorders a cancelled order too", async () => {
    const user = newUser();
    const number = await placedOrder(user, [{ productId: 11, quantity: 1 }]);
    await t.db.updateTable("orders").set({ status: "cancelled" }).where("number", "=", number).execute();
    expect((await orderAgain(t.db, user, number)).lines[0]).toMatchObject({ added: 1, status: "added" });
  });

  it("refuses another user's order, or an unknown number, with a 404 and writes nothing", async () => {
    const owner = newUser();
    const number = await placedOrder(owner, [{ productId: 12, quantity: 1 }]);
    const stranger = newUser();
    for (const attempt of [number, "TH-0000000000", "not a number"]) {
      const error = await orderAgain(t.db, stranger, attempt).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ status: 404, code: "ORDER_NOT_FOUND" });
    }
    expect(await cartOf(stranger)).toEqual({});
    expect(await cartOf(owner)).toEqual({});
  });
});
