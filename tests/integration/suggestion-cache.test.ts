/**
 * Suggestions are kept per process and reused only while the catalog version is unchanged
 * (server/catalog/suggestion-cache.ts): a repeated prefix costs one statement, and a change saved
 * in the back office shows in the very next suggestion.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { productSchema } from "../../app/lib/product-schema.ts";
import { loadProductForEdit, setArchived } from "../../server/catalog/admin-products.ts";
import { createProduct, updateProduct } from "../../server/catalog/product-form.ts";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import {
  cachedSuggestions,
  SUGGESTION_CACHE_ENTRIES,
  SUGGESTION_CACHE_MS,
} from "../../server/catalog/suggestion-cache.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { recording } from "./statement-recorder.ts";

const cfg = loadConfig({
  SITE_URL: "http://127.0.0.1:3999",
  NODE_ENV: "test",
  AUTH_SECRET: "integration-secret-0123456789abcdef0123",
});
const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "staff" };

const form = {
  sku: "NB-2000",
  title: "Numbatcrest Riveter",
  brand: "forgecrest",
  category: "hand",
  colors: "Yellow",
  price: "120.00",
  discount_percent: "",
  stock: "7",
  low_stock_threshold: "3",
  description: "A riveter for sheet metal.",
  features: "Steel body",
  model: "NB-1",
  material: "Steel",
  weight_grams: "900",
  country_of_origin: "Germany",
  manufacturer: "Forgecrest Ltd",
  return_policy: "14 days return policy.",
};

const productOption = (s: Awaited<ReturnType<typeof suggestSearch>>, id: number) =>
  s.options.find((o) => o.href === `/shop/${id}`);

describe.each(dialects)("cached suggestions on %s", (kind) => {
  let t: TestDb;
  let id: number;
  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, cfg);
    await seedCatalog(t.db, { products: 40 });
    id = await createProduct(t.db, staff, productSchema.parse(form));
  }, 60_000);
  afterAll(() => t?.drop());
  afterEach(() => vi.useRealTimers());

  it("answers a repeated query with one statement, the catalog version, and the same suggestions", async () => {
    const { db, compiled, reset } = recording(t.db);
    const statements = () => compiled().map((c) => c.sql);
    const first = await suggestSearch(db, "numbat");
    expect(productOption(first, id)?.label).toBe("Numbatcrest Riveter");
    expect(statements().length).toBeGreaterThan(2);
    reset();
    const again = await suggestSearch(db, "numbat");
    expect(again).toEqual(first);
    expect(statements()).toHaveLength(1);
    expect(statements()[0]).toMatch(/catalog_version/);
  });

  it("shows a price saved in the back office in the very next suggestion, and drops an archived product at once", async () => {
    expect(productOption(await suggestSearch(t.db, "numbatc"), id)?.priceCents).toBe(12000);
    const opened = (await loadProductForEdit(t.db, staff, id))!;
    const { stock: _stock, ...edit } = productSchema.parse(form);
    await updateProduct(t.db, staff, id, { ...edit, price: 9500 }, opened.version);
    expect(productOption(await suggestSearch(t.db, "numbatc"), id)?.priceCents).toBe(9500);
    await setArchived(t.db, staff, [id], true);
    expect(productOption(await suggestSearch(t.db, "numbatc"), id)).toBeUndefined();
    await setArchived(t.db, staff, [id], false);
    expect(productOption(await suggestSearch(t.db, "numbatc"), id)).toBeDefined();
  });

  it("computes an entry again once it is older than the limit", async () => {
    let computed = 0;
    const counting = async () => {
      computed++;
      return { q: "aged", options: [] };
    };
    await cachedSuggestions(t.db, "aged", counting);
    await cachedSuggestions(t.db, "aged", counting);
    expect(computed).toBe(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SUGGESTION_CACHE_MS + 1);
    await cachedSuggestions(t.db, "aged", counting);
    expect(computed).toBe(2);
  });

  it("does not keep a failed computation, and holds a bounded number of queries", async () => {
    await expect(cachedSuggestions(t.db, "fails", () => Promise.reject(new Error("database gone")))).rejects.toThrow(
      "database gone",
    );
    await expect(cachedSuggestions(t.db, "fails", async () => ({ q: "fails", options: [] }))).resolves.toEqual({
      q: "fails",
      options: [],
    });

    const computedKeys: string[] = [];
    const compute = (key: string) => async () => {
      computedKeys.push(key);
      return { q: key, options: [] };
    };
    for (let i = 0; i <= SUGGESTION_CACHE_ENTRIES; i++)
      await cachedSuggestions(t.db, `bulk-${i}`, compute(`bulk-${i}`));
    computedKeys.length = 0;
    await cachedSuggestions(t.db, `bulk-${SUGGESTION_CACHE_ENTRIES}`, compute(`bulk-${SUGGESTION_CACHE_ENTRIES}`));
    expect(computedKeys).toEqual([]);
    // The oldest queries made room for the newest.
    await cachedSuggestions(t.db, "bulk-0", compute("bulk-0"));
    expect(computedKeys).toEqual(["bulk-0"]);
  });
});
