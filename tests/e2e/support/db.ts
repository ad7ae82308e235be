import path from "node:path";
import { DatabaseSync } from "node:sqlite";

/**
 * Read-only access to the SQLite database of the server that Playwright started
 * (scripts/e2e-server.mjs puts it at .tmp/e2e-<port>/store.db under the project root, where
 * Playwright runs), so tests can compare the
 * screens with the catalog they were rendered from.
 */
const port = process.env.E2E_PORT ?? "3100";
export const storeDbPath = path.resolve(process.cwd(), ".tmp", `e2e-${port}`, "store.db");

let handle: DatabaseSync | undefined;

function db(): DatabaseSync {
  handle ??= new DatabaseSync(storeDbPath, { readOnly: true });
  return handle;
}

export function queryAll<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): T[] {
  return db()
    .prepare(sql)
    .all(...params) as T[];
}

export function queryOne<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): T {
  const row = db()
    .prepare(sql)
    .get(...params) as T | undefined;
  if (!row) throw new Error(`No row for: ${sql} ${JSON.stringify(params)}`);
  return row;
}

export interface ProductRow {
  id: number;
  sku: string;
  title: string;
  description: string;
  price_cents: number;
  discount_percent: number | null;
  sale_price_cents: number;
  stock_quantity: number;
  colors: string;
  image_count: number;
  model: string;
  material: string;
  weight_grams: number;
  country_of_origin: string;
  manufacturer: string;
  return_policy: string;
  brand_name: string;
  brand_slug: string;
  category_name: string;
  featured: number;
}

const PRODUCT_SELECT = `
  SELECT p.*, b.name AS brand_name, b.slug AS brand_slug, c.name AS category_name
  FROM products p JOIN brands b ON b.id = p.brand_id JOIN categories c ON c.id = p.category_id`;

export function product(id: number): ProductRow {
  return queryOne<ProductRow>(`${PRODUCT_SELECT} WHERE p.id = ?`, id);
}

export function firstProductWhere(where: string): ProductRow {
  return queryOne<ProductRow>(`${PRODUCT_SELECT} WHERE ${where} ORDER BY p.id LIMIT 1`);
}

/** Formats cents the way a shopper reads US prices: $1,234.50. */
export function usd(cents: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}

/** Pence as a UK page writes them, by Intl (not the store's own formatMoney), e.g. "£1,234.56". */
export function gbp(pence: number): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" }).format(pence / 100);
}
