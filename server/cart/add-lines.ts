/**
 * Many lines into the cart at once (quick order, order again, a saved list): one transaction, so
 * either every line is in or none is, with the cart's usual caps: never above the stock, one
 * line's cap, or one order's cap in all.
 */
import { sql } from "kysely";
import { MAX_LINE_QUANTITY, MAX_ORDER_QUANTITY } from "../../app/lib/order-rules.ts";
import { dbKind, type Db } from "../db/connection.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";
import { salePriceIn } from "../catalog/market-columns.ts";

export interface LineToAdd {
  productId: number;
  color: string;
  quantity: number;
}

export interface AddedLine extends LineToAdd {
  /** The units this call added (0 when the cart was already at a cap). */
  added: number;
  /** The line's quantity in the cart afterwards. */
  inCart: number;
  cappedBy: "stock" | "line" | "order" | "gone" | null;
}

/** Why the cart took fewer units of a line than asked, as the bulk adds (quick order, saved lists) say it. */
export const CAP_REASONS: Record<NonNullable<AddedLine["cappedBy"]>, string> = {
  stock: "your cart already holds all we have in stock",
  line: `your cart already holds the most of one item (${MAX_LINE_QUANTITY}) a single order can take`,
  order: "your cart is at the most units a single order can take",
  gone: "it sold out or stopped being sold a moment ago",
};

/** A capped line's outcome: "3 added: <why>." or "Not added: <why>." */
export function cappedAddText(added: number, why: string): string {
  return added > 0 ? `${added} added: ${why}.` : `Not added: ${why}.`;
}

const CHUNK = 200;

export async function addLinesToCart(
  db: Db,
  owner: string,
  lines: LineToAdd[],
  market: MarketId = DEFAULT_MARKET,
): Promise<AddedLine[]> {
  if (!lines.length) return [];
  return db.transaction().execute(async (trx) => {
    // Two quick orders into one cart at once (two tabs) take turns, so neither's sums are lost.
    if (dbKind(db) === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${`cart:${owner}`}))`.execute(trx);
    const ids = [...new Set(lines.map((l) => l.productId))];
    const products = new Map<number, { stock: number; price: number }>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await trx
        .selectFrom("products")
        .select(["id", "stock_quantity", "sale_price_cents", "uk_sale_price_pence"])
        .where("id", "in", ids.slice(i, i + CHUNK))
        .where("archived_at", "is", null)
        .execute();
      for (const r of rows) products.set(r.id, { stock: r.stock_quantity, price: salePriceIn(r, market) });
    }
    const existing = await trx
      .selectFrom("cart_items")
      .select(["product_id", "color", "quantity"])
      .where("owner", "=", owner)
      .execute();
    const inCart = new Map(existing.map((r) => [`${r.product_id}:${r.color}`, r.quantity]));
    let total = existing.reduce((n, r) => n + r.quantity, 0);

    const now = new Date().toISOString();
    const results: AddedLine[] = [];
    const writes = new Map<
      string,
      { product_id: number; color: string; quantity: number; seen_price_cents: number; seen_market: MarketId }
    >();
    for (const line of lines) {
      const key = `${line.productId}:${line.color}`;
      const product = products.get(line.productId);
      const before = inCart.get(key) ?? 0;
      if (!product || product.stock < 1) {
        results.push({ ...line, added: 0, inCart: before, cappedBy: "gone" });
        continue;
      }
      const bounds: ["stock" | "line" | "order", number][] = [
        ["stock", product.stock - before],
        ["line", MAX_LINE_QUANTITY - before],
        ["order", MAX_ORDER_QUANTITY - total],
      ];
      const room = Math.max(0, Math.min(...bounds.map(([, n]) => n)));
      const added = Math.min(line.quantity, room);
      const cappedBy = added < line.quantity ? bounds.find(([, n]) => Math.max(0, n) === room)![0] : null;
      total += added;
      inCart.set(key, before + added);
      if (added > 0)
        writes.set(key, {
          product_id: line.productId,
          color: line.color,
          quantity: before + added,
          seen_price_cents: product.price,
          seen_market: market,
        });
      results.push({ ...line, added, inCart: before + added, cappedBy });
    }
    const rows = [...writes.values()].map((w) => ({ owner, ...w, created_at: now, updated_at: now }));
    for (let i = 0; i < rows.length; i += CHUNK) {
      await trx
        .insertInto("cart_items")
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(["owner", "product_id", "color"]).doUpdateSet((eb) => ({
            quantity: eb.ref("excluded.quantity"),
            seen_price_cents: eb.ref("excluded.seen_price_cents"),
            seen_market: eb.ref("excluded.seen_market"),
            updated_at: now,
          })),
        )
        .execute();
    }
    return results;
  });
}
