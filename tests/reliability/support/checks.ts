/**
 * What the reliability tests read back from the store's database: mails, users, carts, and
 * whether orders are whole (their lines, their stock ledger rows, their one mail, the stock).
 */
import type { Db } from "../../../server/db/connection.ts";

/** Mails queued to an address (any status: the sender may have sent them already), oldest first. */
export async function mailsTo(db: Db, address: string) {
  return db
    .selectFrom("mail_queue")
    .select(["id", "subject", "text_body", "status"])
    .where("to_address", "=", address)
    .orderBy("id")
    .execute();
}

/** Mails whose subject names this order number. */
async function mailsAboutOrder(db: Db, orderNumber: string) {
  return db
    .selectFrom("mail_queue")
    .select(["id", "subject", "to_address"])
    .where("subject", "like", `%${orderNumber}%`)
    .execute();
}

export async function userByEmail(db: Db, email: string) {
  return db.selectFrom("user").select(["id", "email"]).where("email", "=", email.toLowerCase()).execute();
}

export async function stockOf(db: Db, productIds?: number[]): Promise<Map<number, number>> {
  let query = db.selectFrom("products").select(["id", "stock_quantity"]);
  if (productIds) query = query.where("id", "in", productIds.length ? productIds : [-1]);
  const rows = await query.execute();
  return new Map(rows.map((r) => [Number(r.id), Number(r.stock_quantity)]));
}

/** The first link in a mail's text that starts with `prefix` (a path on the store). */
export function linkIn(text: string, prefix: string): URL | null {
  const match = new RegExp(`https?://[^\\s"<>]*${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"<>]*`).exec(text);
  return match ? new URL(match[0]) : null;
}

export interface WholenessReport {
  orders: number;
  problems: string[];
}

/**
 * Checks every order with one of `checkoutTokens` (or every order): it has lines; its stock
 * ledger rows take exactly each line's quantity (sum of deltas = −quantity, per product); its
 * totals add up; it has exactly one mail (a member's order mail, or a guest's confirmation
 * request); and every product's stock is `initial` plus its ledger, and `initial` minus what
 * these orders sold. Ledger rows of reason "order" that point at no order are problems too.
 */
export async function checkOrdersWhole(
  db: Db,
  initial: Map<number, number>,
  checkoutTokens?: string[],
): Promise<WholenessReport> {
  const problems: string[] = [];
  let query = db.selectFrom("orders").select(["id", "number", "status", "user_id", "subtotal_cents", "checkout_token"]);
  if (checkoutTokens) query = query.where("checkout_token", "in", checkoutTokens.length ? checkoutTokens : ["-"]);
  const orders = await query.execute();
  const orderIds = orders.map((o) => Number(o.id));
  const lines = orderIds.length
    ? await db
        .selectFrom("order_lines")
        .select(["order_id", "product_id", "quantity", "line_total_cents"])
        .where("order_id", "in", orderIds)
        .execute()
    : [];
  const moves = orderIds.length
    ? await db
        .selectFrom("stock_movements")
        .select(["order_id", "product_id", "delta", "reason"])
        .where("order_id", "in", orderIds)
        .execute()
    : [];
  const sold = new Map<number, number>();
  for (const order of orders) {
    const id = Number(order.id);
    const own = lines.filter((l) => Number(l.order_id) === id);
    if (own.length === 0) problems.push(`order ${order.number} (${order.status}) has no lines`);
    const subtotal = own.reduce((n, l) => n + Number(l.line_total_cents), 0);
    if (own.length && subtotal !== Number(order.subtotal_cents))
      problems.push(`order ${order.number}: lines add up to ${subtotal}, the order says ${order.subtotal_cents}`);
    const wanted = new Map<number, number>();
    for (const l of own) wanted.set(Number(l.product_id), (wanted.get(Number(l.product_id)) ?? 0) - Number(l.quantity));
    const taken = new Map<number, number>();
    for (const m of moves.filter((m) => Number(m.order_id) === id))
      taken.set(Number(m.product_id), (taken.get(Number(m.product_id)) ?? 0) + Number(m.delta));
    const holdsStock = order.status === "placed" || order.status === "awaiting_confirmation";
    for (const pid of new Set([...wanted.keys(), ...taken.keys()])) {
      const expected = holdsStock ? (wanted.get(pid) ?? 0) : 0;
      if ((taken.get(pid) ?? 0) !== expected)
        problems.push(
          `order ${order.number} (${order.status}), product ${pid}: ledger deltas sum to ${taken.get(pid) ?? 0}, expected ${expected}`,
        );
      if (holdsStock) sold.set(pid, (sold.get(pid) ?? 0) - (wanted.get(pid) ?? 0));
    }
    if (holdsStock) {
      // A member's order mail; a guest's confirmation request, plus the order mail once confirmed.
      const expected = order.user_id ? 1 : order.status === "placed" ? 2 : 1;
      const mails = await mailsAboutOrder(db, order.number);
      if (mails.length !== expected)
        problems.push(
          `order ${order.number} (${order.status}) has ${mails.length} mails in mail_queue, expected ${expected}`,
        );
    }
  }
  const orphans = await db
    .selectFrom("stock_movements")
    .select(["id", "order_id"])
    .where("reason", "=", "order")
    .where((eb) =>
      eb.or([
        eb("order_id", "is", null),
        eb.not(
          eb.exists(eb.selectFrom("orders").select("orders.id").whereRef("orders.id", "=", "stock_movements.order_id")),
        ),
      ]),
    )
    .execute();
  for (const o of orphans) problems.push(`stock movement ${o.id} (reason order) points at no order (${o.order_id})`);

  const stock = await stockOf(db, [...initial.keys()]);
  for (const [pid, before] of initial) {
    const now = stock.get(pid);
    if (now !== before - (sold.get(pid) ?? 0))
      problems.push(`product ${pid}: stock ${now}, expected ${before} − ${sold.get(pid) ?? 0} sold`);
  }
  return { orders: orders.length, problems };
}
