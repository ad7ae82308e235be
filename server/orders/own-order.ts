import type { Db } from "../db/connection.ts";

/** The id of the user's own order with this number; undefined for anyone else's. */
export function ownOrderId(db: Db, userId: string, number: string) {
  return db
    .selectFrom("orders")
    .select("id")
    .where("number", "=", number)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}
