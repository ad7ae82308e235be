/**
 * The one price rule end to end through the database: seeded volume breaks (everyone) and a
 * company's price list (its members only) price the cart, the checkout preview and the placed
 * order alike, on SQLite and PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { discountedPriceCents } from "../../app/lib/pricing.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { addToCart, getCart, setCartQuantity } from "../../server/cart/cart.ts";
import { priceLinesForBuyer } from "../../server/cart/priced-lines.ts";
import { loadConfig } from "../../server/config.ts";
import { seedCatalog, SEED_VOLUME_BREAKS } from "../../server/db/seed/seed.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { productVolumeBreaks, volumeBreaksFor } from "../../server/trade/prices.ts";
import { saveCartAsList } from "../../server/trade/saved-list-cart.ts";
import { savedListView } from "../../server/trade/saved-lists.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const cfg = loadConfig({
  SITE_URL: "http://127.0.0.1:3997",
  NODE_ENV: "test",
  AUTH_SECRET: "integration-secret-0123456789abcdef0123",
});
const token = () => randomBytes(18).toString("base64url");

describe.each(dialects)("volume breaks and trade prices on %s", (kind) => {
  let t: TestDb;
  // Product 3 has the seeded breaks (10+ −5%, 50+ −10%); product 4 has none.
  const BROKEN = 3;
  const PLAIN = 4;
  let list: Record<number, { cents: number; category: number; colors: string[] }> = {};

  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, cfg);
    await seedCatalog(t.db, { products: 10 });
    await t.db.updateTable("products").set({ stock_quantity: 500 }).execute();
    const rows = await t.db
      .selectFrom("products")
      .select(["id", "sale_price_cents", "category_id", "colors"])
      .execute();
    list = Object.fromEntries(
      rows.map((r) => [
        r.id,
        { cents: r.sale_price_cents, category: r.category_id, colors: JSON.parse(r.colors) as string[] },
      ]),
    );
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function tradeBuyer(rules: { target: string; percent_off?: number; fixed_cents?: number }[]): Promise<string> {
    const id = randomBytes(6).toString("hex");
    const now = new Date().toISOString();
    const priceList = await t.db
      .insertInto("price_lists")
      .values({ name: `Trade ${id}`, created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto("price_list_rules")
      .values(
        rules.map((r) => ({
          price_list_id: priceList.id,
          target: r.target,
          percent_off: r.percent_off ?? null,
          fixed_cents: r.fixed_cents ?? null,
        })),
      )
      .execute();
    const organizationId = await insertCompany(t.db, { country: "GB", priceListId: priceList.id });
    return insertMember(t.db, organizationId, "buyer");
  }

  it("seeds the breaks on one product in five", async () => {
    const rows = await t.db
      .selectFrom("volume_breaks")
      .select(["product_id", "min_quantity", "percent_off"])
      .orderBy("product_id")
      .orderBy("min_quantity")
      .execute();
    expect(rows).toEqual(
      [3, 8].flatMap((id) =>
        SEED_VOLUME_BREAKS.map((b) => ({ product_id: id, min_quantity: b.minQuantity, percent_off: b.percentOff })),
      ),
    );
  });

  it("reads one product page's breaks as the cart's lookup of many does, smallest first", async () => {
    for (const id of [3, 8, 4, 999_999]) {
      const many = (await volumeBreaksFor(t.db, [id, 1, 2])).get(id) ?? [];
      expect(await productVolumeBreaks(t.db, id)).toEqual(many);
    }
    expect(await productVolumeBreaks(t.db, 3)).toEqual(
      [...SEED_VOLUME_BREAKS].sort((a, b) => a.minQuantity - b.minQuantity),
    );
    expect(await productVolumeBreaks(t.db, 4)).toEqual([]);
  });

  it("prices a guest's cart line by its quantity: list, then each break", async () => {
    const owner = `g:${token()}`;
    const color = list[BROKEN].colors[0];
    await addToCart(t.db, owner, { productId: BROKEN, quantity: 9, color });
    const at = async (quantity: number) => {
      await setCartQuantity(t.db, owner, { productId: BROKEN, color, quantity });
      const [line] = (await getCart(t.db, owner)).lines;
      return [line.unitPriceCents, line.priceSource, line.lineTotalCents];
    };
    const cents = list[BROKEN].cents;
    expect(await at(9)).toEqual([cents, "list", cents * 9]);
    expect(await at(10)).toEqual([discountedPriceCents(cents, 5), "volume", discountedPriceCents(cents, 5) * 10]);
    expect(await at(50)).toEqual([discountedPriceCents(cents, 10), "volume", discountedPriceCents(cents, 10) * 50]);
  });

  it("places the order at the prices the cart showed, for everyone's volume break", async () => {
    const owner = `g:${token()}`;
    await addToCart(t.db, owner, { productId: BROKEN, quantity: 12 });
    await addToCart(t.db, owner, { productId: PLAIN, quantity: 12 });
    const cart = await getCart(t.db, owner);
    const placed = await placeOrder(t.db, {
      owner,
      userId: null,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, checkoutToken: token() }),
      siteUrl: "http://x",
    });
    const order = await t.db
      .selectFrom("orders")
      .select(["id", "subtotal_cents"])
      .where("number", "=", placed.number)
      .executeTakeFirstOrThrow();
    const lines = await t.db
      .selectFrom("order_lines")
      .select(["product_id", "unit_price_cents", "line_total_cents"])
      .where("order_id", "=", order.id)
      .orderBy("product_id")
      .execute();
    expect(lines).toEqual([
      {
        product_id: BROKEN,
        unit_price_cents: discountedPriceCents(list[BROKEN].cents, 5),
        line_total_cents: discountedPriceCents(list[BROKEN].cents, 5) * 12,
      },
      { product_id: PLAIN, unit_price_cents: list[PLAIN].cents, line_total_cents: list[PLAIN].cents * 12 },
    ]);
    expect(order.subtotal_cents).toBe(cart.totalCents);
  });

  it("gives a company's members its price list (product, then category, then all), the best price winning", async () => {
    const category = list[PLAIN].category;
    const buyer = await tradeBuyer([
      { target: "all", percent_off: 3 },
      { target: `category:${category}`, percent_off: 8 },
      { target: `product:${BROKEN}`, fixed_cents: list[BROKEN].cents - 1 },
    ]);
    const owner = `u:${buyer}`;
    await addToCart(t.db, owner, { productId: PLAIN, quantity: 2 });
    await addToCart(t.db, owner, { productId: BROKEN, quantity: 2 });
    const other = Number(
      Object.keys(list).find((id) => list[Number(id)].category !== category && Number(id) !== BROKEN),
    );
    await addToCart(t.db, owner, { productId: other, quantity: 1 });
    const byProduct = async () =>
      Object.fromEntries(
        (await getCart(t.db, owner)).lines.map((l) => [l.productId, [l.unitPriceCents, l.priceSource]]),
      );
    expect(await byProduct()).toEqual({
      [PLAIN]: [discountedPriceCents(list[PLAIN].cents, 8), "trade"],
      [BROKEN]: [list[BROKEN].cents - 1, "trade"],
      [other]: [discountedPriceCents(list[other].cents, 3), "trade"],
    });
    // At 50 units the volume break (−10%) beats the fixed trade price (list − 1 cent).
    await setCartQuantity(t.db, owner, {
      productId: BROKEN,
      color: (await getCart(t.db, owner)).lines.find((l) => l.productId === BROKEN)!.color,
      quantity: 50,
    });
    expect((await byProduct())[BROKEN]).toEqual([discountedPriceCents(list[BROKEN].cents, 10), "volume"]);

    const placed = await placeOrder(t.db, {
      owner,
      userId: buyer,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, checkoutToken: token() }),
      siteUrl: "http://x",
    });
    const order = await t.db
      .selectFrom("orders")
      .select("id")
      .where("number", "=", placed.number)
      .executeTakeFirstOrThrow();
    const unit = await t.db
      .selectFrom("order_lines")
      .select(["product_id", "unit_price_cents"])
      .where("order_id", "=", order.id)
      .execute();
    expect(Object.fromEntries(unit.map((l) => [l.product_id, l.unit_price_cents]))).toEqual({
      [PLAIN]: discountedPriceCents(list[PLAIN].cents, 8),
      [BROKEN]: discountedPriceCents(list[BROKEN].cents, 10),
      [other]: discountedPriceCents(list[other].cents, 3),
    });
  });

  it("prices a line for a buyer one way, for the cart and the saved lists alike", async () => {
    const category = list[PLAIN].category;
    const buyer = await tradeBuyer([{ target: `category:${category}`, percent_off: 8 }]);
    const line = (productId: number, quantity: number) => ({
      product_id: productId,
      category_id: list[productId].category,
      quantity,
      sale_price_cents: list[productId].cents,
    });
    const rows = [line(PLAIN, 2), line(BROKEN, 6), line(BROKEN, 6)];
    const summary = (priced: Awaited<ReturnType<typeof priceLinesForBuyer>>) =>
      priced.map((p) => [p.row.product_id, p.unit.unitCents, p.unit.source, p.volumeBreaks?.length ?? 0, p.trade]);
    // A guest: list prices; one product's units in two lines (two colors) reach its 10+ break together.
    expect(summary(await priceLinesForBuyer(t.db, null, rows))).toEqual([
      [PLAIN, list[PLAIN].cents, "list", 0, null],
      [BROKEN, discountedPriceCents(list[BROKEN].cents, 5), "volume", 2, null],
      [BROKEN, discountedPriceCents(list[BROKEN].cents, 5), "volume", 2, null],
    ]);
    // The company's buyer: its price list where it applies.
    const forBuyer = summary(await priceLinesForBuyer(t.db, buyer, rows));
    expect(forBuyer[0]).toEqual([PLAIN, discountedPriceCents(list[PLAIN].cents, 8), "trade", 0, { percentOff: 8 }]);
    expect(await priceLinesForBuyer(t.db, buyer, [])).toEqual([]);

    const owner = `u:${buyer}`;
    await addToCart(t.db, owner, { productId: PLAIN, quantity: 2 });
    const cart = await getCart(t.db, owner);
    const saved = await saveCartAsList(t.db, buyer, `Priced ${token()}`);
    const view = await savedListView(t.db, buyer, saved.id);
    expect(view.lines.map((l) => [l.productId, l.unitPriceCents, l.priceSource])).toEqual(
      cart.lines.map((l) => [l.productId, l.unitPriceCents, l.priceSource]),
    );
    expect(cart.lines[0]).toMatchObject({
      unitPriceCents: forBuyer[0][1],
      priceSource: "trade",
      trade: { percentOff: 8 },
    });
  });

  it("keeps list prices for a signed-in customer outside any company", async () => {
    const owner = `u:someone-${token()}`;
    await addToCart(t.db, owner, { productId: PLAIN, quantity: 2 });
    const [line] = (await getCart(t.db, owner)).lines;
    expect([line.unitPriceCents, line.priceSource]).toEqual([list[PLAIN].cents, "list"]);
  });
});
