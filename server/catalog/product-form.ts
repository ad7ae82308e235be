/**
 * Creating and editing products from the back office. Each save is one transaction: the product
 * row (search triggers follow), the vocabulary, the stock ledger for a new product's first stock,
 * the audit row and the catalog version, so the storefront shows the change at once in every
 * process (docs/decisions/0004). Edits carry the version they started from (updated_at): a save
 * over someone else's newer save is refused with ProductConflictError.
 */
import type { Transaction } from "kysely";
import type { ProductEditInput, ProductInput } from "../../app/lib/product-schema.ts";
import type { DerivationRule } from "../../app/lib/price-derivation.ts";
import { discountedPriceCents } from "../../app/lib/pricing.ts";
import { diffFields, writeAudit } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, NotFoundError, UnprocessableError } from "../errors.ts";
import { moveStock } from "../inventory/stock.ts";
import { readUkPriceRule, ukPriceColumns } from "./market-prices.ts";
import { searchTextOf, updateVocabulary } from "./search-sync.ts";
import { assertCan, ledgerActor, type StaffActor } from "./staff-actor.ts";
import { bumpCatalogVersion } from "./version.ts";

/** A save refused because of some fields (an SKU already used, a brand that doesn't exist). */
export class ProductFieldError extends UnprocessableError {
  readonly fields: Record<string, string>;
  constructor(fields: Record<string, string>) {
    super("invalid_product", Object.values(fields)[0] ?? "Check the form.");
    this.fields = fields;
  }
}

/** Someone saved the product after this form was opened. */
export class ProductConflictError extends ConflictError {
  constructor() {
    super(
      "product_conflict",
      "Someone else saved this product while you were editing it. The form now shows their values; make your change again.",
    );
  }
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

/** The version an edit form carries: the last save's time ("" for a product never edited). */
export function versionOf(row: { updated_at: string | null }): string {
  return row.updated_at ?? "";
}

/** A new timestamp strictly after the previous save, so every save gives a new version. */
export function nextStamp(previous: string | null): string {
  const now = Date.now();
  const prev = previous ? Date.parse(previous) : 0;
  return new Date(Math.max(now, Number.isFinite(prev) ? prev + 1 : 0)).toISOString();
}

type Handle = Db | Transaction<Database>;

/** Brand and category by slug or name (case-insensitive), as the form's selects and CSV cells give them. */
async function resolveBrandAndCategory(
  db: Handle,
  brand: string,
  category: string,
): Promise<{ brandId: number; categoryId: number }> {
  const [brands, categories] = await Promise.all([
    db.selectFrom("brands").select(["id", "name", "slug"]).execute(),
    db.selectFrom("categories").select(["id", "name", "slug"]).execute(),
  ]);
  const find = (list: { id: number; name: string; slug: string }[], value: string) => {
    const v = value.trim().toLowerCase();
    return list.find((o) => o.slug.toLowerCase() === v || o.name.toLowerCase() === v);
  };
  const b = find(brands, brand);
  const c = find(categories, category);
  const fields: Record<string, string> = {};
  if (!b) fields.brand = `There is no brand "${brand.slice(0, 60)}".`;
  if (!c) fields.category = `There is no category "${category.slice(0, 60)}".`;
  if (!b || !c) throw new ProductFieldError(fields);
  return { brandId: Number(b.id), categoryId: Number(c.id) };
}

async function assertSkuFree(db: Handle, sku: string, exceptId?: number): Promise<void> {
  let q = db.selectFrom("products").select(["id", "title"]).where("sku", "=", sku);
  if (exceptId != null) q = q.where("id", "!=", exceptId);
  const other = await q.executeTakeFirst();
  if (other)
    throw new ProductFieldError({
      sku: `SKU ${sku} is already used by product #${other.id} (${other.title.slice(0, 60)}).`,
    });
}

function slugify(text: string): string {
  return (
    text
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "product"
  );
}

/** The stored columns for the fields the form edits. */
export function productColumns(
  input: ProductEditInput,
  refs: { brandId: number; categoryId: number },
  ukRule: DerivationRule,
) {
  return {
    sku: input.sku,
    title: input.title,
    brand_id: refs.brandId,
    category_id: refs.categoryId,
    colors: JSON.stringify(input.colors),
    price_cents: input.price,
    discount_percent: input.discount_percent,
    sale_price_cents: discountedPriceCents(input.price, input.discount_percent),
    ...ukPriceColumns(
      { priceCents: input.price, discountPercent: input.discount_percent, ukPricePence: input.uk_price },
      ukRule,
    ),
    low_stock_threshold: input.low_stock_threshold,
    description: input.description,
    features: JSON.stringify(input.features),
    model: input.model,
    material: input.material,
    weight_grams: input.weight_grams,
    country_of_origin: input.country_of_origin,
    manufacturer: input.manufacturer,
    return_policy: input.return_policy,
  };
}

/** Creates a product inside `trx` (also used by the CSV import); its stock arrives through the ledger. */
export async function insertProduct(
  trx: Transaction<Database>,
  actor: StaffActor,
  input: ProductInput,
  options: { reason?: "received" | "import" } = {},
): Promise<number> {
  const refs = await resolveBrandAndCategory(trx, input.brand, input.category);
  await assertSkuFree(trx, input.sku);
  const columns = productColumns(input, refs, await readUkPriceRule(trx, { forSaving: true }));
  const now = new Date().toISOString();
  const row = await trx
    .insertInto("products")
    .values({
      ...columns,
      slug: `${slugify(input.title)}-${slugify(input.sku)}`,
      stock_quantity: 0,
      image_count: 1,
      rating: 5,
      featured: 0,
      created_at: now,
      updated_at: now,
      archived_at: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  if (input.stock > 0) {
    await moveStock(trx, {
      productId: id,
      delta: input.stock,
      reason: options.reason ?? "received",
      actor: ledgerActor(actor),
      note: "Stock when the product was created",
    });
  }
  await updateVocabulary(trx, null, await searchTextOf(trx, id));
  await writeAudit(trx, actor, {
    action: "product.create",
    objectType: "product",
    objectId: id,
    after: { ...columns, stock_quantity: input.stock },
  });
  await bumpCatalogVersion(trx);
  return id;
}

export async function createProduct(db: Db, actor: StaffActor, input: ProductInput): Promise<number> {
  assertCan(actor, { product: ["create"] });
  try {
    return await withTransactionRetry(() => db.transaction().execute((trx) => insertProduct(trx, actor, input)));
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ProductFieldError({ sku: `SKU ${input.sku} is already used by another product.` });
    throw error;
  }
}

/**
 * Saves an edit inside `trx` when the product is still at `expectedVersion` (null skips the
 * check: the CSV import, whose preview check stands in for it). Returns the changed fields.
 */
export async function applyProductEdit(
  trx: Transaction<Database>,
  actor: StaffActor,
  id: number,
  input: ProductEditInput,
  expectedVersion: string | null,
): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }> {
  const current = await trx.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
  if (!current) throw new NotFoundError("not_found", "That product doesn't exist.");
  if (expectedVersion !== null && versionOf(current) !== expectedVersion) throw new ProductConflictError();
  const refs = await resolveBrandAndCategory(trx, input.brand, input.category);
  await assertSkuFree(trx, input.sku, id);
  const columns = productColumns(input, refs, await readUkPriceRule(trx, { forSaving: true }));
  const diff = diffFields(current as unknown as Record<string, unknown>, columns);
  if (Object.keys(diff.after).length === 0) return diff;
  const textBefore = current.archived_at ? null : await searchTextOf(trx, id);
  const stamp = nextStamp(current.updated_at);
  let update = trx
    .updateTable("products")
    .set({ ...columns, updated_at: stamp })
    .where("id", "=", id);
  update =
    current.updated_at === null
      ? update.where("updated_at", "is", null)
      : update.where("updated_at", "=", current.updated_at);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ProductConflictError();
  if (!current.archived_at) await updateVocabulary(trx, textBefore, await searchTextOf(trx, id));
  await writeAudit(trx, actor, { action: "product.update", objectType: "product", objectId: id, ...diff });
  await bumpCatalogVersion(trx);
  return diff;
}

export async function updateProduct(
  db: Db,
  actor: StaffActor,
  id: number,
  input: ProductEditInput,
  expectedVersion: string,
): Promise<{ changed: string[] }> {
  assertCan(actor, { product: ["update"] });
  try {
    const diff = await withTransactionRetry(() =>
      db.transaction().execute((trx) => applyProductEdit(trx, actor, id, input, expectedVersion)),
    );
    return { changed: Object.keys(diff.after) };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ProductFieldError({ sku: `SKU ${input.sku} is already used by another product.` });
    throw error;
  }
}
