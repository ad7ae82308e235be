/**
 * Staff changing a product's stock by hand (received, count correction, damaged, returned): one
 * ledger row through moveStock, with the staff member as its actor, and one audit row, in one
 * transaction. And the ledger as the back office shows it.
 */
import type { StockAdjustInput } from "../../app/lib/product-schema.ts";
import { writeAudit } from "../audit/audit.ts";
import { assertCan, ledgerActor, type StaffActor } from "../catalog/staff-actor.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { moveStock, type StockMoveResult, type StockReason } from "./stock.ts";

export async function adjustStock(
  db: Db,
  actor: StaffActor,
  productId: number,
  input: StockAdjustInput,
): Promise<StockMoveResult> {
  assertCan(actor, { stock: ["adjust"] });
  return db.transaction().execute(async (trx) => {
    const product = await trx
      .selectFrom("products")
      .select(["id", "stock_quantity"])
      .where("id", "=", productId)
      .executeTakeFirst();
    if (!product) throw new NotFoundError("not_found", "That product doesn't exist.");
    const result = await moveStock(trx, {
      productId,
      delta: input.change,
      reason: input.reason,
      actor: ledgerActor(actor),
      note: input.note || null,
    });
    if (!result) {
      throw new ConflictError(
        "stock_short",
        `Stock can't go below zero: there are ${product.stock_quantity} in stock, so the change can be at most −${product.stock_quantity}.`,
      );
    }
    await writeAudit(trx, actor, {
      action: "stock.adjust",
      objectType: "product",
      objectId: productId,
      before: { stock_quantity: result.stockBefore },
      after: {
        stock_quantity: result.stockAfter,
        reason: input.reason,
        note: input.note || null,
        movement_id: result.movementId,
      },
    });
    return result;
  });
}

export interface LedgerEntry {
  id: number;
  createdAt: string;
  /** A person's name for staff and customers, else the ledger's actor ("system:…") or "—". */
  who: string;
  delta: number;
  before: number;
  after: number;
  reason: StockReason;
  orderNumber: string | null;
  note: string | null;
}

/** The product's most recent stock movements, newest first. */
export async function recentLedger(db: Db, productId: number, limit = 20): Promise<LedgerEntry[]> {
  const rows = await db
    .selectFrom("stock_movements as m")
    .leftJoin("orders as o", "o.id", "m.order_id")
    .select([
      "m.id",
      "m.created_at",
      "m.actor",
      "m.delta",
      "m.stock_before",
      "m.stock_after",
      "m.reason",
      "m.note",
      "o.number as order_number",
    ])
    .where("m.product_id", "=", productId)
    .orderBy("m.id", "desc")
    .limit(Math.min(Math.max(limit, 1), 200))
    .execute();
  const userIds = [
    ...new Set(
      rows.map((r) => /^(?:staff|user):(.+)$/.exec(r.actor ?? "")?.[1]).filter((v): v is string => Boolean(v)),
    ),
  ];
  const names = new Map(
    userIds.length
      ? (await db.selectFrom("user").select(["id", "name"]).where("id", "in", userIds).execute()).map((u) => [
          u.id,
          u.name,
        ])
      : [],
  );
  return rows.map((r) => {
    const m = /^(staff|user):(.+)$/.exec(r.actor ?? "");
    const who = m
      ? `${names.get(m[2]) || "unknown"} (${m[1] === "staff" ? "staff" : "customer"})`
      : (r.actor ?? (r.order_number ? "order" : "—"));
    return {
      id: Number(r.id),
      createdAt: r.created_at,
      who,
      delta: r.delta,
      before: r.stock_before,
      after: r.stock_after,
      reason: r.reason,
      orderNumber: r.order_number ?? null,
      note: r.note,
    };
  });
}
