/**
 * Shopping in a market (issue 51, decision 0052) on both databases: which market a shopper is in
 * (cookie, account, trade buyer), the picker's post and its bad input, the UK market's prices on
 * every catalog read and in the cart, and the order it places: in pounds, £9.99 delivery, a
 * member's 5% from £100; a trade buyer's order stays in dollars; a cart can't be delivered out of
 * its market; quotes are the US market's; the account's market is in its data and goes with it.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { createAuth, useAuthForTests, type Auth } from "../../server/auth/auth.ts";
import { addToCart, getCart } from "../../server/cart/cart.ts";
import { getProductDetail } from "../../server/catalog/catalog.ts";
import { searchProducts } from "../../server/catalog/search.ts";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import { loadConfig } from "../../server/config.ts";
import { ConflictError } from "../../server/errors.ts";
import { submitCheckout, type CheckoutDeps } from "../../server/orders/checkout.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { eraseAccount } from "../../server/privacy/erase.ts";
import { exportAccountData } from "../../server/privacy/export.ts";
import { quoteOffer, requestQuote } from "../../server/quotes/quotes.ts";
import { createRateLimiter } from "../../server/security/rate-limit.ts";
import { shopperMarket } from "../../server/shopper/market.ts";
import {
  changeMarket,
  MARKET_CHOICE_PROBLEM,
  repricedNotice,
  returnPath,
  TRADE_MARKET_MESSAGE,
} from "../../server/shopper/market-action.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";
import { signUpAndIn } from "./sign-in-support.ts";

const SITE = "http://127.0.0.1:3997";
const cfg = loadConfig({ SITE_URL: SITE, NODE_ENV: "test", AUTH_SECRET: "integration-secret-0123456789abcdef0123" });
const PRODUCT = 3;
const token = () => randomBytes(18).toString("base64url");
const guest = () => `g:${randomBytes(18).toString("base64url")}`;
const ukCheckout = (email: string) =>
  checkoutSchema.parse({
    ...validCheckoutForm,
    email,
    country: "GB",
    city: "London",
    region: "",
    postcode: "SW1A 1AA",
    checkoutToken: token(),
  });

describe.each(dialects)("shopping in a market (%s)", (kind) => {
  let t: TestDb;
  let auth: Auth;

  const member = (name: string) => signUpAndIn(auth, name);
  const request = (cookie = "", path = "/shop") => new Request(`${SITE}${path}`, { headers: cookie ? { cookie } : {} });
  function picker(fields: Record<string, string>, cookie = "") {
    return new Request(`${SITE}/market`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    });
  }
  const limiter = () =>
    createRateLimiter({ name: `market-${kind}-${randomBytes(3).toString("hex")}`, windowSeconds: 60, max: 50 });

  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
    auth = createAuth(t.db, cfg);
    useAuthForTests(auth);
    // $100.00 in the US market, £79.99 in the UK market (set by staff).
    await t.db
      .updateTable("products")
      .set({
        price_cents: 10_000,
        sale_price_cents: 10_000,
        uk_price_pence: 7_999,
        uk_sale_price_pence: 7_999,
        uk_price_set: 1,
        discount_percent: null,
        stock_quantity: 500,
      })
      .where("id", "=", PRODUCT)
      .execute();
  });
  afterAll(async () => {
    useAuthForTests(undefined);
    await t?.drop();
  });

  it("the shopper's market: this device's cookie, else the account's, else the US market unchosen; a trade buyer's is the US market", async () => {
    expect(await shopperMarket(t.db, request())).toEqual({ market: "us", chosen: false, trade: false });
    expect(await shopperMarket(t.db, request("market=uk"))).toEqual({ market: "uk", chosen: true, trade: false });
    expect(await shopperMarket(t.db, request("market=fr"))).toEqual({ market: "us", chosen: false, trade: false });

    const ada = await member("Ada");
    const chose = await changeMarket(t.db, picker({ market: "uk", returnTo: "/" }, ada.cookie), limiter());
    expect(chose.ok).toBe(true);
    // Another device (no market cookie) starts in the account's market; this device's own choice outranks it.
    expect(await shopperMarket(t.db, request(ada.cookie))).toEqual({ market: "uk", chosen: true, trade: false });
    expect((await shopperMarket(t.db, request(`${ada.cookie}; market=us`))).market).toBe("us");

    const buyer = await member("Toni");
    await insertMember(t.db, await insertCompany(t.db, { country: "GB" }), "buyer", buyer.id);
    expect(await shopperMarket(t.db, request(`${buyer.cookie}; market=uk`))).toEqual({
      market: "us",
      chosen: true,
      trade: true,
    });
    // A trade buyer's market is not theirs to change: refused, nothing saved.
    expect(await changeMarket(t.db, picker({ market: "uk", returnTo: "/" }, buyer.cookie), limiter())).toEqual({
      status: 409,
      ok: false,
      message: TRADE_MARKET_MESSAGE,
    });
    expect(await t.db.selectFrom("shopper_markets").selectAll().where("owner", "=", `u:${buyer.id}`).execute()).toEqual(
      [],
    );
  });

  it("the picker remembers the choice and goes back to the page without its market parameter; a cart that changed market is repriced and told so once", async () => {
    const bea = await member("Bea");
    await addToCart(t.db, `u:${bea.id}`, { productId: PRODUCT, quantity: 2 }, "us");
    const result = await changeMarket(
      t.db,
      picker({ market: "uk", returnTo: `/shop/${PRODUCT}?market=us&color=Red` }, bea.cookie),
      limiter(),
    );
    expect(result).toMatchObject({
      ok: true,
      status: 200,
      location: `/shop/${PRODUCT}?color=Red`,
    });
    if (!result.ok) throw new Error("refused");
    expect(result.cookies[0]).toMatch(/^market=uk; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly$/);
    expect(result.cookies[1]).toMatch(/^market_repriced=us; Path=\/; Max-Age=600;/);
    const saved = await t.db.selectFrom("shopper_markets").selectAll().where("owner", "=", `u:${bea.id}`).execute();
    expect(saved).toMatchObject([{ market: "uk" }]);
    // Repriced in pounds, and the new prices count as seen: no "price changed" on the lines.
    const cart = await getCart(t.db, `u:${bea.id}`, "uk");
    expect(cart.lines).toMatchObject([{ unitPriceCents: 7_999, notice: null }]);
    expect(cart.totalCents).toBe(15_998);
    expect(repricedNotice(request("market_repriced=us; market=uk"), "uk")).toMatchObject({
      message: "Your cart was repriced in pounds sterling (GBP) when you changed market to the United Kingdom.",
      clear: expect.stringMatching(/^market_repriced=; Path=\/; Max-Age=0;/),
    });
    expect(repricedNotice(request("market_repriced=uk"), "uk")).toBeNull();
    expect(repricedNotice(request(""), "uk")).toBeNull();
    // An empty cart (or none) is not repriced.
    const again = await changeMarket(t.db, picker({ market: "us", returnTo: "/" }), limiter());
    expect(again).toMatchObject({ ok: true });
    if (again.ok) expect(again.cookies).toHaveLength(1);
  });

  it("bad input to the picker: an unknown or missing market is a 400 with the message; a return path off the store goes home; a flood is a 429", async () => {
    for (const market of ["fr", "", "UK", "uk\u0000"])
      expect(await changeMarket(t.db, picker({ market, returnTo: "/" }), limiter())).toEqual({
        status: 400,
        ok: false,
        message: MARKET_CHOICE_PROBLEM,
      });
    expect(await changeMarket(t.db, picker({ returnTo: "/" }), limiter())).toMatchObject({ status: 400 });
    for (const away of [
      "//evil.example/x",
      "https://evil.example/",
      "/\\evil.example",
      "/.//evil.example",
      "/%2e//evil.example",
      "/a/..//evil.example",
      "shop",
      "/\u0007",
      "",
    ])
      expect(returnPath(away)).toBe("/");
    expect(returnPath("/cart?market=uk")).toBe("/cart");
    const small = createRateLimiter({ name: `market-flood-${kind}`, windowSeconds: 60, max: 2 });
    for (let i = 0; i < 2; i++)
      expect((await changeMarket(t.db, picker({ market: "uk", returnTo: "/" }), small)).ok).toBe(true);
    expect(await changeMarket(t.db, picker({ market: "uk", returnTo: "/" }), small)).toMatchObject({
      status: 429,
      ok: false,
    });
    // Nothing was written for a refused choice.
    expect(
      await t.db.selectFrom("shopper_markets").selectAll().where("market", "not in", ["uk", "us"]).execute(),
    ).toEqual([]);
  });

  it("every catalog read in the UK market is in pence: the product page, the grid, search with its price filter and sort, suggestions, the cart", async () => {
    expect((await getProductDetail(t.db, PRODUCT, "uk"))!.salePriceCents).toBe(7_999);
    expect((await getProductDetail(t.db, PRODUCT, "us"))!.salePriceCents).toBe(10_000);
    const inPounds = await searchProducts(t.db, { market: "uk", minCents: 7_999, maxCents: 7_999 });
    expect(inPounds.items.map((i) => i.id)).toContain(PRODUCT);
    expect(inPounds.items.every((i) => i.salePriceCents === 7_999)).toBe(true);
    expect(inPounds.total).toBe(inPounds.items.length);
    const inDollars = await searchProducts(t.db, { market: "us", minCents: 7_999, maxCents: 7_999 });
    expect(inDollars.items.map((i) => i.id)).not.toContain(PRODUCT);
    const byPrice = await searchProducts(t.db, { market: "uk", sort: "price-asc", perPage: 12 });
    const prices = byPrice.items.map((i) => i.salePriceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const ukPrices = await t.db.selectFrom("products").select(["id", "uk_sale_price_pence"]).execute();
    const pence = new Map(ukPrices.map((r) => [Number(r.id), Number(r.uk_sale_price_pence)]));
    for (const item of byPrice.items) expect(item.salePriceCents).toBe(pence.get(item.id));
    const title = (await getProductDetail(t.db, PRODUCT, "uk"))!.title;
    const word = title.split(/\s+/).find((w) => /^[A-Za-z]{5,}$/.test(w))!;
    const found = await searchProducts(t.db, { q: word, market: "uk", minCents: 7_999, maxCents: 7_999 });
    expect(found.items.map((i) => i.id)).toContain(PRODUCT);
    const suggestion = (await suggestSearch(t.db, word, undefined, "uk")).options.find(
      (o) => o.href === `/shop/${PRODUCT}`,
    );
    if (suggestion && "salePriceCents" in suggestion) expect(suggestion.salePriceCents).toBe(7_999);
    const owner = guest();
    await addToCart(t.db, owner, { productId: PRODUCT, quantity: 1 }, "uk");
    expect((await getCart(t.db, owner, "uk")).totalCents).toBe(7_999);
    // Read in the other market (a sign-in that brought the account's market): no "price changed",
    // as the price was seen in pounds.
    const cartInDollars = await getCart(t.db, owner, "us");
    expect(cartInDollars.totalCents).toBe(10_000);
    expect(cartInDollars.lines[0].notice).toBeNull();
  });

  it("a shopper's UK order is in pounds at UK prices with £9.99 delivery, a member's 5% from £100; a trade buyer's UK delivery stays in dollars", async () => {
    const userId = `user-${randomBytes(5).toString("hex")}`;
    await addToCart(t.db, `u:${userId}`, { productId: PRODUCT, quantity: 2 }, "uk");
    const placed = await placeOrder(t.db, {
      owner: `u:${userId}`,
      userId,
      checkout: ukCheckout("uk.member@example.com"),
      siteUrl: SITE,
    });
    const order = await t.db
      .selectFrom("orders")
      .selectAll()
      .where("number", "=", placed.number)
      .executeTakeFirstOrThrow();
    // £159.98 is over £100: 5% off (£8.00), then £9.99 delivery.
    expect(order).toMatchObject({
      currency: "gbp",
      subtotal_cents: 15_998,
      member_discount_cents: 800,
      shipping_cents: 999,
      total_cents: 15_998 - 800 + 999,
    });

    const buyer = `user-${randomBytes(5).toString("hex")}`;
    await insertMember(t.db, await insertCompany(t.db, { country: "GB" }), "buyer", buyer);
    await addToCart(t.db, `u:${buyer}`, { productId: PRODUCT, quantity: 1 }, "us");
    const trade = await placeOrder(t.db, {
      owner: `u:${buyer}`,
      userId: buyer,
      checkout: ukCheckout("uk.trade@example.com"),
      siteUrl: SITE,
    });
    expect(
      await t.db
        .selectFrom("orders")
        .select(["currency", "subtotal_cents", "shipping_cents"])
        .where("number", "=", trade.number)
        .executeTakeFirstOrThrow(),
    ).toEqual({ currency: "usd", subtotal_cents: 10_000, shipping_cents: 999 });
  });

  it("a US-market cart can't be sent to a UK address (409, nothing written); a trade buyer's can", async () => {
    const deps: CheckoutDeps = {
      siteUrl: SITE,
      holdMinutes: 60,
      ipLimiter: createRateLimiter({ name: `mk-ip-${kind}`, windowSeconds: 60, max: 100 }),
      emailLimiter: createRateLimiter({ name: `mk-email-${kind}`, windowSeconds: 60, max: 100 }),
      payments: null,
    };
    const owner = guest();
    await addToCart(t.db, owner, { productId: PRODUCT, quantity: 1 }, "us");
    const form = new FormData();
    const email = `mismatch.${randomBytes(3).toString("hex")}@example.com`;
    for (const [k, v] of Object.entries({
      ...validCheckoutForm,
      email,
      country: "GB",
      region: "",
      postcode: "SW1A 1AA",
      checkoutToken: token(),
    }))
      form.set(k, v);
    const refused = await submitCheckout(
      t.db,
      form,
      { ip: "203.0.113.7" },
      { owner, userId: null, email: null, market: "us", trade: false },
      deps,
    );
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      data: {
        errors: {
          country:
            "Your cart is priced in US dollars (USD) for the United States. To deliver to the United Kingdom, change market at the top of the page: your cart will be repriced in pounds sterling (GBP).",
        },
      },
    });
    expect(await t.db.selectFrom("orders").select("id").where("email", "=", email).execute()).toEqual([]);
    const placed = await submitCheckout(
      t.db,
      form,
      { ip: "203.0.113.7" },
      { owner, userId: null, email: null, market: "uk", trade: false },
      deps,
    );
    expect(placed.ok).toBe(true);
  });

  it("quotes are the US market's: a UK-market cart is not offered one and its request is refused", async () => {
    const userId = `user-${randomBytes(5).toString("hex")}`;
    await insertMember(t.db, await insertCompany(t.db), "buyer", userId);
    await addToCart(t.db, `u:${userId}`, { productId: PRODUCT, quantity: 60 }, "us");
    const cart = await getCart(t.db, `u:${userId}`, "us");
    expect((await quoteOffer(t.db, userId, cart, "us")).allowed).toBe(true);
    expect((await quoteOffer(t.db, userId, cart, "uk")).allowed).toBe(false);
    const refusal = await requestQuote(
      t.db,
      { userId, email: "q@example.com", owner: `u:${userId}`, market: "uk" },
      { siteUrl: SITE, storeInbox: "inbox@example.com" },
    ).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect((refusal as Error).message).toBe(
      "Quotes are made in US dollars: change market to the United States to ask for one.",
    );
  });

  it("the account's chosen market is in its data export and goes when the account is deleted", async () => {
    const cy = await member("Cy");
    await changeMarket(t.db, picker({ market: "uk", returnTo: "/" }, cy.cookie), limiter());
    const data = await exportAccountData(t.db, cy.id, { now: new Date() });
    expect(data.market).toMatchObject({ chosen: "uk" });
    await eraseAccount(t.db, cy.id, { now: new Date() });
    expect(await t.db.selectFrom("shopper_markets").selectAll().where("owner", "=", `u:${cy.id}`).execute()).toEqual(
      [],
    );
  });
});
