import type { Selectable } from "kysely";
import type { Db } from "../db/connection.ts";
import type { OrderTable } from "../db/schema.ts";

export async function listOrdersForUser(db: Db, userId: string) {
  return db
    .selectFrom("orders")
    .select(["number", "status", "total_cents", "created_at", "payment_method"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(100)
    .execute();
}

async function withLines(db: Db, order: Selectable<OrderTable> | undefined) {
  if (!order) return null;
  const lines = await db.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).orderBy("id").execute();
  return { ...order, lines };
}

function findOrder(db: Db) {
  return db.selectFrom("orders").selectAll();
}

/** The order, only when it belongs to this user; otherwise null (the route answers 404). */
export async function getOrderForUser(db: Db, number: string, userId: string) {
  if (!/^TH-[0-9A-F]{10}$/.test(number)) return null;
  return withLines(db, await findOrder(db).where("number", "=", number).where("user_id", "=", userId).executeTakeFirst());
}

/** The guest's order behind the unguessable link in the confirmation mail. */
export async function getOrderByAccessToken(db: Db, token: string) {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return null;
  return withLines(db, await findOrder(db).where("access_token", "=", token).executeTakeFirst());
}

export type OrderDetail = NonNullable<Awaited<ReturnType<typeof getOrderForUser>>>;
