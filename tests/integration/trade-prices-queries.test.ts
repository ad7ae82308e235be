/**
 * The trade prices of a page in as few round trips as the answer needs: a buyer's price-list rules
 * in one query (membership, company and rules joined), and the shop grid's "Your price" from the
 * search hits' own category ids (no second read of the products). Same answers as before, on
 * SQLite and PostgreSQL: no company / no list → none; a list without rules → empty rules; the
 * oldest membership decides.
 */
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchProducts } from "../../server/catalog/search.ts";
import type { Db } from "../../server/db/connection.ts";
import { buyerPriceRules, priceListRules, tradeGridPrices } from "../../server/trade/prices.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

/** The db handle, counting the statements it sends. */
function counting(db: Db): { db: Db; queries: () => number; reset: () => void } {
  let n = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      n++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), queries: () => n, reset: () => (n = 0) };
}

describe.each(dialects)("trade price lookups on %s", (kind) => {
  let t: TestDb;
  let c: ReturnType<typeof counting>;
  let products: { id: number; salePriceCents: number; categoryId: number }[] = [];

  async function priceList(rules: { target: string; percent_off?: number; fixed_cents?: number }[]): Promise<number> {
    const now = new Date().toISOString();
    const list = await t.db
      .insertInto("price_lists")
      .values({ name: `List ${Math.random()}`, created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (rules.length) {
      await t.db
        .insertInto("price_list_rules")
        .values(
          rules.map((r) => ({
            price_list_id: list.id,
            target: r.target,
            percent_off: r.percent_off ?? null,
            fixed_cents: r.fixed_cents ?? null,
          })),
        )
        .execute();
    }
    return Number(list.id);
  }

  async function buyerOn(priceListId: number | null): Promise<string> {
    return insertMember(t.db, await insertCompany(t.db, { priceListId }), "buyer");
  }

  beforeAll(async () => {
    t = await freshSeededDb(kind, 30);
    c = counting(t.db);
    const rows = await t.db
      .selectFrom("products")
      .select(["id", "sale_price_cents", "category_id"])
      .orderBy("id")
      .execute();
    products = rows.map((r) => ({
      id: Number(r.id),
      salePriceCents: Number(r.sale_price_cents),
      categoryId: Number(r.category_id),
    }));
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("reads a buyer's rules in one query, the same rules as the list's own", async () => {
    const category = products[0].categoryId;
    const list = await priceList([
      { target: "all", percent_off: 8 },
      { target: `category:${category}`, percent_off: 12 },
      { target: `product:${products[1].id}`, fixed_cents: 100 },
    ]);
    const buyer = await buyerOn(list);
    c.reset();
    const rules = await buyerPriceRules(c.db, buyer);
    expect(c.queries()).toBe(1);
    expect(rules).toEqual(await priceListRules(t.db, list));
    expect(rules?.everything).toEqual({ percentOff: 8 });
    expect(rules?.categories?.get(category)).toEqual({ percentOff: 12 });
    expect(rules?.products?.get(products[1].id)).toEqual({ fixedCents: 100 });
  });

  it("gives empty rules for a list without rules, and none without a list, a company or a user", async () => {
    const empty = await buyerOn(await priceList([]));
    expect(await buyerPriceRules(t.db, empty)).toEqual({
      products: new Map(),
      categories: new Map(),
      everything: null,
    });
    expect(await buyerPriceRules(t.db, await buyerOn(null))).toBeNull();
    // A member of an organization that is no company (no approved application).
    const orgId = `org-plain-${products.length}-${Date.now()}`;
    await t.db
      .insertInto("organization")
      .values({
        id: orgId,
        name: "Plain",
        slug: orgId,
        logo: null,
        metadata: null,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const loner = await insertMember(t.db, orgId, "buyer");
    expect(await buyerPriceRules(t.db, loner)).toBeNull();
    expect(await buyerPriceRules(t.db, "user-who-does-not-exist")).toBeNull();
    c.reset();
    expect(await buyerPriceRules(c.db, null)).toBeNull();
    expect(c.queries()).toBe(0);
  });

  it("takes the oldest membership's company, as before", async () => {
    const older = await priceList([{ target: "all", percent_off: 20 }]);
    const newer = await priceList([{ target: "all", percent_off: 5 }]);
    const user = await insertMember(t.db, await insertCompany(t.db, { priceListId: newer }), "buyer");
    await insertMember(t.db, await insertCompany(t.db, { priceListId: older }), "buyer", user);
    const memberships = await t.db
      .selectFrom("member")
      .select(["id", "organizationId"])
      .where("userId", "=", user)
      .orderBy("id")
      .execute();
    const olderOrg = (
      await t.db
        .selectFrom("companies")
        .select("organization_id")
        .where("price_list_id", "=", older)
        .executeTakeFirstOrThrow()
    ).organization_id;
    for (const m of memberships) {
      await t.db
        .updateTable("member")
        .set({
          createdAt: m.organizationId === olderOrg ? "2020-01-01T00:00:00.000Z" : "2024-01-01T00:00:00.000Z",
        } as never)
        .where("id", "=", m.id)
        .execute();
    }
    expect((await buyerPriceRules(t.db, user))?.everything).toEqual({ percentOff: 20 });
  });

  it("prices the shop grid from the search hits' category ids: one query, the same prices", async () => {
    const category = products[0].categoryId;
    const buyer = await buyerOn(
      await priceList([
        { target: "all", percent_off: 8 },
        { target: `category:${category}`, percent_off: 12 },
      ]),
    );
    const result = await searchProducts(t.db, { page: 1 });
    expect(result.items.length).toBeGreaterThan(1);
    for (const hit of result.items) expect(hit.categoryId).toBe(products.find((p) => p.id === hit.id)?.categoryId);
    expect(result.items.some((hit) => hit.categoryId === category)).toBe(true);

    c.reset();
    const fromHits = await tradeGridPrices(c.db, buyer, result.items);
    expect(c.queries()).toBe(1);
    // Without category ids the products are read: two queries, and the same prices.
    c.reset();
    const bare = result.items.map(({ id, salePriceCents }) => ({ id, salePriceCents }));
    expect(await tradeGridPrices(c.db, buyer, bare)).toEqual(fromHits);
    expect(c.queries()).toBe(2);
    for (const hit of result.items) {
      const percent = hit.categoryId === category ? 12 : 8;
      const expected = hit.salePriceCents - Math.round((hit.salePriceCents * percent) / 100);
      if (expected < hit.salePriceCents) expect(fromHits[hit.id]).toBe(expected);
    }
  });

  it("reads no categories when the buyer's rules have none, and nothing more for a shopper without a company", async () => {
    const buyer = await buyerOn(await priceList([{ target: "all", percent_off: 10 }]));
    const bare = products.slice(0, 10).map(({ id, salePriceCents }) => ({ id, salePriceCents }));
    c.reset();
    const prices = await tradeGridPrices(c.db, buyer, bare);
    expect(c.queries()).toBe(1);
    expect(Object.keys(prices)).toHaveLength(bare.filter((p) => p.salePriceCents > 0).length);
    const shopper = await buyerOn(null);
    c.reset();
    expect(await tradeGridPrices(c.db, shopper, products)).toEqual({});
    expect(c.queries()).toBe(1);
    c.reset();
    expect(await tradeGridPrices(c.db, buyer, [])).toEqual({});
    expect(c.queries()).toBe(0);
  });
});
