/**
 * CSV export of products and stock, streamed: rows are read by id in pages of 1,000 (keyset), so
 * a 100k-product catalog never sits in memory at once. The columns are the import's (the product
 * form's field names), plus id, archived and updated_at, which the import ignores.
 */
import { stringify } from "csv-stringify/sync";
import { PRODUCT_FIELDS, productToFields } from "../../app/lib/product-schema.ts";
import type { Db } from "../db/connection.ts";
import { assertCan, type StaffActor } from "./staff-actor.ts";

const PAGE = 1000;
export const EXPORT_COLUMNS = ["id", ...PRODUCT_FIELDS, "archived", "updated_at"] as const;

function list(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** Cells that a spreadsheet would run as a formula start with a quote mark (CSV injection). */
function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
}

/** The CSV as chunks of text: the header, then one chunk per page of products. */
export async function* exportProductsCsv(db: Db, actor: StaffActor): AsyncGenerator<string> {
  assertCan(actor, { product: ["export"] });
  yield stringify([EXPORT_COLUMNS as unknown as string[]]);
  let lastId = 0;
  for (;;) {
    const rows = await db
      .selectFrom("products as p")
      .innerJoin("brands as b", "b.id", "p.brand_id")
      .innerJoin("categories as c", "c.id", "p.category_id")
      .selectAll("p")
      .select(["b.slug as brand_slug", "c.slug as category_slug"])
      .where("p.id", ">", lastId)
      .orderBy("p.id")
      .limit(PAGE)
      .execute();
    if (rows.length === 0) return;
    yield stringify(
      rows.map((r) => {
        const fields = productToFields({
          sku: r.sku,
          title: r.title,
          brandSlug: r.brand_slug,
          categorySlug: r.category_slug,
          colors: list(r.colors),
          priceCents: r.price_cents,
          discountPercent: r.discount_percent,
          stock: r.stock_quantity,
          lowStockThreshold: Number(r.low_stock_threshold),
          description: r.description,
          features: list(r.features),
          model: r.model,
          material: r.material,
          weightGrams: r.weight_grams,
          countryOfOrigin: r.country_of_origin,
          manufacturer: r.manufacturer,
          returnPolicy: r.return_policy,
        });
        return [String(r.id), ...PRODUCT_FIELDS.map((f) => safeCell(fields[f])), r.archived_at ? "yes" : "", r.updated_at ?? r.created_at];
      }),
    );
    lastId = Number(rows[rows.length - 1]!.id);
  }
}
