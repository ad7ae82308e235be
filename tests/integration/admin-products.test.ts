import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productSchema, type ProductInput } from "../../app/lib/product-schema.ts";
import {
  listAdminProducts,
  loadProductForEdit,
  setArchived,
  setCategory,
} from "../../server/catalog/admin-products.ts";
import {
  getProductDetail,
  listFeaturedProducts,
  listProductIdsForSitemap,
  listProducts,
} from "../../server/catalog/catalog.ts";
import {
  createProduct,
  ProductConflictError,
  ProductFieldError,
  updateProduct,
} from "../../server/catalog/product-form.ts";
import { addProductImage, removeProductImage, renditionPath } from "../../server/catalog/product-images.ts";
import { searchProducts } from "../../server/catalog/search.ts";
import { suggestSearch } from "../../server/catalog/search-suggest.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { readCatalogVersion } from "../../server/catalog/version.ts";
import type { Db } from "../../server/db/connection.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { DomainError } from "../../server/errors.ts";
import { adjustStock, recentLedger } from "../../server/inventory/adjust.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";
import { countRows, dialects, freshDb, type TestDb } from "./databases.ts";

const cfg = loadConfig({
  SITE_URL: "http://127.0.0.1:3999",
  NODE_ENV: "test",
  AUTH_SECRET: "integration-secret-0123456789abcdef0123",
});

const uploads = mkdtempSync(path.join(os.tmpdir(), "admin-products-uploads-"));
process.env.UPLOAD_DIR = uploads;
afterAll(() => rmSync(uploads, { recursive: true, force: true }));

const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "staff" };
const customer: StaffActor = { userId: "cust-1", name: "Cora Customer", role: "customer" };

function input(overrides: Record<string, string> = {}): ProductInput {
  return productSchema.parse({
    sku: "ZX-1000",
    title: "Quokkastone Rivet Gun",
    brand: "forgecrest",
    category: "hand",
    colors: "Yellow, Black",
    price: "120.00",
    discount_percent: "",
    stock: "7",
    low_stock_threshold: "3",
    description: "A sturdy rivet gun for sheet metal work.",
    features: "Steel body\nFour nose pieces",
    model: "QRG-1",
    material: "Steel",
    weight_grams: "900",
    country_of_origin: "Germany",
    manufacturer: "Forgecrest Ltd",
    return_policy: "14 days return policy.",
    ...overrides,
  });
}

async function auditRows(db: Db, objectId: number | string) {
  return db.selectFrom("audit_log").selectAll().where("object_id", "=", String(objectId)).orderBy("id").execute();
}

async function searchIds(db: Db, q: string) {
  return (await searchProducts(db, { q, perPage: 60 })).items.map((i) => i.id);
}

describe.each(dialects)("back-office products on %s", (kind) => {
  let t: TestDb;
  let db: Db;
  beforeAll(async () => {
    t = await freshDb(kind);
    db = t.db;
    await migrateAuth(db, cfg);
    await seedCatalog(db, { products: 60 });
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("creates a product that is on sale at once: product page, shop, search, suggestions, sitemap; stock in the ledger; one audit row", async () => {
    const before = await readCatalogVersion(db);
    const id = await createProduct(db, staff, input());
    expect(await readCatalogVersion(db)).toBeGreaterThan(before);
    const detail = await getProductDetail(db, id);
    expect(detail).toMatchObject({
      title: "Quokkastone Rivet Gun",
      sku: "ZX-1000",
      priceCents: 12000,
      stockQuantity: 7,
      colors: ["Yellow", "Black"],
      features: ["Steel body", "Four nose pieces"],
    });
    expect(await searchIds(db, "quokkastone")).toEqual([id]);
    expect(await searchIds(db, "quokkaston")).toEqual([id]); // a typo, through the new word in the vocabulary
    expect((await suggestSearch(db, "quokk")).options.map((o) => o.href)).toContain(`/shop/${id}`);
    expect((await listProducts(db, { sort: "newest", perPage: 60 })).items[0]?.id).toBe(id);
    expect((await listProductIdsForSitemap(db)).map((p) => p.id)).toContain(id);
    const ledger = await recentLedger(db, id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ delta: 7, before: 0, after: 7, reason: "received" });
    const actor = await db
      .selectFrom("stock_movements")
      .select("actor")
      .where("product_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(actor.actor).toBe("staff:staff-1");
    const audit = await auditRows(db, id);
    expect(audit.map((a) => a.action)).toEqual(["product.create"]);
    expect(audit[0].actor_name).toBe("Sam Staff");
  });

  it("refuses a used SKU, an unknown brand and bad values, writing nothing", async () => {
    const count = () => countRows(db, "products");
    const n = await count();
    await expect(createProduct(db, staff, input({ sku: "zx-1000" }))).rejects.toMatchObject({
      fields: { sku: expect.stringContaining("already used") },
    });
    await expect(createProduct(db, staff, input({ sku: "ZX-2000", brand: "nope" }))).rejects.toBeInstanceOf(
      ProductFieldError,
    );
    expect(productSchema.safeParse({ ...input(), price: "abc", stock: "-1" }).success).toBe(false);
    expect(await count()).toBe(n);
    const other = await db
      .selectFrom("products")
      .select(["id", "sku"])
      .where("sku", "!=", "ZX-1000")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const edit = await loadProductForEdit(db, staff, other.id);
    const { stock: _s, ...rest } = input({ sku: "ZX-1000" });
    await expect(updateProduct(db, staff, other.id, rest, edit!.version)).rejects.toBeInstanceOf(ProductFieldError);
    expect(
      (await db.selectFrom("products").select("sku").where("id", "=", other.id).executeTakeFirstOrThrow()).sku,
    ).toBe(other.sku);
  });

  it("saves an edit live (price, words) and refuses the second of two edits started from the same version", async () => {
    const id = (await db.selectFrom("products").select("id").where("sku", "=", "ZX-1000").executeTakeFirstOrThrow()).id;
    const opened = (await loadProductForEdit(db, staff, id))!;
    const { stock: _s, ...base } = input();
    await updateProduct(
      db,
      staff,
      id,
      { ...base, price: 9999, discount_percent: 10, title: "Wallabyforge Rivet Gun" },
      opened.version,
    );
    const detail = await getProductDetail(db, id);
    expect(detail).toMatchObject({
      priceCents: 9999,
      discountPercent: 10,
      salePriceCents: 8999,
      title: "Wallabyforge Rivet Gun",
    });
    expect(await searchIds(db, "wallabyforge")).toEqual([id]);
    expect(await searchIds(db, "quokkastone")).toEqual([]);
    // The second staff member opened the form before the first saved.
    await expect(updateProduct(db, staff, id, { ...base, price: 5000 }, opened.version)).rejects.toBeInstanceOf(
      ProductConflictError,
    );
    expect((await getProductDetail(db, id))!.priceCents).toBe(9999);
    const audit = (await auditRows(db, id)).filter((a) => a.action === "product.update");
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].after!)).toMatchObject({
      price_cents: 9999,
      discount_percent: 10,
      title: "Wallabyforge Rivet Gun",
    });
    expect(JSON.parse(audit[0].before!)).toMatchObject({ price_cents: 12000, discount_percent: null });
  });

  it("adjusts stock through the ledger with a reason, and refuses going below zero without writing", async () => {
    const id = (await db.selectFrom("products").select("id").where("sku", "=", "ZX-1000").executeTakeFirstOrThrow()).id;
    const moved = await adjustStock(db, staff, id, { reason: "received", change: 5, note: "PO 991" });
    expect(moved).toMatchObject({ stockBefore: 7, stockAfter: 12 });
    await adjustStock(db, staff, id, { reason: "damaged", change: -2, note: "" });
    await expect(
      adjustStock(db, staff, id, { reason: "count_correction", change: -11, note: "" }),
    ).rejects.toMatchObject({ code: "stock_short" });
    expect((await getProductDetail(db, id))!.stockQuantity).toBe(10);
    const ledger = await recentLedger(db, id);
    expect(ledger.slice(0, 2).map((l) => [l.reason, l.before, l.after, l.note])).toEqual([
      ["damaged", 12, 10, null],
      ["received", 7, 12, "PO 991"],
    ]);
    expect(ledger[0].who).toContain("staff");
    expect((await auditRows(db, id)).filter((a) => a.action === "stock.adjust")).toHaveLength(2);
  });

  it("archives: gone from the product page, shop, search, suggestions, featured and sitemap; the back office still lists it; unarchive brings it back", async () => {
    const featured = (await listFeaturedProducts(db))[0];
    const id = featured.id;
    const word = featured.title
      .split(" ")
      .find((w) => w.length > 4)!
      .toLowerCase();
    expect(await searchIds(db, featured.title)).toContain(id);
    const shopTotal = (await listProducts(db)).total;
    expect(await setArchived(db, staff, [id], true)).toBe(1);
    expect(await getProductDetail(db, id)).toBeNull();
    expect(await searchIds(db, featured.title)).not.toContain(id);
    expect((await suggestSearch(db, word)).options.map((o) => o.href)).not.toContain(`/shop/${id}`);
    expect((await listFeaturedProducts(db)).map((p) => p.id)).not.toContain(id);
    expect((await listProductIdsForSitemap(db)).map((p) => p.id)).not.toContain(id);
    expect((await listProducts(db)).total).toBe(shopTotal - 1);
    const admin = await listAdminProducts(db, staff, { archived: "archived" });
    expect(admin.items.map((p) => p.id)).toEqual([id]);
    expect(
      (await listAdminProducts(db, staff, { q: featured.title.split(" ")[1], archived: "all" })).items.map((p) => p.id),
    ).toContain(id);
    expect((await listAdminProducts(db, staff, {})).items.map((p) => p.id)).not.toContain(id);
    expect(await setArchived(db, staff, [id], false)).toBe(1);
    expect(await getProductDetail(db, id)).not.toBeNull();
    expect(await searchIds(db, featured.title)).toContain(id);
    expect((await listProducts(db)).total).toBe(shopTotal);
    expect((await auditRows(db, id)).map((a) => a.action)).toEqual(["product.archive", "product.unarchive"]);
  });

  it("lists with filters, SKU search, sorting and a bulk category move that is all or nothing", async () => {
    const out = await listAdminProducts(db, staff, { stock: "out" });
    expect(out.items.every((p) => p.stock === 0)).toBe(true);
    const low = await listAdminProducts(db, staff, { stock: "low" });
    expect(low.items.every((p) => p.stock > 0 && p.stock <= p.lowStockThreshold)).toBe(true);
    expect((await listAdminProducts(db, staff, { q: "zx-1000" })).items.map((p) => p.sku)).toEqual(["ZX-1000"]);
    const byPrice = (await listAdminProducts(db, staff, { sort: "price", dir: "desc" })).items.map(
      (p) => p.salePriceCents,
    );
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    const words = await listAdminProducts(db, staff, { q: "drill", category: "power-tools" });
    expect(words.total).toBeGreaterThan(0);
    expect(words.items.every((p) => p.categoryName === "Power Tools")).toBe(true);

    const ids = (await listAdminProducts(db, staff, { category: "hand", sort: "sku" })).items
      .slice(0, 2)
      .map((p) => p.id);
    await expect(setCategory(db, staff, [...ids, 999_999], "safety")).rejects.toBeInstanceOf(DomainError);
    const still = await db
      .selectFrom("products as p")
      .innerJoin("categories as c", "c.id", "p.category_id")
      .select("c.slug")
      .where("p.id", "in", ids)
      .execute();
    expect(still.every((r) => r.slug === "hand")).toBe(true);
    expect(await setCategory(db, staff, ids, "safety")).toBe(2);
    for (const id of ids) expect((await getProductDetail(db, id))!.categorySlug).toBe("safety");
    for (const id of ids) expect((await auditRows(db, id)).at(-1)!.action).toBe("product.update");
  });

  it("uploads a real PNG (renditions on disk, shown by the shop) and refuses a file that isn't a picture", async () => {
    const id = (await db.selectFrom("products").select("id").where("sku", "=", "ZX-1000").executeTakeFirstOrThrow()).id;
    const png = await sharp({ create: { width: 800, height: 500, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    const image = await addProductImage(db, staff, id, png);
    expect(image.url).toMatch(new RegExp(`^/images/products/${id}/p${id}-[0-9a-f]{16}-600\\.webp$`));
    for (const w of [160, 600, 1200]) expect(existsSync(renditionPath(image.fileKey, w))).toBe(true);
    const meta = await sharp(renditionPath(image.fileKey, 600)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 600, 375]);
    expect((await getProductDetail(db, id))!.images).toEqual([image.url]);
    expect((await searchProducts(db, { q: "wallabyforge" })).items[0].imageUrl).toBe(image.url);

    await expect(
      addProductImage(db, staff, id, new TextEncoder().encode("<svg>not a photo</svg>")),
    ).rejects.toMatchObject({ code: "image_invalid" });
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    await expect(addProductImage(db, staff, id, gif)).rejects.toMatchObject({ code: "image_invalid" });
    expect(await db.selectFrom("product_images").select("id").where("product_id", "=", id).execute()).toHaveLength(1);

    await removeProductImage(db, staff, id, image.id);
    expect(existsSync(renditionPath(image.fileKey, 600))).toBe(false);
    expect((await getProductDetail(db, id))!.images[0]).toBe(`/images/products/${id}/1.svg`);
    expect((await auditRows(db, id)).filter((a) => a.action.startsWith("product.image")).map((a) => a.action)).toEqual([
      "product.image.add",
      "product.image.remove",
    ]);
  });

  it("the shop's card shows a product's first picture, and the next one once the first is removed", async () => {
    const id = (await db.selectFrom("products").select("id").where("sku", "=", "ZX-1000").executeTakeFirstOrThrow()).id;
    const png = (background: string) =>
      sharp({ create: { width: 400, height: 300, channels: 3, background } })
        .png()
        .toBuffer();
    const first = await addProductImage(db, staff, id, await png("#3366cc"));
    const second = await addProductImage(db, staff, id, await png("#cc6633"));
    const card = async () =>
      (await searchProducts(db, { q: "wallabyforge" })).items.find((item) => item.id === id)!.imageUrl;
    expect(await card()).toBe(first.url);
    await removeProductImage(db, staff, id, first.id);
    expect(await card()).toBe(second.url);
    await removeProductImage(db, staff, id, second.id);
    expect(await card()).toBe(`/images/products/${id}/1.svg`);
  });

  it("refuses customers and missing actors at the domain level, writing nothing", async () => {
    const id = (await db.selectFrom("products").select("id").where("sku", "=", "ZX-1000").executeTakeFirstOrThrow()).id;
    const auditBefore = (await db.selectFrom("audit_log").select("id").execute()).length;
    const { stock: _s, ...edit } = input();
    const attempts: (() => Promise<unknown>)[] = [
      () => createProduct(db, customer, input({ sku: "CUST-1" })),
      () => updateProduct(db, customer, id, edit, ""),
      () => adjustStock(db, customer, id, { reason: "received", change: 1, note: "" }),
      () => setArchived(db, customer, [id], true),
      () => setCategory(db, customer, [id], "hand"),
      () => listAdminProducts(db, customer, {}),
      () => loadProductForEdit(db, customer, id),
      () => addProductImage(db, customer, id, new Uint8Array([1])),
      () => createProduct(db, null as unknown as StaffActor, input({ sku: "CUST-2" })),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ status: 403 });
    expect((await db.selectFrom("audit_log").select("id").execute()).length).toBe(auditBefore);
  });
});
