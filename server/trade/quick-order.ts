/**
 * Quick order: lines of SKU and quantity, typed as rows or pasted / uploaded as CSV
 * (`sku,quantity`), checked line by line against the catalog, and the good ones put in the cart
 * in one transaction (server/cart/add-lines.ts).
 */
import { parse } from "csv-parse/sync";
import { MAX_LINE_QUANTITY, parseWholeQuantity } from "../../app/lib/order-rules.ts";
import { formatCount } from "../../app/lib/numbers.ts";
import { QUICK_ORDER_MAX_LINES, type QuickOrderCheck, type QuickOrderLine } from "../../app/lib/quick-order-types.ts";
import { addLinesToCart, CAP_REASONS, cappedAddText } from "../cart/add-lines.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";
import type { Db } from "../db/connection.ts";
import { DomainError, InvalidError } from "../errors.ts";

/** One line as the buyer gave it, before any checking. */
export interface RawQuickOrderLine {
  /** "Line 7" of the CSV, or "Row 3" of the typed rows. */
  label: string;
  sku: string;
  quantity: string;
}

const SKU_MAX = 64;

function tooMany(count: number): DomainError {
  return new InvalidError(
    "QUICK_ORDER_TOO_LONG",
    `A quick order takes at most ${QUICK_ORDER_MAX_LINES} lines; this one has ${formatCount(count)}.`,
  );
}

/**
 * The CSV's lines, numbered as in the file (a `sku,quantity` header line is skipped, blank lines
 * are ignored). A line with one value is a SKU with no quantity; extra values are ignored.
 */
export function parseQuickOrderCsv(text: string): RawQuickOrderLine[] {
  if (!text.trim()) return [];
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text.replace(/^\uFEFF/, ""), {
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      delimiter: [",", ";", "\t"],
    }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new InvalidError(
      "QUICK_ORDER_BAD_CSV",
      `The CSV could not be read${line ? ` at line ${line}` : ""}: use one "sku,quantity" pair per line.`,
    );
  }
  const lines = records
    .filter(({ record }, i) => !(i === 0 && /^sku$/i.test(record[0] ?? "")))
    .filter(({ record }) => record.some((cell) => cell !== ""))
    .map(({ record, info }) => ({
      label: `Line ${info.lines}`,
      sku: (record[0] ?? "").slice(0, SKU_MAX),
      quantity: (record[1] ?? "").slice(0, 12),
    }));
  if (lines.length > QUICK_ORDER_MAX_LINES) throw tooMany(lines.length);
  return lines;
}

/** The typed rows that hold anything, numbered as on the page. */
export function quickOrderRows(skus: string[], quantities: string[]): RawQuickOrderLine[] {
  const rows = skus
    .map((sku, i) => ({
      label: `Row ${i + 1}`,
      sku: sku.trim().slice(0, SKU_MAX),
      quantity: (quantities[i] ?? "").trim().slice(0, 12),
    }))
    .filter((row) => row.sku !== "" || row.quantity !== "");
  if (rows.length > QUICK_ORDER_MAX_LINES) throw tooMany(rows.length);
  return rows;
}

const normalizeSku = (sku: string) => sku.trim().toUpperCase();

/**
 * Checks every line at once: unknown SKU, archived product, a quantity that isn't a whole number,
 * above one order's cap or above the stock (offering what there is), and merges a SKU given twice
 * into its first line. Only SKUs and quantities are read; prices always come from the database.
 */
export async function checkQuickOrder(db: Db, raw: RawQuickOrderLine[]): Promise<QuickOrderCheck> {
  if (raw.length > QUICK_ORDER_MAX_LINES) throw tooMany(raw.length);
  // PostgreSQL refuses a NUL in any text (a 500): such a SKU can't exist, so it is never looked up.
  const skus = [...new Set(raw.map((l) => normalizeSku(l.sku)).filter((s) => s !== "" && !s.includes("\u0000")))];
  const products = new Map<string, { id: number; title: string; stock: number; archived: boolean; colors: string }>();
  for (let i = 0; i < skus.length; i += 250) {
    const rows = await db
      .selectFrom("products")
      .select(["id", "sku", "title", "stock_quantity", "archived_at", "colors"])
      .where("sku", "in", skus.slice(i, i + 250))
      .execute();
    for (const r of rows)
      products.set(r.sku.toUpperCase(), {
        id: r.id,
        title: r.title,
        stock: r.stock_quantity,
        archived: r.archived_at != null,
        colors: r.colors,
      });
  }

  const lines: QuickOrderLine[] = [];
  const firstBySku = new Map<string, QuickOrderLine>();
  for (const { label, sku: given, quantity: quantityText } of raw) {
    const sku = normalizeSku(given);
    const line: QuickOrderLine = {
      label,
      sku: given,
      quantity: null,
      status: "problem",
      reason: null,
      productId: null,
      title: null,
      color: null,
      available: null,
      mergedInto: null,
    };
    lines.push(line);
    if (!sku) {
      line.reason = "Give a SKU.";
      continue;
    }
    const quantity = parseWholeQuantity(quantityText === "" ? null : quantityText);
    if (quantity == null) {
      line.reason =
        quantityText === ""
          ? "Give a quantity."
          : `"${quantityText}" is not a quantity: give a whole number of at least 1.`;
      continue;
    }
    line.quantity = quantity;
    const product = products.get(sku);
    if (!product) {
      line.reason = `Unknown SKU ${given}.`;
      continue;
    }
    line.productId = product.id;
    line.title = product.title;
    line.color = (JSON.parse(product.colors) as string[])[0] ?? "";
    if (product.archived) {
      line.reason = `${product.title} is no longer sold.`;
      continue;
    }
    const first = firstBySku.get(sku);
    if (first) {
      line.status = "merged";
      line.mergedInto = first.label;
      line.reason = `Merged into ${first.label.toLowerCase()}.`;
      first.quantity = (first.quantity ?? 0) + quantity;
      continue;
    }
    firstBySku.set(sku, line);
  }

  for (const line of firstBySku.values()) {
    const product = products.get(normalizeSku(line.sku))!;
    const wanted = line.quantity!;
    const cap = Math.min(product.stock, MAX_LINE_QUANTITY);
    if (product.stock < 1) line.reason = `${product.title} is out of stock.`;
    else if (wanted > product.stock && product.stock <= MAX_LINE_QUANTITY)
      line.reason = `Only ${product.stock} of ${product.title} in stock.`;
    else if (wanted > MAX_LINE_QUANTITY)
      line.reason = `At most ${MAX_LINE_QUANTITY} of one item fit in a single order.`;
    else line.status = "ok";
    if (line.status !== "ok" && cap > 0) line.available = cap;
  }

  const count = (status: QuickOrderLine["status"]) => lines.filter((l) => l.status === status).length;
  return { lines, ok: count("ok"), problems: count("problem"), merged: count("merged") };
}

export interface QuickOrderAdded {
  check: QuickOrderCheck;
  addedLines: number;
  addedUnits: number;
  /** The lines as given that did not go to the cart (problems not taken up, or capped to nothing). */
  leftOver: RawQuickOrderLine[];
}

/**
 * Checks the lines again (never trusting an earlier check) and puts the good ones in the cart in
 * one transaction; a line over the stock goes in with the available amount when the buyer took
 * the offer (`takeAvailable` holds its label).
 */
export async function addQuickOrderToCart(
  db: Db,
  owner: string,
  raw: RawQuickOrderLine[],
  takeAvailable: ReadonlySet<string>,
  market: MarketId = DEFAULT_MARKET,
): Promise<QuickOrderAdded> {
  const check = await checkQuickOrder(db, raw);
  const chosen = check.lines.filter(
    (l) => l.status === "ok" || (l.status === "problem" && l.available && takeAvailable.has(l.label)),
  );
  const added = await addLinesToCart(
    db,
    owner,
    chosen.map((l) => ({
      productId: l.productId!,
      color: l.color!,
      quantity: l.status === "ok" ? l.quantity! : l.available!,
    })),
    market,
  );
  added.forEach((result, i) => {
    const line = chosen[i];
    if (result.cappedBy && result.added < result.quantity) {
      line.status = result.added > 0 ? "ok" : "problem";
      line.reason = cappedAddText(result.added, CAP_REASONS[result.cappedBy]);
    } else {
      line.status = "ok";
      line.reason = line.reason ? `${result.added} added.` : null;
    }
  });
  const inCart = new Set(chosen.filter((_, i) => added[i].added > 0).map((l) => l.label));
  return {
    check,
    addedLines: inCart.size,
    addedUnits: added.reduce((n, r) => n + r.added, 0),
    leftOver: raw.filter((r, i) => !inCart.has(r.label) && !inCart.has(check.lines[i].mergedInto ?? "")),
  };
}

/** Up to 8 live SKUs starting with what was typed, for the SKU fields' suggestions. */
export async function suggestSkus(db: Db, typed: string): Promise<{ sku: string; title: string }[]> {
  const prefix = normalizeSku(typed)
    .replace(/[^A-Z0-9-]/g, "")
    .slice(0, SKU_MAX);
  if (prefix.length < 2) return [];
  return (
    db
      .selectFrom("products")
      .select(["sku", "title"])
      // Only letters, digits and hyphens are left, so the pattern has no wildcard but its own.
      .where("sku", "like", `${prefix}%`)
      .where("archived_at", "is", null)
      .orderBy("sku")
      .limit(8)
      .execute()
  );
}
