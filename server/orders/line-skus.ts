import type { Db } from "../db/connection.ts";

/**
 * An order's lines with their product's SKU (null once the product is deleted), for staff pages
 * and documents; the caller selects the line columns it shows and their order.
 */
export function orderLinesWithSku(db: Db, orderId: number) {
  return db
    .selectFrom("order_lines as l")
    .leftJoin("products as p", "p.id", "l.product_id")
    .select("p.sku")
    .where("l.order_id", "=", orderId);
}
