import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { derivedPriceMinor } from "../../app/lib/price-derivation.ts";
import { discountedPriceCents } from "../../app/lib/pricing.ts";
import { productSchema } from "../../app/lib/product-schema.ts";
import {
  PriceRuleConflictError,
  PriceRuleInvalidError,
  readUkPriceRule,
  setUkPriceRule,
  ukPriceCounts,
} from "../../server/catalog/market-prices.ts";
import { exportProductsCsv } from "../../server/catalog/product-export.ts";
import { applyImport, previewImport } from "../../server/catalog/product-import.ts";
import { createProduct, updateProduct, versionOf } from "../../server/catalog/product-form.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { readCatalogVersion } from "../../server/catalog/version.ts";
import { DomainError } from "../../server/errors.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const admin: StaffActor = { userId: "admin-1", name: "Ada Admin", role: "admin" };
const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "staff" };

const product = (overrides: Record<string, string> = {}) =>
  productSchema.parse({
    sku: "UK-1",
    title: "Quokkastone Rivet Gun",
    brand: "forgecrest",
    category: "hand",
    colors: "Yellow",
    price: "100.00",
    discount_percent: "10",
    stock: "3",
    low_stock_threshold: "1",
    description: "Sets rivets.",
    features: "Light",
    model: "RG-1",
    material: "Steel",
    weight_grams: "900",
    country_of_origin: "UK",
    manufacturer: "Forgecrest",
    return_policy: "30 days",
    ...overrides,
  });

describe.each(dialects)("UK prices (%s)", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
  });
  afterAll(async () => t?.drop());

  const ukColumns = (id: number) =>
    t.db
      .selectFrom("products")
      .select([
        "price_cents",
        "discount_percent",
        "uk_price_pence",
        "uk_sale_price_pence",
        "uk_price_set",
        "updated_at",
      ])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("seeds every product with the default rule's price: $1.00 → £0.79, ending .99", async () => {
    expect(await readUkPriceRule(t.db)).toMatchObject({ rateMicros: 790_000, ending: 99, version: 0 });
    const rows = await t.db
      .selectFrom("products")
      .select(["price_cents", "discount_percent", "uk_price_pence", "uk_sale_price_pence", "uk_price_set"])
      .execute();
    expect(rows).toHaveLength(12);
    for (const r of rows) {
      expect(r.uk_price_pence).toBe(derivedPriceMinor(r.price_cents, { rateMicros: 790_000, ending: 99 }));
      expect(r.uk_sale_price_pence).toBe(discountedPriceCents(r.uk_price_pence, r.discount_percent));
      expect(r.uk_price_set).toBe(0);
    }
  });

  it("derives a new product's UK price, keeps one staff set, and derives again when it is cleared", async () => {
    const derivedId = await createProduct(t.db, staff, product());
    expect(await ukColumns(derivedId)).toMatchObject({
      uk_price_pence: 7_999,
      uk_sale_price_pence: 7_199,
      uk_price_set: 0,
    });
    const setId = await createProduct(t.db, staff, product({ sku: "UK-2", uk_price: "84.50" }));
    expect(await ukColumns(setId)).toMatchObject({
      uk_price_pence: 8_450,
      uk_sale_price_pence: 7_605,
      uk_price_set: 1,
    });

    // A new US price moves the derived UK price, not the one staff set.
    let row = await ukColumns(derivedId);
    await updateProduct(t.db, staff, derivedId, product({ price: "200.00" }), versionOf(row));
    expect(await ukColumns(derivedId)).toMatchObject({ uk_price_pence: 15_899, uk_price_set: 0 });
    row = await ukColumns(setId);
    await updateProduct(
      t.db,
      staff,
      setId,
      product({ sku: "UK-2", price: "200.00", uk_price: "84.50" }),
      versionOf(row),
    );
    expect(await ukColumns(setId)).toMatchObject({ uk_price_pence: 8_450, uk_price_set: 1 });
    row = await ukColumns(setId);
    await updateProduct(t.db, staff, setId, product({ sku: "UK-2", price: "200.00" }), versionOf(row));
    expect(await ukColumns(setId)).toMatchObject({
      uk_price_pence: 15_899,
      uk_sale_price_pence: 14_309,
      uk_price_set: 0,
    });
    await updateProduct(
      t.db,
      staff,
      setId,
      product({ sku: "UK-2", price: "200.00", uk_price: "150" }),
      versionOf(await ukColumns(setId)),
    );
  });

  it("a new rule derives every UK price staff didn't set, in one change with one audit row", async () => {
    const before = await readUkPriceRule(t.db);
    const counts = await ukPriceCounts(t.db);
    expect(counts).toEqual({ set: 1, derived: 13 });
    const catalog = await readCatalogVersion(t.db);
    const result = await setUkPriceRule(t.db, admin, { rate: "0.8", ending: "95", version: before.version });
    expect(result).toEqual({ changed: true, repriced: expect.any(Number) });
    expect(result.repriced).toBeGreaterThan(0);
    expect(await readUkPriceRule(t.db)).toMatchObject({ rateMicros: 800_000, ending: 95, version: before.version + 1 });
    const rows = await t.db.selectFrom("products").selectAll().execute();
    for (const r of rows) {
      if (r.uk_price_set === 1) expect(r.uk_price_pence).toBe(15_000);
      else expect(r.uk_price_pence).toBe(derivedPriceMinor(r.price_cents, { rateMicros: 800_000, ending: 95 }));
      expect(r.uk_sale_price_pence).toBe(discountedPriceCents(r.uk_price_pence, r.discount_percent));
    }
    expect(await readCatalogVersion(t.db)).not.toBe(catalog);
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "market.price_rule")
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_id: "admin-1", object_type: "market", object_id: "uk" });
    expect(JSON.parse(audit.before!)).toEqual({ rate_micros: 790_000, ending: 99 });
    expect(JSON.parse(audit.after!)).toEqual({ rate_micros: 800_000, ending: 95, repriced: result.repriced });

    expect(await setUkPriceRule(t.db, admin, { rate: "0.80", ending: "95", version: before.version + 1 })).toEqual({
      changed: false,
      repriced: 0,
    });
  });

  it("refuses a stale form, a bad rate or ending, and staff who aren't admins, changing nothing", async () => {
    const rule = await readUkPriceRule(t.db);
    const attempt = (input: { rate: string; ending: string; version: number }, actor = admin) =>
      setUkPriceRule(t.db, actor, input).catch((e: unknown) => e);
    expect(await attempt({ rate: "0.7", ending: "99", version: rule.version - 1 })).toBeInstanceOf(
      PriceRuleConflictError,
    );
    for (const rate of ["", "0", "-1", "abc", "101", "0.1234567"])
      expect(await attempt({ rate, ending: "99", version: rule.version })).toBeInstanceOf(PriceRuleInvalidError);
    expect(await attempt({ rate: "0.7", ending: "98", version: rule.version })).toBeInstanceOf(PriceRuleInvalidError);
    const refused = await attempt({ rate: "0.7", ending: "99", version: rule.version }, staff);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).status).toBe(403);
    expect(await readUkPriceRule(t.db)).toEqual(rule);
  });

  it("two admins saving the same form: one wins, the other is refused", async () => {
    const rule = await readUkPriceRule(t.db);
    const results = await Promise.allSettled([
      setUkPriceRule(t.db, admin, { rate: "0.75", ending: "99", version: rule.version }),
      setUkPriceRule(t.db, admin, { rate: "0.85", ending: "99", version: rule.version }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [refused] = results.filter((r) => r.status === "rejected");
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(PriceRuleConflictError);
    expect((await readUkPriceRule(t.db)).version).toBe(rule.version + 1);
  });

  it("a product saved while an admin saves a new rule ends with the UK price of its new US price by the new rule", async () => {
    const id = await createProduct(t.db, staff, product({ sku: "UK-RACE", price: "50.00" }));
    for (const [price, rate] of [
      ["61.00", "0.7"],
      ["72.50", "0.9"],
      ["33.33", "0.66"],
    ] as const) {
      const rule = await readUkPriceRule(t.db);
      await Promise.all([
        updateProduct(t.db, staff, id, product({ sku: "UK-RACE", price }), versionOf(await ukColumns(id))),
        setUkPriceRule(t.db, admin, { rate, ending: "99", version: rule.version }),
      ]);
      const now = await readUkPriceRule(t.db);
      const row = await ukColumns(id);
      expect(row.price_cents).toBe(Math.round(Number(price) * 100));
      expect(row.uk_price_pence).toBe(derivedPriceMinor(row.price_cents, now));
    }
  });

  it("exports the UK price staff set and the one in use; an import without the column keeps them", async () => {
    let csv = "";
    for await (const chunk of exportProductsCsv(t.db, staff)) csv += chunk;
    const [header, ...lines] = csv.trim().split("\n");
    expect(header).toContain(",price,uk_price,discount_percent,");
    expect(header).toContain(",uk_price_in_use,archived,updated_at");
    const set = lines.find((l) => l.includes(",UK-2,"))!;
    expect(set).toContain(",200.00,150.00,10,");
    expect(set).toContain(",150.00,,");
    const derived = lines.find((l) => l.includes(",UK-1,"))!;
    expect(derived).toContain(",200.00,,10,");

    // The export imports again unchanged; without uk_price each product keeps its UK price.
    expect((await previewImport(t.db, staff, csv)).rows.every((r) => r.action === "unchanged")).toBe(true);
    const columns = header.split(",");
    const without = (line: string) =>
      line
        .split(",")
        .filter((_, i) => columns[i] !== "uk_price")
        .join(",");
    const oldShape = [without(header), without(set), without(derived)].join("\n");
    const plan = await previewImport(t.db, staff, oldShape);
    expect(plan.errors).toEqual([]);
    expect(plan.rows.map((r) => r.action)).toEqual(["unchanged", "unchanged"]);

    // A UK price in the file is a change the preview names, and applying it sets it.
    const changed = csv.replace(/(,UK-1,[^\n]*?,200\.00,),/, (_, start: string) => `${start}99.00,`);
    const preview = await previewImport(t.db, staff, changed);
    expect(preview.rows.find((r) => r.sku === "UK-1")?.changes).toEqual(["UK price"]);
    await applyImport(t.db, staff, changed, preview.hash);
    const id = Number(derived.split(",")[0]);
    expect(await ukColumns(id)).toMatchObject({ uk_price_pence: 9_900, uk_price_set: 1 });
  });
});
