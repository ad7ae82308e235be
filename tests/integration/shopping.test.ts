import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema, type CheckoutInput } from "../../app/lib/checkout-schema.ts";
import { MAX_LINE_QUANTITY, UK_FLAT_SHIPPING_CENTS } from "../../app/lib/order-rules.ts";
import { applyCartAction } from "../../server/cart/actions.ts";
import {
  acknowledgePrices,
  addToCart,
  cartCount,
  getCart,
  mergeCarts,
  removeFromCart,
  setCartQuantity,
} from "../../server/cart/cart.ts";
import { DomainError } from "../../server/errors.ts";
import { checkoutPreview } from "../../server/orders/checkout.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { getOrderByAccessToken, getOrderForUser, listOrdersForUser } from "../../server/orders/queries.ts";
import { applyWishlistAction } from "../../server/wishlist/actions.ts";
import {
  addToWishlist,
  getWishlist,
  mergeWishlists,
  toggleWishlist,
  wishlistProductIds,
} from "../../server/wishlist/wishlist.ts";
import { domainError } from "./admin-orders-support.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { net30Buyer } from "./trade-support.ts";

const SITE = "https://shop.example";
const guest = () => `g:${randomBytes(18).toString("base64url")}`;
const userId = () => `user-${randomBytes(6).toString("hex")}`;
const token = () => randomBytes(18).toString("base64url");

function checkout(overrides: Partial<Record<string, string>> = {}): CheckoutInput {
  return checkoutSchema.parse({
    ...validCheckoutForm,
    email: `buyer.${randomBytes(4).toString("hex")}@example.com`,
    checkoutToken: token(),
    ...overrides,
  });
}

function form(fields: Record<string, string | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.set(k, v);
  return f;
}

describe.each(dialects)("shopping on %s", (kind) => {
  let t: TestDb;
  let nextProduct = 1;
  /** A product no other test touches, with the given stock and (optionally) price. */
  async function freshProduct(options: { stock: number; priceCents?: number }) {
    const id = nextProduct++;
    if (id > 50) throw new Error("out of seeded products");
    const set: Record<string, number | null> = { stock_quantity: options.stock };
    if (options.priceCents != null)
      // The same figure in both markets' minor units (cents and pence).
      Object.assign(set, {
        price_cents: options.priceCents,
        sale_price_cents: options.priceCents,
        uk_price_pence: options.priceCents,
        uk_sale_price_pence: options.priceCents,
        discount_percent: null,
      });
    await t.db.updateTable("products").set(set).where("id", "=", id).execute();
    const p = await t.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    return { ...p, colorList: JSON.parse(p.colors) as string[] };
  }
  const stockOf = async (id: number) =>
    (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", id).executeTakeFirstOrThrow())
      .stock_quantity;
  const setPrice = (id: number, cents: number) =>
    t.db
      .updateTable("products")
      .set({
        price_cents: cents,
        sale_price_cents: cents,
        uk_price_pence: cents,
        uk_sale_price_pence: cents,
        discount_percent: null,
      })
      .where("id", "=", id)
      .execute();
  const cartRows = (owner: string) =>
    t.db.selectFrom("cart_items").selectAll().where("owner", "=", owner).orderBy("product_id").execute();
  /** The stored order row, with what the order pages leave out (tokens, account, payment bookkeeping). */
  const orderRecord = (number: string) =>
    t.db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
  const lineProductIds = async (number: string) =>
    (
      await t.db
        .selectFrom("order_lines")
        .innerJoin("orders", "orders.id", "order_lines.order_id")
        .select("order_lines.product_id")
        .where("orders.number", "=", number)
        .orderBy("order_lines.id")
        .execute()
    ).map((l) => l.product_id);
  async function count(table: "orders" | "order_lines" | "mail_queue" | "cart_items" | "wishlist_items") {
    const row = await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  beforeAll(async () => {
    t = await freshSeededDb(kind, 50);
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe("cart", () => {
    it("addToCart caps the line at the stock and says so", async () => {
      const p = await freshProduct({ stock: 3 });
      const owner = guest();
      expect(await addToCart(t.db, owner, { productId: p.id, quantity: 2 })).toMatchObject({
        quantity: 2,
        capped: false,
        stock: 3,
      });
      expect(await addToCart(t.db, owner, { productId: p.id, quantity: 5 })).toMatchObject({
        quantity: 3,
        capped: true,
        stock: 3,
      });
      const rows = await cartRows(owner);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        product_id: p.id,
        quantity: 3,
        color: p.colorList[0],
        seen_price_cents: p.sale_price_cents,
      });
      expect(await cartCount(t.db, owner)).toBe(3);
    });

    it("addToCart keeps colors apart and refuses an unknown color or an out-of-stock product", async () => {
      const p = await freshProduct({ stock: 10 });
      const owner = guest();
      const [first, second = first] = p.colorList;
      await addToCart(t.db, owner, { productId: p.id, quantity: 1, color: first });
      await addToCart(t.db, owner, { productId: p.id, quantity: 2, color: second });
      expect((await cartRows(owner)).map((r) => [r.color, r.quantity]).sort()).toEqual(
        first === second
          ? [[first, 3]]
          : [
              [first, 1],
              [second, 2],
            ].sort(),
      );
      await domainError(
        addToCart(t.db, owner, { productId: p.id, quantity: 1, color: "Invisible Ultraviolet" }),
        "UNKNOWN_COLOR",
        400,
      );
      const gone = await freshProduct({ stock: 0 });
      await domainError(addToCart(t.db, owner, { productId: gone.id, quantity: 1 }), "OUT_OF_STOCK", 409);
      await domainError(addToCart(t.db, owner, { productId: 987_654, quantity: 1 }), "UNKNOWN_PRODUCT", 404);
      expect(await cartRows(owner)).toHaveLength(first === second ? 1 : 2);
    });

    it("setCartQuantity sets within the stock and refuses more than the stock", async () => {
      const p = await freshProduct({ stock: 4 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      const color = p.colorList[0];
      await setCartQuantity(t.db, owner, { productId: p.id, color, quantity: 4 });
      expect((await cartRows(owner))[0].quantity).toBe(4);
      await domainError(setCartQuantity(t.db, owner, { productId: p.id, color, quantity: 5 }), "NOT_ENOUGH_STOCK", 409);
      expect((await cartRows(owner))[0].quantity).toBe(4);
      await setCartQuantity(t.db, owner, { productId: p.id, color, quantity: 2 });
      expect((await cartRows(owner))[0].quantity).toBe(2);
      await domainError(setCartQuantity(t.db, guest(), { productId: p.id, color, quantity: 1 }), "NOT_IN_CART", 404);
      await removeFromCart(t.db, owner, { productId: p.id, color });
      expect(await cartRows(owner)).toEqual([]);
    });

    it("getCart prices from the database and flags a changed price, an out-of-stock line and a line above the stock", async () => {
      const cheaper = await freshProduct({ stock: 10, priceCents: 2_500 });
      const soldOut = await freshProduct({ stock: 10, priceCents: 1_000 });
      const scarce = await freshProduct({ stock: 10, priceCents: 700 });
      const steady = await freshProduct({ stock: 10, priceCents: 300 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: cheaper.id, quantity: 2 });
      await addToCart(t.db, owner, { productId: soldOut.id, quantity: 1 });
      await addToCart(t.db, owner, { productId: scarce.id, quantity: 5 });
      await addToCart(t.db, owner, { productId: steady.id, quantity: 3 });

      await setPrice(cheaper.id, 1_999);
      await t.db.updateTable("products").set({ stock_quantity: 0 }).where("id", "=", soldOut.id).execute();
      await t.db.updateTable("products").set({ stock_quantity: 2 }).where("id", "=", scarce.id).execute();

      const cart = await getCart(t.db, owner);
      const line = (id: number) => cart.lines.find((l) => l.productId === id)!;
      expect(line(cheaper.id)).toMatchObject({ unitPriceCents: 1_999, seenPriceCents: 2_500, lineTotalCents: 3_998 });
      expect(line(cheaper.id).notice).toBe("Price changed from $25.00 to $19.99 since you added it.");
      expect(line(soldOut.id).notice).toMatch(/out of stock/i);
      expect(line(soldOut.id).stockQuantity).toBe(0);
      expect(line(scarce.id).notice).toMatch(/Only 2 left in stock/);
      expect(line(steady.id).notice).toBeNull();
      expect(cart.totalQuantity).toBe(11);
      expect(cart.totalCents).toBe(3_998 + 1_000 + 5 * 700 + 3 * 300);

      await acknowledgePrices(t.db, owner);
      expect((await getCart(t.db, owner)).lines.find((l) => l.productId === cheaper.id)!.notice).toBeNull();
    });

    it("getCart of nobody is empty", async () => {
      expect(await getCart(t.db, "")).toEqual({ lines: [], totalQuantity: 0, totalCents: 0 });
      expect(await cartCount(t.db, "")).toBe(0);
    });

    it("mergeCarts sums quantities, caps them by stock, moves guest-only lines and empties the guest cart", async () => {
      const shared = await freshProduct({ stock: 10 });
      const tight = await freshProduct({ stock: 4 });
      const guestOnly = await freshProduct({ stock: 10 });
      const userOnly = await freshProduct({ stock: 10 });
      const from = guest();
      const to = `u:${userId()}`;
      await addToCart(t.db, from, { productId: shared.id, quantity: 2 });
      await addToCart(t.db, from, { productId: tight.id, quantity: 3 });
      await addToCart(t.db, from, { productId: guestOnly.id, quantity: 1 });
      await addToCart(t.db, to, { productId: shared.id, quantity: 1 });
      await addToCart(t.db, to, { productId: tight.id, quantity: 2 });
      await addToCart(t.db, to, { productId: userOnly.id, quantity: 5 });

      await mergeCarts(t.db, from, to);

      const rows = await cartRows(to);
      const qty = Object.fromEntries(rows.map((r) => [r.product_id, r.quantity]));
      expect(qty).toEqual({ [shared.id]: 3, [tight.id]: 4, [guestOnly.id]: 1, [userOnly.id]: 5 });
      expect(await cartRows(from)).toEqual([]);
      // Merging again (a second sign-in) changes nothing.
      await mergeCarts(t.db, from, to);
      expect(Object.fromEntries((await cartRows(to)).map((r) => [r.product_id, r.quantity]))).toEqual(qty);
      // Merging into itself or from nobody is a no-op.
      await mergeCarts(t.db, to, to);
      await mergeCarts(t.db, "", to);
      expect(await cartRows(to)).toHaveLength(4);
    });
    it("sequential adds from several requests all count", async () => {
      const p = await freshProduct({ stock: 100 });
      const owner = guest();
      for (let i = 0; i < 4; i++)
        await applyCartAction(t.db, owner, form({ intent: "add", productId: String(p.id), quantity: "1" }));
      expect((await cartRows(owner)).map((r) => r.quantity)).toEqual([4]);
    });

    it("concurrent adds of the same product all count, without errors", async () => {
      const p = await freshProduct({ stock: 100 });
      for (let round = 0; round < 5; round++) {
        const fresh = guest();
        const first = await Promise.allSettled(
          [1, 2].map(() => addToCart(t.db, fresh, { productId: p.id, quantity: 1 })),
        );
        expect(first.map((r) => (r.status === "fulfilled" ? "ok" : String(r.reason)))).toEqual(["ok", "ok"]);
        expect((await cartRows(fresh)).map((r) => r.quantity)).toEqual([2]);
        await Promise.all([1, 2, 3].map(() => addToCart(t.db, fresh, { productId: p.id, quantity: 1 })));
        expect((await cartRows(fresh)).map((r) => r.quantity)).toEqual([5]);
      }
    });

    it("a line may hold up to the stock available (within the line cap), and topping up past it says so", async () => {
      const p = await freshProduct({ stock: 80 });
      const owner = guest();
      await applyCartAction(t.db, owner, form({ intent: "add", productId: String(p.id), quantity: "60" }));
      expect((await cartRows(owner)).map((r) => r.quantity)).toEqual([60]);
      const topUp = await applyCartAction(
        t.db,
        owner,
        form({ intent: "add", productId: String(p.id), quantity: "30" }),
      );
      expect(topUp.message).toMatch(/your cart now has 80, all we have in stock/);
      expect((await cartRows(owner)).map((r) => r.quantity)).toEqual([80]);
      // With more in stock than one line may hold, the line stops at MAX_LINE_QUANTITY and says so.
      const plenty = await freshProduct({ stock: 1_500 });
      await applyCartAction(t.db, owner, form({ intent: "add", productId: String(plenty.id), quantity: "60" }));
      const capped = await applyCartAction(
        t.db,
        owner,
        form({ intent: "add", productId: String(plenty.id), quantity: "60" }),
      );
      expect(capped.message).toMatch(
        new RegExp(`your cart now has ${MAX_LINE_QUANTITY}, the most of one item a single order can take`),
      );
      expect((await cartRows(owner)).find((r) => r.product_id === plenty.id)?.quantity).toBe(MAX_LINE_QUANTITY);
    });
  });

  describe("wishlist", () => {
    it("toggles on and off, keeps one row per product and remembers the chosen color", async () => {
      const p = await freshProduct({ stock: 5 });
      const owner = guest();
      const color = p.colorList.at(-1)!;
      expect(await toggleWishlist(t.db, owner, p.id, color)).toBe(true);
      expect(await wishlistProductIds(t.db, owner)).toEqual([p.id]);
      const [line] = await getWishlist(t.db, owner);
      expect(line).toMatchObject({
        productId: p.id,
        title: p.title,
        color,
        stockQuantity: 5,
        unitPriceCents: p.price_cents,
        totalPriceCents: p.sale_price_cents,
      });
      await addToWishlist(t.db, owner, p.id, "No such color");
      expect(await getWishlist(t.db, owner)).toHaveLength(1);
      expect((await getWishlist(t.db, owner))[0].color).toBe(p.colorList[0]);
      expect(await toggleWishlist(t.db, owner, p.id)).toBe(false);
      expect(await getWishlist(t.db, owner)).toEqual([]);
      await domainError(addToWishlist(t.db, owner, 987_654), "UNKNOWN_PRODUCT", 404);
    });

    it("merges a guest's wishlist into the account's without duplicates", async () => {
      const a = await freshProduct({ stock: 5 });
      const b = await freshProduct({ stock: 5 });
      const c = await freshProduct({ stock: 5 });
      const from = guest();
      const to = `u:${userId()}`;
      await toggleWishlist(t.db, from, a.id);
      await toggleWishlist(t.db, from, b.id);
      await toggleWishlist(t.db, to, b.id);
      await toggleWishlist(t.db, to, c.id);
      await mergeWishlists(t.db, from, to);
      expect((await wishlistProductIds(t.db, to)).sort((x, y) => x - y)).toEqual(
        [a.id, b.id, c.id].sort((x, y) => x - y),
      );
      expect(await wishlistProductIds(t.db, from)).toEqual([]);
    });

    it("wishlist actions: move to the cart, remove, and refuse bad product ids or intents", async () => {
      const p = await freshProduct({ stock: 5 });
      const owner = guest();
      await applyWishlistAction(t.db, owner, form({ intent: "toggle", productId: String(p.id) }));
      const moved = await applyWishlistAction(
        t.db,
        owner,
        form({ intent: "to-cart", productId: String(p.id), color: p.colorList[0] }),
      );
      expect(moved.message).toContain(p.title);
      expect((await cartRows(owner)).map((r) => [r.product_id, r.quantity])).toEqual([[p.id, 1]]);
      await applyWishlistAction(t.db, owner, form({ intent: "remove", productId: String(p.id) }));
      expect(await getWishlist(t.db, owner)).toEqual([]);
      for (const productId of ["abc", "0", "-1", "1.5", undefined]) {
        await domainError(
          applyWishlistAction(t.db, owner, form({ intent: "toggle", productId })),
          "BAD_PRODUCT_ID",
          400,
        );
      }
      await domainError(
        applyWishlistAction(t.db, owner, form({ intent: "toggle", productId: "987654" })),
        "UNKNOWN_PRODUCT",
        404,
      );
      await domainError(
        applyWishlistAction(t.db, owner, form({ intent: "explode", productId: String(p.id) })),
        "BAD_INTENT",
        400,
      );
      expect(await getWishlist(t.db, owner)).toEqual([]);
    });
  });

  describe("bad input to the cart action (4xx with a message; nothing written)", () => {
    // Whole numbers above MAX_LINE_QUANTITY are not malformed: add clamps them, set refuses them (tests/integration/order-caps.test.ts).
    const badQuantities = [
      "-1",
      "0",
      "1.5",
      "2.0",
      "1e3",
      "1000000",
      "99999999999999999999",
      "abc",
      "NaN",
      "Infinity",
      " ",
      "0x10",
    ];

    it.each(badQuantities)("add with quantity %j is refused and writes nothing", async (quantity) => {
      const p = await t.db
        .selectFrom("products")
        .select("id")
        .where("stock_quantity", ">", 0)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      const owner = guest();
      const before = await count("cart_items");
      const error = await domainError(
        applyCartAction(t.db, owner, form({ intent: "add", productId: String(p.id), quantity })),
        "BAD_QUANTITY",
        400,
      );
      expect(error.message).toBe("Quantity must be a whole number of at least 1.");
      expect(await cartRows(owner)).toEqual([]);
      expect(await count("cart_items")).toBe(before);
    });

    it("set with a bad quantity leaves the line as it was", async () => {
      const p = await freshProduct({ stock: 50 });
      const owner = guest();
      await applyCartAction(t.db, owner, form({ intent: "add", productId: String(p.id), quantity: "2" }));
      for (const quantity of [...badQuantities, "", undefined]) {
        await domainError(
          applyCartAction(
            t.db,
            owner,
            form({ intent: "set", productId: String(p.id), color: p.colorList[0], quantity }),
          ),
          "BAD_QUANTITY",
          400,
        );
      }
      expect((await cartRows(owner)).map((r) => r.quantity)).toEqual([2]);
      // A quantity above the stock is a 409 with a message, and also writes nothing.
      await domainError(
        applyCartAction(
          t.db,
          owner,
          form({ intent: "set", productId: String(p.id), color: p.colorList[0], quantity: "51" }),
        ),
        "NOT_ENOUGH_STOCK",
        409,
      );
      expect((await cartRows(owner)).map((r) => r.quantity)).toEqual([2]);
    });

    it("a missing quantity on add means one", async () => {
      const p = await freshProduct({ stock: 5 });
      const owner = guest();
      await applyCartAction(t.db, owner, form({ productId: String(p.id) }));
      expect((await cartRows(owner)).map((r) => r.quantity)).toEqual([1]);
    });

    it.each([
      ["987654", "UNKNOWN_PRODUCT", 404],
      ["0", "BAD_PRODUCT_ID", 400],
      ["-5", "BAD_PRODUCT_ID", 400],
      ["1.5", "BAD_PRODUCT_ID", 400],
      ["abc", "BAD_PRODUCT_ID", 400],
      ["", "BAD_PRODUCT_ID", 400],
      [undefined, "BAD_PRODUCT_ID", 400],
    ] as const)("product id %j is refused with %s", async (productId, code, status) => {
      const owner = guest();
      const before = await count("cart_items");
      await domainError(applyCartAction(t.db, owner, form({ intent: "add", productId, quantity: "1" })), code, status);
      expect(await count("cart_items")).toBe(before);
    });

    it("an unknown intent is refused", async () => {
      const owner = guest();
      await domainError(
        applyCartAction(t.db, owner, form({ intent: "steal", productId: "1", quantity: "1" })),
        "BAD_INTENT",
        400,
      );
      expect(await cartRows(owner)).toEqual([]);
    });

    it("prices sent by the client are ignored: the cart and the order use the database's price", async () => {
      const p = await freshProduct({ stock: 20, priceCents: 4_321 });
      const owner = guest();
      await applyCartAction(
        t.db,
        owner,
        form({
          intent: "add",
          productId: String(p.id),
          quantity: "2",
          price: "0.01",
          priceCents: "1",
          unitPriceCents: "1",
          unit_price: "0",
          sale_price_cents: "1",
          seen_price_cents: "1",
          total: "0",
        }),
      );
      const [row] = await cartRows(owner);
      expect(row.seen_price_cents).toBe(4_321);
      const cart = await getCart(t.db, owner);
      expect(cart.lines[0]).toMatchObject({ unitPriceCents: 4_321, lineTotalCents: 8_642 });
      expect(cart.totalCents).toBe(8_642);
      const placed = await placeOrder(t.db, { owner, userId: null, checkout: checkout(), siteUrl: SITE });
      const order = await getOrderByAccessToken(t.db, placed.accessToken);
      expect(order?.lines.map((l) => [l.unit_price_cents, l.line_total_cents])).toEqual([[4_321, 8_642]]);
      expect(order?.total_cents).toBe(8_642);
    });
  });

  describe("placing an order", () => {
    it("reprices from the database, writes the order and its lines, takes the stock, empties the cart and queues the mail", async () => {
      const a = await freshProduct({ stock: 10, priceCents: 5_000 });
      const b = await freshProduct({ stock: 7, priceCents: 1_250 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: a.id, quantity: 2 });
      await addToCart(t.db, owner, { productId: b.id, quantity: 3, color: b.colorList.at(-1) });
      await setPrice(a.id, 5_500); // the price changes after the shopper added it
      const input = checkout({ country: "GB", postcode: "sw1a 1aa", city: "London", region: "" });
      const mailBefore = await count("mail_queue");

      const placed = await placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE });

      expect(placed.created).toBe(true);
      expect(placed.number).toMatch(/^TH-[0-9A-F]{10}$/);
      expect(placed.accessToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const order = await getOrderByAccessToken(t.db, placed.accessToken);
      expect(order).toMatchObject({
        number: placed.number,
        email: input.email,
        // A guest's order holds its stock until the guest confirms it from the mail (tests/integration/order-holds.test.ts).
        status: "awaiting_confirmation",
        payment_method: "pay-on-delivery",
        ship_country: "GB",
        ship_postcode: "SW1A 1AA",
        subtotal_cents: 2 * 5_500 + 3 * 1_250,
        member_discount_cents: 0,
        shipping_cents: UK_FLAT_SHIPPING_CENTS,
        tax_cents: 0,
        total_cents: 2 * 5_500 + 3 * 1_250 + UK_FLAT_SHIPPING_CENTS,
      });
      expect(await orderRecord(placed.number)).toMatchObject({
        currency: "gbp",
        user_id: null,
        payment_status: "due_on_delivery",
        checkout_token: input.checkoutToken,
        access_token: placed.accessToken,
      });
      expect(
        order!.lines.map((l) => ({
          color: l.color,
          quantity: l.quantity,
          unit: l.unit_price_cents,
          total: l.line_total_cents,
          title: l.title,
        })),
      ).toEqual([
        { color: a.colorList[0], quantity: 2, unit: 5_500, total: 11_000, title: a.title },
        { color: b.colorList.at(-1), quantity: 3, unit: 1_250, total: 3_750, title: b.title },
      ]);
      expect(await lineProductIds(placed.number)).toEqual([a.id, b.id]);
      expect(await stockOf(a.id)).toBe(8);
      expect(await stockOf(b.id)).toBe(4);
      expect(await cartRows(owner)).toEqual([]);

      expect(await count("mail_queue")).toBe(mailBefore + 1);
      const mail = await t.db
        .selectFrom("mail_queue")
        .selectAll()
        .where("to_address", "=", input.email)
        .executeTakeFirstOrThrow();
      expect(mail.status).toBe("queued");
      expect(mail.subject).toBe(`Confirm your ToolHub Wholesale order ${placed.number}`);
      expect(mail.text_body).toContain(`${SITE}/orders/${placed.accessToken}?confirm=`);
      expect(mail.text_body).toContain(a.title);
      // A shopper's UK delivery is a UK-market order: in pounds.
      expect(mail.text_body).toContain("£110.00");
      expect(mail.html_body).toContain(`${SITE}/orders/${placed.accessToken}`);
    });

    it("gives a signed-in member 5% over $120.00, links the mail to the account page, and only the owner can read the order", async () => {
      const p = await freshProduct({ stock: 10, priceCents: 12_001 });
      const uid = userId();
      const owner = `u:${uid}`;
      await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      const input = checkout();
      const placed = await placeOrder(t.db, { owner, userId: uid, checkout: input, siteUrl: SITE });
      const order = await getOrderForUser(t.db, placed.number, uid);
      expect(order).toMatchObject({
        subtotal_cents: 12_001,
        member_discount_cents: 600,
        shipping_cents: 0,
        total_cents: 11_401,
      });
      expect(await orderRecord(placed.number)).toMatchObject({ user_id: uid });
      expect(await getOrderForUser(t.db, placed.number, userId())).toBeNull();
      expect(await getOrderForUser(t.db, "TH-NOTANORDER", uid)).toBeNull();
      expect((await listOrdersForUser(t.db, uid)).map((o) => [o.number, o.status])).toEqual([
        [placed.number, "placed"],
      ]);
      expect(await listOrdersForUser(t.db, userId())).toEqual([]);
      expect(await getOrderByAccessToken(t.db, "x".repeat(32))).toBeNull();
      const mail = await t.db
        .selectFrom("mail_queue")
        .select("text_body")
        .where("to_address", "=", input.email)
        .executeTakeFirstOrThrow();
      expect(mail.text_body).toContain(`${SITE}/account/orders/${placed.number}`);
    });

    it("invoices on net 30 only a company with net-30 terms, recording its name and EIN; a guest or a plain member is refused", async () => {
      const p = await freshProduct({ stock: 10 });
      const member = userId();
      for (const [owner, who] of [
        [guest(), null],
        [`u:${member}`, member],
      ] as const) {
        await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
        const before = await count("orders");
        await domainError(
          placeOrder(t.db, {
            owner,
            userId: who,
            checkout: checkout({ paymentMethod: "invoice-net30" }),
            siteUrl: SITE,
          }),
          "NET30_NOT_OFFERED",
          409,
        );
        expect(await count("orders")).toBe(before);
      }
      const buyer = await net30Buyer(t.db, { name: "Acme Tools LLC", taxId: "12-3456789" });
      const owner = `u:${buyer.userId}`;
      await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      const placed = await placeOrder(t.db, {
        owner,
        userId: buyer.userId,
        checkout: checkout({ paymentMethod: "invoice-net30" }),
        siteUrl: SITE,
      });
      expect(await getOrderByAccessToken(t.db, placed.accessToken)).toMatchObject({
        payment_method: "invoice-net30",
        status: "placed",
      });
      expect(await orderRecord(placed.number)).toMatchObject({
        payment_status: "invoiced_net30",
        business_name: "Acme Tools LLC",
        tax_number: "12-3456789",
        organization_id: buyer.organizationId,
      });
    });

    it("refuses an empty cart", async () => {
      const before = await count("orders");
      await domainError(
        placeOrder(t.db, { owner: guest(), userId: null, checkout: checkout(), siteUrl: SITE }),
        "EMPTY_CART",
        409,
      );
      expect(await count("orders")).toBe(before);
    });

    it("checkoutPreview shows the US market's summary (a trade buyer's both countries') and a token the schema accepts", async () => {
      const p = await freshProduct({ stock: 10, priceCents: 6_001 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 2 });
      const member = await checkoutPreview(t.db, owner, true);
      expect(Object.keys(member.summaries)).toEqual(["US"]);
      expect(member.currency).toBe("usd");
      const trade = await checkoutPreview(t.db, owner, true, { market: "us", trade: true, quote: false });
      expect(trade.summaries.US).toMatchObject({
        subtotalCents: 12_002,
        memberDiscountCents: 600,
        shippingCents: 0,
        totalCents: 11_402,
      });
      expect(trade.summaries.GB).toMatchObject({
        shippingCents: UK_FLAT_SHIPPING_CENTS,
        totalCents: 11_402 + UK_FLAT_SHIPPING_CENTS,
      });
      expect((await checkoutPreview(t.db, owner, false)).summaries.US!.memberDiscountCents).toBe(0);
      expect(checkout({ checkoutToken: member.checkoutToken }).checkoutToken).toBe(member.checkoutToken);
      expect(member.checkoutToken).not.toBe((await checkoutPreview(t.db, owner, true)).checkoutToken);
    });

    it("a repeated place-order with the same checkout token returns the same order and creates exactly one", async () => {
      const p = await freshProduct({ stock: 10, priceCents: 2_000 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 2 });
      const input = checkout();
      const mailBefore = await count("mail_queue");
      const first = await placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE });
      // The shopper fills the cart again; a retry of the old checkout must not order it.
      await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      const again = await placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE });
      expect(first.created).toBe(true);
      expect(again).toEqual({ number: first.number, accessToken: first.accessToken, created: false });
      const orders = await t.db
        .selectFrom("orders")
        .select("id")
        .where("checkout_token", "=", input.checkoutToken)
        .execute();
      expect(orders).toHaveLength(1);
      expect(await stockOf(p.id)).toBe(8);
      expect((await cartRows(owner)).map((r) => r.quantity)).toEqual([1]);
      expect(await count("mail_queue")).toBe(mailBefore + 1);
    });

    it("a repeated card checkout that took the last units answers with its order, not with out of stock", async () => {
      const p = await freshProduct({ stock: 2 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 2 });
      const input = checkout({ paymentMethod: "card" });
      const first = await placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE });
      expect(await stockOf(p.id)).toBe(0);
      expect(await cartRows(owner)).toHaveLength(1);
      const again = await placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE });
      expect(again).toEqual({ number: first.number, accessToken: first.accessToken, created: false });
    });

    it("another signed-in shopper cannot reuse someone's checkout token", async () => {
      const p = await freshProduct({ stock: 10 });
      const uid = userId();
      await addToCart(t.db, `u:${uid}`, { productId: p.id, quantity: 1 });
      const input = checkout();
      await placeOrder(t.db, { owner: `u:${uid}`, userId: uid, checkout: input, siteUrl: SITE });
      const other = userId();
      await addToCart(t.db, `u:${other}`, { productId: p.id, quantity: 1 });
      await domainError(
        placeOrder(t.db, { owner: `u:${other}`, userId: other, checkout: input, siteUrl: SITE }),
        "CHECKOUT_TOKEN_USED",
        409,
      );
      expect(await cartRows(`u:${other}`)).toHaveLength(1);
    });

    it("two concurrent place-orders with the same token both answer with the one order", async () => {
      const p = await freshProduct({ stock: 10 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      const input = checkout();
      const results = await Promise.allSettled(
        [1, 2].map(() => placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE })),
      );
      const orders = await t.db
        .selectFrom("orders")
        .select("number")
        .where("checkout_token", "=", input.checkoutToken)
        .execute();
      expect(orders).toHaveLength(1);
      expect(await stockOf(p.id)).toBe(9);
      expect(
        results.map((r) => (r.status === "fulfilled" ? r.value.number : `rejected: ${(r.reason as Error).message}`)),
      ).toEqual([orders[0].number, orders[0].number]);
    });

    it("two concurrent place-orders with the same token write exactly one order", async () => {
      const p = await freshProduct({ stock: 10 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      const input = checkout();
      const results = await Promise.allSettled(
        [1, 2, 3].map(() => placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE })),
      );
      expect(results.filter((r) => r.status === "fulfilled" && r.value.created)).toHaveLength(1);
      for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(DomainError);
      expect(
        await t.db.selectFrom("orders").select("id").where("checkout_token", "=", input.checkoutToken).execute(),
      ).toHaveLength(1);
      expect(await stockOf(p.id)).toBe(9);
    });

    it("20 concurrent checkouts race for the last 5 units: exactly 5 succeed and the stock ends at 0", async () => {
      const p = await freshProduct({ stock: 100, priceCents: 999 });
      const owners = Array.from({ length: 20 }, guest);
      for (const owner of owners) await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      await t.db.updateTable("products").set({ stock_quantity: 5 }).where("id", "=", p.id).execute();
      const ordersBefore = await count("orders");
      const mailBefore = await count("mail_queue");

      // Watch the stock while the race runs: it must never go below zero.
      const seen: number[] = [];
      let racing = true;
      const watcher = (async () => {
        while (racing) {
          seen.push(await stockOf(p.id));
          await new Promise((r) => setTimeout(r, 1));
        }
      })();
      const results = await Promise.allSettled(
        owners.map((owner) => placeOrder(t.db, { owner, userId: null, checkout: checkout(), siteUrl: SITE })),
      );
      racing = false;
      await watcher;

      const won = results.filter(
        (r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof placeOrder>>> => r.status === "fulfilled",
      );
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).toHaveLength(5);
      expect(lost).toHaveLength(15);
      for (const r of lost) {
        expect(r.reason).toBeInstanceOf(DomainError);
        expect((r.reason as DomainError).code).toBe("OUT_OF_STOCK");
        expect((r.reason as DomainError).status).toBe(409);
        expect((r.reason as DomainError).message).toContain(p.title);
      }
      expect(new Set(won.map((r) => r.value.number)).size).toBe(5);
      expect(await stockOf(p.id)).toBe(0);
      expect(Math.min(...seen, 0)).toBeGreaterThanOrEqual(0);
      expect(seen.every((s) => s >= 0)).toBe(true);
      expect(await count("orders")).toBe(ordersBefore + 5);
      const sold = await t.db
        .selectFrom("order_lines")
        .select((eb) => eb.fn.sum<number>("quantity").as("n"))
        .where("product_id", "=", p.id)
        .executeTakeFirstOrThrow();
      expect(Number(sold.n)).toBe(5);
      expect(await count("mail_queue")).toBe(mailBefore + 5);
      // The winners' carts are empty; the losers keep theirs.
      const remaining = await t.db.selectFrom("cart_items").select("owner").where("owner", "in", owners).execute();
      expect(remaining).toHaveLength(15);
    });

    it("concurrent checkouts of 2 units each against a stock of 5: two succeed, one unit is left", async () => {
      const p = await freshProduct({ stock: 100 });
      const owners = Array.from({ length: 8 }, guest);
      for (const owner of owners) await addToCart(t.db, owner, { productId: p.id, quantity: 2 });
      await t.db.updateTable("products").set({ stock_quantity: 5 }).where("id", "=", p.id).execute();
      const results = await Promise.allSettled(
        owners.map((owner) => placeOrder(t.db, { owner, userId: null, checkout: checkout(), siteUrl: SITE })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
      expect(await stockOf(p.id)).toBe(1);
    });

    it("a product archived while in the cart: the cart says it is no longer sold, it can't be added again, and placing the order writes nothing", async () => {
      const product = await freshProduct({ stock: 10 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: product.id, quantity: 2 });
      await t.db
        .updateTable("products")
        .set({ archived_at: new Date().toISOString() })
        .where("id", "=", product.id)
        .execute();
      const cart = await getCart(t.db, owner);
      expect(cart.lines[0]).toMatchObject({
        productId: product.id,
        stockQuantity: 0,
        notice: "No longer sold — remove it to check out.",
      });
      await domainError(addToCart(t.db, owner, { productId: product.id, quantity: 1 }), "UNKNOWN_PRODUCT", 404);
      const before = { orders: await count("orders"), mail: await count("mail_queue") };
      const error = await domainError(
        placeOrder(t.db, { owner, userId: null, checkout: checkout(), siteUrl: SITE }),
        "NO_LONGER_SOLD",
        409,
      );
      expect(error.message).toContain(product.title);
      expect({ orders: await count("orders"), mail: await count("mail_queue") }).toEqual(before);
      expect(await stockOf(product.id)).toBe(10);
    });

    it("out of stock during placement writes nothing: no order, no lines, no mail, cart kept, stock unchanged", async () => {
      const plenty = await freshProduct({ stock: 10 });
      const scarce = await freshProduct({ stock: 10 });
      const owner = guest();
      // The in-stock line comes first, so its stock is taken before the scarce line fails.
      await addToCart(t.db, owner, { productId: plenty.id, quantity: 3 });
      await new Promise((r) => setTimeout(r, 5));
      await addToCart(t.db, owner, { productId: scarce.id, quantity: 2 });
      await t.db.updateTable("products").set({ stock_quantity: 1 }).where("id", "=", scarce.id).execute();
      const before = {
        orders: await count("orders"),
        lines: await count("order_lines"),
        mail: await count("mail_queue"),
      };
      const cartBefore = await cartRows(owner);
      const input = checkout();

      const error = await domainError(
        placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE }),
        "OUT_OF_STOCK",
        409,
      );
      expect(error.message).toContain(scarce.title);
      expect(error.message).not.toContain(plenty.title);

      expect({
        orders: await count("orders"),
        lines: await count("order_lines"),
        mail: await count("mail_queue"),
      }).toEqual(before);
      expect(
        await t.db.selectFrom("orders").select("id").where("checkout_token", "=", input.checkoutToken).execute(),
      ).toEqual([]);
      expect(await cartRows(owner)).toEqual(cartBefore);
      expect(await stockOf(plenty.id)).toBe(10);
      expect(await stockOf(scarce.id)).toBe(1);

      // Once the shopper lowers the quantity, the same checkout token goes through.
      await setCartQuantity(t.db, owner, { productId: scarce.id, color: scarce.colorList[0], quantity: 1 });
      const placed = await placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: SITE });
      expect(placed.created).toBe(true);
      expect(await stockOf(plenty.id)).toBe(7);
      expect(await stockOf(scarce.id)).toBe(0);
    });

    it("two colours of one product count together against its stock", async () => {
      let p = await freshProduct({ stock: 10 });
      while (p.colorList.length < 2) p = await freshProduct({ stock: 10 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 2, color: p.colorList[0] });
      await addToCart(t.db, owner, { productId: p.id, quantity: 2, color: p.colorList[1] });
      await t.db.updateTable("products").set({ stock_quantity: 3 }).where("id", "=", p.id).execute();
      const before = await count("orders");
      const error = await domainError(
        placeOrder(t.db, { owner, userId: null, checkout: checkout(), siteUrl: SITE }),
        "OUT_OF_STOCK",
        409,
      );
      expect(error.message).toContain(p.title);
      expect(await count("orders")).toBe(before);
      expect(await stockOf(p.id)).toBe(3);
      expect(await cartRows(owner)).toHaveLength(2);
    });

    it("a product at stock 0 fails the whole order", async () => {
      const p = await freshProduct({ stock: 3 });
      const owner = guest();
      await addToCart(t.db, owner, { productId: p.id, quantity: 1 });
      await t.db.updateTable("products").set({ stock_quantity: 0 }).where("id", "=", p.id).execute();
      const before = await count("orders");
      await domainError(
        placeOrder(t.db, { owner, userId: null, checkout: checkout(), siteUrl: SITE }),
        "OUT_OF_STOCK",
        409,
      );
      expect(await count("orders")).toBe(before);
      expect(await stockOf(p.id)).toBe(0);
      expect(await cartRows(owner)).toHaveLength(1);
    });
  });
});
