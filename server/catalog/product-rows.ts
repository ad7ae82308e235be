/** Reading product rows the way the product form, the export and the shop's product page need them. */
import { productToFields } from "../../app/lib/product-schema.ts";
import type { Db } from "../db/connection.ts";

/** A products.id that can exist (a positive 32-bit integer). */
export const isProductId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

/** A JSON list column (colors, features); anything unreadable is an empty list. */
export function parseJsonList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

/** Products (`p`) joined to their brand (`b`) and category (`c`); add .select/.where as needed. */
export function productsWithBrandAndCategory(db: Db) {
  return db
    .selectFrom("products as p")
    .innerJoin("brands as b", "b.id", "p.brand_id")
    .innerJoin("categories as c", "c.id", "p.category_id");
}

/** Every product column with its brand's and category's slug; add .where/.select as needed. */
export function productsWithSlugs(db: Db) {
  return productsWithBrandAndCategory(db).selectAll("p").select(["b.slug as brand_slug", "c.slug as category_slug"]);
}

export type ProductRowWithSlugs = Awaited<ReturnType<ReturnType<typeof productsWithSlugs>["executeTakeFirstOrThrow"]>>;

type SpecColumns = "model" | "material" | "weight_grams" | "country_of_origin" | "manufacturer" | "return_policy";

/** A product row's specification fields, as the product form and the product page name them. */
export function productSpecs(row: Pick<ProductRowWithSlugs, SpecColumns>) {
  return {
    model: row.model,
    material: row.material,
    weightGrams: row.weight_grams,
    countryOfOrigin: row.country_of_origin,
    manufacturer: row.manufacturer,
    returnPolicy: row.return_policy,
  };
}

/** A product row as the product form's text fields (the import's and export's columns). */
export function productRowToFields(row: ProductRowWithSlugs) {
  return productToFields({
    sku: row.sku,
    title: row.title,
    brandSlug: row.brand_slug,
    categorySlug: row.category_slug,
    colors: parseJsonList(row.colors),
    priceCents: row.price_cents,
    ukPricePence: Number(row.uk_price_set) === 1 ? Number(row.uk_price_pence) : null,
    discountPercent: row.discount_percent,
    stock: row.stock_quantity,
    lowStockThreshold: Number(row.low_stock_threshold),
    description: row.description,
    features: parseJsonList(row.features),
    ...productSpecs(row),
  });
}
