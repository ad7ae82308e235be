/**
 * CSV import of products or stock. Two shapes: `sku,stock` (stock counts), or the full product
 * columns (the form's field names, as the export writes them; `id`, `archived` and `updated_at`
 * are ignored). previewImport reads the file and the catalog and says what each row would do and
 * which rows are bad (by line number), writing nothing. applyImport plans again inside one
 * transaction and refuses unless the plan is exactly the one previewed (same file, same catalog
 * state: the plan's hash), then writes it all: products, stock through the ledger (reason
 * "import"), audit rows, one catalog version bump.
 */
import { centsToDecimalString } from "../../app/lib/money.ts";
import { formatCount } from "../../app/lib/numbers.ts";
import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import type { Transaction } from "kysely";
import {
  PRODUCT_FIELDS,
  productEditSchema,
  productSchema,
  stockRowSchema,
  validateWith,
  type ProductInput,
} from "../../app/lib/product-schema.ts";
import { writeAudit } from "../audit/audit.ts";
import { dbKind, type Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, TooLargeError, UnprocessableError } from "../errors.ts";
import { moveStock } from "../inventory/stock.ts";
import { readUkPriceRule } from "./market-prices.ts";
import { applyProductEdit, insertProduct, productColumns } from "./product-form.ts";
import { assertCan, ledgerActor, type StaffActor } from "./staff-actor.ts";
import { bumpCatalogVersion } from "./version.ts";

export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
const MAX_IMPORT_ROWS = 20_000;
const IGNORED_COLUMNS = new Set(["id", "uk_price_in_use", "archived", "updated_at"]);
/** A full import may leave these out: each product keeps what it has (a new one: the UK price rule's price). */
const OPTIONAL_COLUMNS = new Set<string>(["uk_price"]);
const LOOKUP_BATCH = 500;

type ImportMode = "stock" | "full";

interface PlannedRow {
  line: number;
  sku: string;
  action: "create" | "update" | "unchanged";
  /** What changes, readable: "stock 12 → 20", "price", "title"… */
  changes: string[];
}

export interface ImportPlan {
  mode: ImportMode | null;
  rows: PlannedRow[];
  errors: { line: number; message: string }[];
  /** Over the file and the plan: apply refuses when it differs. */
  hash: string;
}

interface ParsedRow {
  line: number;
  sku: string;
  stock: number;
  product?: ProductInput;
}

function fail(line: number, message: string) {
  return { line, message };
}

/** Reads the CSV: the mode from the header, each row validated by the product schema. */
function parseRows(text: string): {
  mode: ImportMode | null;
  rows: ParsedRow[];
  errors: { line: number; message: string }[];
  /** The header has a uk_price column. */
  ukPrices?: boolean;
} {
  const errors: { line: number; message: string }[] = [];
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      trim: false,
    }) as never;
  } catch (error) {
    const e = error as { lines?: number; message?: string };
    return {
      mode: null,
      rows: [],
      errors: [fail(e.lines ?? 1, `The file isn't valid CSV: ${(e.message ?? "").split(":")[0]}.`)],
    };
  }
  const startLine = (r: { record: string[]; info: { lines: number } }) =>
    r.info.lines - r.record.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
  const [head, ...body] = records;
  if (!head) return { mode: null, rows: [], errors: [fail(1, "The file is empty.")] };
  const header = head.record.map((h) => h.trim().toLowerCase());
  const known = new Set<string>([...PRODUCT_FIELDS, ...IGNORED_COLUMNS]);
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length)
    return {
      mode: null,
      rows: [],
      errors: [fail(1, `Unknown column${unknown.length > 1 ? "s" : ""}: ${unknown.slice(0, 5).join(", ")}.`)],
    };
  if (new Set(header).size !== header.length)
    return { mode: null, rows: [], errors: [fail(1, "A column appears twice in the header.")] };
  const used = header.filter((h) => !IGNORED_COLUMNS.has(h));
  let mode: ImportMode;
  if (used.length === 2 && used.includes("sku") && used.includes("stock")) mode = "stock";
  else if (PRODUCT_FIELDS.every((f) => used.includes(f) || OPTIONAL_COLUMNS.has(f))) mode = "full";
  else {
    const missing = PRODUCT_FIELDS.filter((f) => !used.includes(f) && !OPTIONAL_COLUMNS.has(f));
    return {
      mode: null,
      rows: [],
      errors: [
        fail(
          1,
          `The header must be "sku,stock" or have every product column; missing: ${missing.slice(0, 6).join(", ")}${missing.length > 6 ? "…" : ""}.`,
        ),
      ],
    };
  }
  if (body.length > MAX_IMPORT_ROWS)
    return {
      mode,
      rows: [],
      errors: [
        fail(
          MAX_IMPORT_ROWS + 2,
          `The file has ${formatCount(body.length)} rows; import at most ${formatCount(MAX_IMPORT_ROWS)} at a time.`,
        ),
      ],
    };

  const rows: ParsedRow[] = [];
  const seen = new Map<string, number>();
  for (const r of body) {
    const line = startLine(r);
    if (r.record.length !== header.length) {
      errors.push(fail(line, `Expected ${header.length} values, found ${r.record.length}.`));
      continue;
    }
    const values = Object.fromEntries(header.map((h, i) => [h, r.record[i] ?? ""]));
    const checked = mode === "stock" ? validateWith(stockRowSchema, values) : validateWith(productSchema, values);
    if (!checked.ok) {
      const [field, message] = Object.entries(checked.errors)[0];
      errors.push(fail(line, `${field}: ${message}`));
      continue;
    }
    const data = checked.data;
    const earlier = seen.get(data.sku);
    if (earlier !== undefined) {
      errors.push(fail(line, `SKU ${data.sku} already appears on line ${earlier}.`));
      continue;
    }
    seen.set(data.sku, line);
    rows.push({
      line,
      sku: data.sku,
      stock: data.stock,
      product: mode === "full" ? (checked.data as ProductInput) : undefined,
    });
  }
  return { mode, rows, errors, ukPrices: header.includes("uk_price") };
}

type Handle = Db | Transaction<Database>;

/** Works out what each row does against the catalog as `db` sees it now. */
async function plan(
  db: Handle,
  raw: string,
  lock: boolean,
): Promise<ImportPlan & { parsed: ParsedRow[]; ids: Map<string, number> }> {
  // Line ends as a browser posts them (a textarea sends CRLF) must not change the plan's hash.
  const text = raw.replace(/\r\n?/g, "\n");
  const { mode, rows, errors, ukPrices } = parseRows(text);
  // Before the products are locked: the rule's lock is always taken first (market-prices.ts).
  const ukRule = await readUkPriceRule(db, { forSaving: lock });
  const existing = new Map<string, Awaited<ReturnType<typeof loadBySku>>[number]>();
  for (let i = 0; i < rows.length; i += LOOKUP_BATCH) {
    for (const p of await loadBySku(
      db,
      rows.slice(i, i + LOOKUP_BATCH).map((r) => r.sku),
      lock,
    ))
      existing.set(p.sku, p);
  }
  const refs = await Promise.all([
    db.selectFrom("brands").select(["id", "name", "slug"]).execute(),
    db.selectFrom("categories").select(["id", "name", "slug"]).execute(),
  ]);
  const find = (list: { id: number; name: string; slug: string }[], v: string) =>
    list.find((o) => o.slug === v.toLowerCase() || o.name.toLowerCase() === v.toLowerCase());
  const planned: PlannedRow[] = [];
  const valid: ParsedRow[] = [];
  for (const row of rows) {
    const current = existing.get(row.sku);
    if (row.product && current && !ukPrices)
      row.product.uk_price = Number(current.uk_price_set) === 1 ? Number(current.uk_price_pence) : null;
    const stockChange =
      current && current.stock_quantity !== row.stock ? [`stock ${current.stock_quantity} → ${row.stock}`] : [];
    if (mode === "stock") {
      if (!current) {
        errors.push(fail(row.line, `No product has SKU ${row.sku}.`));
        continue;
      }
      planned.push({
        line: row.line,
        sku: row.sku,
        action: stockChange.length ? "update" : "unchanged",
        changes: stockChange,
      });
      valid.push(row);
      continue;
    }
    const p = row.product!;
    const brand = find(refs[0], p.brand);
    const category = find(refs[1], p.category);
    if (!brand || !category) {
      errors.push(
        fail(
          row.line,
          !brand
            ? `brand: There is no brand "${p.brand.slice(0, 60)}".`
            : `category: There is no category "${p.category.slice(0, 60)}".`,
        ),
      );
      continue;
    }
    if (!current) {
      planned.push({ line: row.line, sku: row.sku, action: "create", changes: [`new product, stock ${row.stock}`] });
      valid.push(row);
      continue;
    }
    const columns = productColumns(
      productEditSchema.parse(editFields(p)),
      { brandId: Number(brand.id), categoryId: Number(category.id) },
      ukRule,
    );
    const changed = Object.keys(columns).filter(
      (k) =>
        String((current as Record<string, string | number | null>)[k] ?? "") !==
        String((columns as Record<string, string | number | null>)[k] ?? ""),
    );
    const changes = [...changed.filter((k) => !DERIVED_COLUMNS.has(k)).map(changeName), ...stockChange];
    planned.push({ line: row.line, sku: row.sku, action: changes.length ? "update" : "unchanged", changes });
    valid.push(row);
  }
  errors.sort((a, b) => a.line - b.line);
  const hash = createHash("sha256")
    .update(text)
    .update("\u0000")
    .update(JSON.stringify({ mode, planned, errors }))
    .digest("hex");
  return {
    mode,
    rows: planned,
    errors,
    hash,
    parsed: valid,
    ids: new Map([...existing].map(([sku, p]) => [sku, Number(p.id)])),
  };
}

/** Columns that follow from others, so a preview doesn't list them as changes of their own. */
const DERIVED_COLUMNS = new Set(["sale_price_cents", "uk_sale_price_pence", "uk_price_set"]);

/** A changed column as the preview names it: "price", "UK price", "low stock threshold"… */
function changeName(column: string): string {
  return column === "uk_price_pence" ? "UK price" : column.replace(/_cents$|_id$/, "").replaceAll("_", " ");
}

/** The form-shaped text of a parsed product (the edit schema re-reads it, without the stock). */
function editFields(p: ProductInput): Record<string, string> {
  return {
    ...Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v ?? "")])),
    price: (p.price / 100).toFixed(2),
    colors: p.colors.join(", "),
    features: p.features.join("\n"),
    discount_percent: p.discount_percent == null ? "" : String(p.discount_percent),
    uk_price: p.uk_price === null ? "" : centsToDecimalString(p.uk_price),
  };
}

async function loadBySku(db: Handle, skus: string[], lock: boolean) {
  if (skus.length === 0) return [];
  let q = db.selectFrom("products").selectAll().where("sku", "in", skus);
  if (lock && dbKind(db) === "postgres") q = q.forUpdate();
  return q.execute();
}

export async function previewImport(db: Db, actor: StaffActor, text: string): Promise<ImportPlan> {
  assertCan(actor, { product: ["import"] });
  if (Buffer.byteLength(text) > MAX_IMPORT_BYTES)
    throw new TooLargeError("import_too_large", "The file must be 10 MB or smaller.");
  const { mode, rows, errors, hash } = await plan(db, text, false);
  return { mode, rows, errors, hash };
}

class ImportChangedError extends ConflictError {
  constructor() {
    super("import_changed", "The file or the catalog changed since the preview. Check the new preview, then apply it.");
  }
}

/** Applies exactly the previewed plan, in one transaction; returns what was done. */
export async function applyImport(
  db: Db,
  actor: StaffActor,
  text: string,
  previewHash: string,
): Promise<{ created: number; updated: number }> {
  assertCan(actor, { product: ["import"], stock: ["adjust"] });
  if (Buffer.byteLength(text) > MAX_IMPORT_BYTES)
    throw new TooLargeError("import_too_large", "The file must be 10 MB or smaller.");
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const p = await plan(trx, text, true);
      if (p.hash !== previewHash) throw new ImportChangedError();
      if (p.errors.length)
        throw new UnprocessableError(
          "import_invalid",
          "Fix the bad rows first: nothing is imported while any row is wrong.",
        );
      let created = 0;
      let updated = 0;
      const byLine = new Map(p.rows.map((r) => [r.line, r]));
      for (const row of p.parsed) {
        const planned = byLine.get(row.line)!;
        if (planned.action === "unchanged") continue;
        if (planned.action === "create") {
          await insertProduct(trx, actor, row.product!, { reason: "import" });
          created++;
          continue;
        }
        const id = p.ids.get(row.sku)!;
        if (row.product) await applyProductEdit(trx, actor, id, productEditSchema.parse(editFields(row.product)), null);
        const current = await trx
          .selectFrom("products")
          .select("stock_quantity")
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        const delta = row.stock - current.stock_quantity;
        if (delta !== 0) {
          const moved = await moveStock(trx, {
            productId: id,
            delta,
            reason: "import",
            actor: ledgerActor(actor),
            note: `CSV import, line ${row.line}`,
          });
          if (!moved) throw new ImportChangedError();
          await writeAudit(trx, actor, {
            action: "stock.import",
            objectType: "product",
            objectId: id,
            before: { stock_quantity: moved.stockBefore },
            after: { stock_quantity: moved.stockAfter, movement_id: moved.movementId },
          });
        }
        updated++;
      }
      await writeAudit(trx, actor, {
        action: "product.import",
        objectType: "import",
        objectId: p.hash.slice(0, 16),
        after: { mode: p.mode, rows: p.rows.length, created, updated },
      });
      await bumpCatalogVersion(trx);
      return { created, updated };
    }),
  );
}
