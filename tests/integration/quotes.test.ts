/**
 * Quotes on SQLite and PostgreSQL: who may ask, staff pricing (each bad field named, stale forms
 * refused, an audit row and a mail), accepting at the checkout (the order at the quoted prices,
 * stock taken as usual, the cart untouched, one order however many accept at once), expiry,
 * declining, and nobody else's quote.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { QUOTE_MAX_OPEN_REQUESTS, QUOTE_MIN_UNITS } from "../../app/lib/quotes.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import {
  declineQuote,
  listQuotesForCustomer,
  loadQuote,
  quoteForCustomer,
  requestQuote,
} from "../../server/quotes/quotes.ts";
import { listQuotesForStaff, sendQuote } from "../../server/quotes/staff-quotes.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const SITE = "http://store.test";
const INBOX = "team@toolhub.example";
const STAFF = { userId: "staff-1", name: "Sam Staff" };
const token = () => randomBytes(18).toString("base64url");
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe.each(dialects)("quotes on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 6);
    await t.db.updateTable("products").set({ stock_quantity: 1_000 }).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function member(): Promise<{ userId: string; email: string; owner: string }> {
    const id = randomBytes(5).toString("hex");
    const now = new Date().toISOString();
    const email = `quote.${id}@example.com`;
    await t.db
      .insertInto("user")
      .values({
        id: `user-${id}`,
        name: "Quinn Buyer",
        email,
        emailVerified: true,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    return { userId: `user-${id}`, email, owner: `u:user-${id}` };
  }
  async function cartOf(owner: string, lines: [number, number][]) {
    for (const [productId, quantity] of lines) await addToCart(t.db, owner, { productId, quantity });
  }
  const ask = (who: { userId: string; email: string; owner: string }, message?: string) =>
    requestQuote(t.db, who, { message, siteUrl: SITE, storeInbox: INBOX });
  const listPrice = async (id: number) =>
    (await t.db.selectFrom("products").select("sale_price_cents").where("id", "=", id).executeTakeFirstOrThrow())
      .sale_price_cents;
  const stockOf = async (id: number) =>
    (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", id).executeTakeFirstOrThrow())
      .stock_quantity;
  const mailsTo = (to: string, subject: RegExp) =>
    t.db
      .selectFrom("mail_queue")
      .select(["subject", "text_body"])
      .where("to_address", "=", to)
      .execute()
      .then((rows) => rows.filter((r) => subject.test(r.subject)));

  /** Staff price every line at `percent` of list, valid for `days`. */
  async function price(number: string, percent = 80, days = 14) {
    const quote = (await loadQuote(t.db, number))!;
    const form: Record<string, string> = {
      version: String(quote.version),
      validUntil: inDays(days),
      note: "Thanks for asking",
    };
    for (const l of quote.lines)
      form[`price-${l.id}`] = (Math.floor((l.listPriceCents * percent) / 100) / 100).toFixed(2);
    await sendQuote(t.db, STAFF, number, form, { siteUrl: SITE });
    return (await loadQuote(t.db, number))!;
  }
  const accept = (who: { userId: string; owner: string }, number: string, paymentMethod = "pay-on-delivery") =>
    placeOrder(t.db, {
      owner: who.owner,
      userId: who.userId,
      quoteNumber: number,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, paymentMethod, checkoutToken: token() }),
      siteUrl: SITE,
    });

  it("a small cart may not ask unless its buyer is a trade account; a large one may; the request copies the cart, mails staff and the buyer, and keeps the cart", async () => {
    const small = await member();
    await expect(ask(small)).rejects.toMatchObject({ code: "EMPTY_CART", status: 409 });
    await cartOf(small.owner, [[1, 2]]);
    await expect(ask(small)).rejects.toMatchObject({
      code: "QUOTE_NOT_OFFERED",
      status: 409,
      message: expect.stringContaining(`${QUOTE_MIN_UNITS} units`),
    });

    const trade = await member();
    await insertMember(t.db, await insertCompany(t.db), "buyer", trade.userId);
    await cartOf(trade.owner, [[1, 2]]);
    expect(await ask(trade)).toMatch(/^QT-[0-9A-F]{8}$/);

    const big = await member();
    await cartOf(big.owner, [
      [2, QUOTE_MIN_UNITS - 10],
      [3, 10],
    ]);
    const number = await ask(big, "Site delivery on Fridays please");
    const quote = (await quoteForCustomer(t.db, big.userId, number))!;
    expect(quote).toMatchObject({
      state: "requested",
      message: "Site delivery on Fridays please",
      quotedTotalCents: null,
    });
    expect(quote.lines.map((l) => [l.productId, l.quantity, l.quotedUnitCents])).toEqual([
      [2, QUOTE_MIN_UNITS - 10, null],
      [3, 10, null],
    ]);
    expect(quote.lines[0].listPriceCents).toBe(await listPrice(2));
    expect(await mailsTo(INBOX, new RegExp(`^Quote request ${number}$`))).toHaveLength(1);
    expect(await mailsTo(big.email, new RegExp(`^Your quote request ${number}$`))).toHaveLength(1);
    expect(
      await t.db.selectFrom("cart_items").select("quantity").where("owner", "=", big.owner).execute(),
    ).toHaveLength(2);
    expect((await listQuotesForStaff(t.db, "requested")).map((q) => q.number)).toContain(number);
  });

  it("refuses a message too long or with control characters, and more than the open requests allowed", async () => {
    const who = await member();
    await cartOf(who.owner, [[1, QUOTE_MIN_UNITS]]);
    await expect(ask(who, "x".repeat(1001))).rejects.toMatchObject({ code: "QUOTE_MESSAGE", status: 400 });
    await expect(ask(who, "bad\u0000byte")).rejects.toMatchObject({ code: "QUOTE_MESSAGE", status: 400 });
    for (let i = 0; i < QUOTE_MAX_OPEN_REQUESTS; i++) await ask(who);
    await expect(ask(who)).rejects.toMatchObject({ code: "TOO_MANY_QUOTES", status: 429 });
  });

  it("staff pricing names each bad field, refuses a stale form, and sends the quote with an audit row and a mail", async () => {
    const who = await member();
    await cartOf(who.owner, [
      [2, 30],
      [3, 30],
    ]);
    const number = await ask(who);
    const quote = (await loadQuote(t.db, number))!;
    const [a, b] = quote.lines;
    const bad = {
      version: String(quote.version),
      validUntil: "2001-01-01",
      [`price-${a.id}`]: "0",
      [`price-${b.id}`]: ((b.listPriceCents + 100) / 100).toFixed(2),
      note: "ok",
    };
    const refused = await sendQuote(t.db, STAFF, number, bad, { siteUrl: SITE }).catch(
      (e: unknown) => e as { code: string; fields: Record<string, string> },
    );
    expect(refused).toMatchObject({ code: "QUOTE_INPUT" });
    expect(Object.keys((refused as { fields: Record<string, string> }).fields).sort()).toEqual(
      [`price-${a.id}`, `price-${b.id}`, "validUntil"].sort(),
    );
    await expect(
      sendQuote(t.db, STAFF, number, { ...bad, validUntil: inDays(200) }, { siteUrl: SITE }),
    ).rejects.toMatchObject({ fields: expect.objectContaining({ validUntil: "A quote holds for at most 90 days." }) });
    await expect(sendQuote(t.db, STAFF, number, { ...bad, version: "7" }, { siteUrl: SITE })).rejects.toMatchObject({
      code: "STALE_QUOTE",
      status: 409,
    });
    expect((await loadQuote(t.db, number))!.state).toBe("requested");

    const priced = await price(number, 80);
    expect(priced.state).toBe("quoted");
    expect(priced.lines.map((l) => l.quotedUnitCents)).toEqual(
      priced.lines.map((l) => Math.floor((l.listPriceCents * 80) / 100)),
    );
    expect(await t.db.selectFrom("audit_log").select("action").where("object_id", "=", number).execute()).toEqual([
      { action: "quote.send" },
    ]);
    const [mail] = await mailsTo(who.email, new RegExp(`^Your quote ${number} is ready$`));
    expect(mail.text_body).toContain("Thanks for asking");
    // A form made before that send is stale now.
    await expect(
      sendQuote(t.db, STAFF, number, { ...bad, version: String(quote.version) }, { siteUrl: SITE }),
    ).rejects.toMatchObject({ code: "STALE_QUOTE" });
    await expect(sendQuote(t.db, STAFF, "QT-00000000", {}, { siteUrl: SITE })).rejects.toMatchObject({ status: 404 });
  });

  it("accepting makes one order at the quoted prices (no member discount on top), takes the stock, leaves the cart, and can't be done twice", async () => {
    const who = await member();
    await cartOf(who.owner, [
      [4, 40],
      [5, 20],
    ]);
    const number = await ask(who);
    const quote = await price(number, 70);
    const stock = [await stockOf(4), await stockOf(5)];
    const results = await Promise.allSettled([accept(who, number), accept(who, number)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      status: 409,
    });
    const placed = (results.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<{ number: string }>).value;
    const order = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("number", "=", placed.number)
      .executeTakeFirstOrThrow();
    const lines = await t.db
      .selectFrom("order_lines")
      .select(["product_id", "quantity", "unit_price_cents"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(lines).toEqual(
      quote.lines.map((l) => ({ product_id: l.productId, quantity: l.quantity, unit_price_cents: l.quotedUnitCents })),
    );
    expect({ status: order.status, discount: order.member_discount_cents, subtotal: order.subtotal_cents }).toEqual({
      status: "placed",
      discount: 0,
      subtotal: quote.quotedTotalCents,
    });
    expect([await stockOf(4), await stockOf(5)]).toEqual([stock[0] - 40, stock[1] - 20]);
    expect(
      await t.db.selectFrom("cart_items").select("quantity").where("owner", "=", who.owner).execute(),
    ).toHaveLength(2);
    const after = (await loadQuote(t.db, number))!;
    expect({ state: after.state, order: after.orderNumber }).toEqual({ state: "accepted", order: placed.number });
    await expect(accept(who, number)).rejects.toMatchObject({ code: "QUOTE_NOT_OPEN" });
    await expect(declineQuote(t.db, who.userId, number)).rejects.toMatchObject({ code: "QUOTE_NOT_OPEN" });
  });

  it("refuses an expired quote, card payment, someone else's quote, a junk number, and too little stock; a declined quote can't be accepted", async () => {
    const who = await member();
    await cartOf(who.owner, [[6, QUOTE_MIN_UNITS]]);
    const number = await ask(who);
    await price(number, 90);
    await expect(accept(who, number, "card")).rejects.toMatchObject({ code: "QUOTE_NOT_BY_CARD", status: 409 });
    const stranger = await member();
    await expect(accept(stranger, number)).rejects.toMatchObject({ code: "QUOTE_NOT_FOUND", status: 404 });
    await expect(accept(who, "QT-\u0000")).rejects.toMatchObject({ status: 404 });
    expect(await quoteForCustomer(t.db, stranger.userId, number)).toBeNull();

    await t.db.updateTable("products").set({ stock_quantity: 10 }).where("id", "=", 6).execute();
    await expect(accept(who, number)).rejects.toMatchObject({ code: "OUT_OF_STOCK" });
    expect((await loadQuote(t.db, number))!.state).toBe("quoted");
    await t.db.updateTable("products").set({ stock_quantity: 1_000 }).where("id", "=", 6).execute();

    await t.db
      .updateTable("quotes")
      .set({ valid_until: new Date(Date.now() - 60_000).toISOString() })
      .where("number", "=", number)
      .execute();
    await expect(accept(who, number)).rejects.toMatchObject({ code: "QUOTE_EXPIRED", status: 409 });
    expect((await listQuotesForCustomer(t.db, who.userId)).find((q) => q.number === number)!.state).toBe("expired");

    const second = await ask(who);
    await price(second, 90);
    expect(await declineQuote(t.db, who.userId, second)).toBe(`Quote ${second} is declined.`);
    await expect(accept(who, second)).rejects.toMatchObject({ code: "QUOTE_NOT_OPEN" });
    await expect(declineQuote(t.db, stranger.userId, second)).rejects.toMatchObject({ status: 404 });
  });
});
