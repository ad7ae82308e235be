/**
 * The stock ledger. Every change to a product's stock goes through moveStock or moveStocks: one
 * conditional update that never takes the stock below zero, and one `stock_movements` row with
 * the stock before and after, in the caller's transaction, so the change and its record commit
 * or roll back together.
 */
import { sql, type Transaction } from "kysely";
import { bumpCatalogVersion, catalogVersionRow } from "../catalog/version.ts";
import { dbKind } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { OutOfStockError } from "../errors.ts";
import { STOCK_REASONS, type StockReason } from "./stock-reasons.ts";

/** Not enough stock for some lines (their products named): nothing was written. */
export class LinesOutOfStockError extends OutOfStockError {
  readonly productIds: number[];
  constructor(titles: string[], productIds: number[]) {
    super(
      "OUT_OF_STOCK",
      `Sorry — not enough stock left for: ${titles.join(", ")}. Nothing was charged and your order was not placed; please update your cart.`,
    );
    this.productIds = productIds;
  }
}

export { STOCK_REASONS, type StockReason };

export interface StockMove {
  productId: number;
  /** Units added (positive) or taken (negative, e.g. a sale). Never zero. */
  delta: number;
  reason: StockReason;
  orderId?: number | null;
  /** Who made the change: "user:<id>", "staff:<id>", "system:<job>"… */
  actor?: string | null;
  note?: string | null;
}

export interface StockMoveResult {
  stockBefore: number;
  stockAfter: number;
  movementId: number;
}

function check(move: StockMove) {
  if (!Number.isSafeInteger(move.delta) || move.delta === 0)
    throw new RangeError(`Stock delta must be a non-zero integer, got ${move.delta}`);
  if (!(STOCK_REASONS as readonly string[]).includes(move.reason))
    throw new RangeError(`Unknown stock reason ${move.reason}`);
}

function ledgerRow(move: StockMove, now: string) {
  return {
    reason: move.reason,
    orderId: move.orderId ?? null,
    actor: move.actor ?? null,
    note: move.note?.slice(0, 500) ?? null,
    now,
  };
}

async function applyMove(trx: Transaction<Database>, move: StockMove, now: string): Promise<StockMoveResult | null> {
  const updated = await trx
    .updateTable("products")
    .set((eb) => ({ stock_quantity: eb("stock_quantity", "+", move.delta) }))
    .where("id", "=", move.productId)
    .where((eb) => eb(eb("stock_quantity", "+", move.delta), ">=", 0))
    .returning("stock_quantity")
    .executeTakeFirst();
  if (!updated) return null;
  const stockAfter = Number(updated.stock_quantity);
  const stockBefore = stockAfter - move.delta;
  const ledger = ledgerRow(move, now);
  const row = await trx
    .insertInto("stock_movements")
    .values({
      product_id: move.productId,
      delta: move.delta,
      stock_before: stockBefore,
      stock_after: stockAfter,
      reason: ledger.reason,
      order_id: ledger.orderId,
      actor: ledger.actor,
      note: ledger.note,
      created_at: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { stockBefore, stockAfter, movementId: Number(row.id) };
}

/**
 * PostgreSQL: the same conditional update and ledger row in one statement (one round trip instead
 * of two), and, when `bumpRow` is given, the catalog version bump too, after the product's lock as
 * in moveStocks. SQLite has no data-modifying WITH, hence the two paths.
 */
async function applyMoveInOneStatement(
  trx: Transaction<Database>,
  move: StockMove,
  now: string,
  bumpRow: number | null,
): Promise<StockMoveResult | null> {
  const ledger = ledgerRow(move, now);
  const bump =
    bumpRow == null
      ? sql``
      : sql`, bumped AS (UPDATE catalog_version SET version = version + 1 WHERE id = ${bumpRow} AND EXISTS (SELECT 1 FROM moved))`;
  const { rows } = await sql<{ id: number | string; stock_after: number | string }>`
    WITH moved AS (
      UPDATE products SET stock_quantity = stock_quantity + ${move.delta}
      WHERE id = ${move.productId} AND stock_quantity + ${move.delta} >= 0
      RETURNING stock_quantity
    )${bump}
    INSERT INTO stock_movements (product_id, delta, stock_before, stock_after, reason, order_id, actor, note, created_at)
    SELECT ${move.productId}::integer, ${move.delta}::integer, stock_quantity - ${move.delta}::integer, stock_quantity, ${ledger.reason}::text,
      ${ledger.orderId}::integer, ${ledger.actor}::text, ${ledger.note}::text, ${now}::text
    FROM moved
    RETURNING id, stock_after`.execute(trx);
  const row = rows[0];
  if (!row) return null;
  const stockAfter = Number(row.stock_after);
  return { stockBefore: stockAfter - move.delta, stockAfter, movementId: Number(row.id) };
}

/**
 * Applies several moves in one transaction, locking the products in id order (so two
 * transactions over the same products can never wait for each other in a cycle), and bumps the
 * catalog version once, after the last product lock. Returns one result per move, in the order
 * given; null where the stock was short (or the product is gone): nothing was changed for that
 * move, and the caller decides whether to roll the whole transaction back.
 */
export async function moveStocks(
  trx: Transaction<Database>,
  moves: StockMove[],
  options: { now?: Date } = {},
): Promise<(StockMoveResult | null)[]> {
  for (const move of moves) check(move);
  const now = (options.now ?? new Date()).toISOString();
  const order = moves
    .map((move, index) => ({ move, index }))
    .sort((a, b) => a.move.productId - b.move.productId || a.index - b.index);
  const results: (StockMoveResult | null)[] = new Array<StockMoveResult | null>(moves.length).fill(null);
  const oneStatement = dbKind(trx) === "postgres";
  const bumpRow = order.length ? catalogVersionRow(order[0].move.productId) : null;
  let bumped = false;
  for (const [i, { move, index }] of order.entries()) {
    if (!oneStatement) {
      results[index] = await applyMove(trx, move, now);
      continue;
    }
    const last = i === order.length - 1;
    results[index] = await applyMoveInOneStatement(trx, move, now, last ? bumpRow : null);
    bumped = last && results[index] !== null;
  }
  if (!bumped && results.some((r) => r !== null)) await bumpCatalogVersion(trx, order[0]?.move.productId);
  return results;
}

/** One stock change and its ledger row; null when the stock was short (nothing changed). */
export async function moveStock(
  trx: Transaction<Database>,
  move: StockMove,
  options: { now?: Date } = {},
): Promise<StockMoveResult | null> {
  const [result] = await moveStocks(trx, [move], options);
  return result ?? null;
}
