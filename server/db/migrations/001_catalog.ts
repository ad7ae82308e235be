import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  const id = kind === "postgres" ? "serial" : "integer";
  // Categories and brands are alike: a name, its slug, and its place in the lists.
  for (const table of ["categories", "brands"]) {
    await db.schema
      .createTable(table)
      .addColumn("id", id, (c) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn("name", "text", (c) => c.notNull().unique())
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("position", "integer", (c) => c.notNull())
      .execute();
  }
  await db.schema
    .createTable("products")
    .addColumn("id", id, (c) => (kind === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("sku", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("features", "text", (c) => c.notNull())
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents > 0`))
    .addColumn("discount_percent", "integer", (c) => c.check(sql`discount_percent between 1 and 90`))
    .addColumn("sale_price_cents", "integer", (c) => c.notNull())
    .addColumn("colors", "text", (c) => c.notNull())
    .addColumn("stock_quantity", "integer", (c) => c.notNull().check(sql`stock_quantity >= 0`))
    .addColumn("brand_id", "integer", (c) => c.notNull().references("brands.id"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id"))
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("material", "text", (c) => c.notNull())
    .addColumn("weight_grams", "integer", (c) => c.notNull())
    .addColumn("country_of_origin", "text", (c) => c.notNull())
    .addColumn("manufacturer", "text", (c) => c.notNull())
    .addColumn("return_policy", "text", (c) => c.notNull())
    .addColumn("image_count", "integer", (c) => c.notNull().check(sql`image_count between 1 and 4`))
    .addColumn("rating", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("featured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("products_category_idx").on("products").columns(["category_id", "id"]).execute();
  await db.schema.createIndex("products_brand_idx").on("products").columns(["brand_id", "id"]).execute();
  await db.schema.createIndex("products_sale_price_idx").on("products").column("sale_price_cents").execute();
  await db.schema.createIndex("products_created_idx").on("products").column("created_at").execute();
  await db.schema.createIndex("products_featured_idx").on("products").column("featured").execute();
}
