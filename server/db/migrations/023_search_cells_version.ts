import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * SQLite: a counter that moves whenever a product joins or leaves search_products (created,
 * archived, unarchived, deleted) or changes category or brand: what each process's map of products
 * to facet cells depends on (server/catalog/search-cells.ts, docs/decisions/0023-search-at-a-million.md).
 * Prices and stock do not move it. Triggers keep it, so every way of writing a product does.
 */
export async function up(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind !== "sqlite") return;
  await sql`CREATE TABLE search_cells_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`.execute(
    db,
  );
  await sql`INSERT INTO search_cells_version (id, version) VALUES (1, 0)`.execute(db);
  await createCellTriggers(db, kind);
}

/** Also run by the search schema's repair (migration 028), which re-creates search_products. */
export async function createCellTriggers(db: Kysely<any>, kind: DbKind): Promise<void> {
  if (kind !== "sqlite") return;
  const bump = "UPDATE search_cells_version SET version = version + 1;";
  await sql
    .raw(`CREATE TRIGGER IF NOT EXISTS search_cells_insert AFTER INSERT ON search_products BEGIN ${bump} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER IF NOT EXISTS search_cells_delete AFTER DELETE ON search_products BEGIN ${bump} END`)
    .execute(db);
  await sql
    .raw(
      `
    CREATE TRIGGER IF NOT EXISTS search_cells_update AFTER UPDATE OF product_id, category_id, brand_id ON search_products
    WHEN old.product_id IS NOT new.product_id OR old.category_id IS NOT new.category_id OR old.brand_id IS NOT new.brand_id
    BEGIN ${bump} END`,
    )
    .execute(db);
  await sql.raw(bump).execute(db);
}
