import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * The client network of a guest's order while it holds stock (server/orders/guest-holds.ts,
 * decision 0039): a hash of its limiter key (an IPv4 address or an IPv6 /64), set when a guest's
 * order starts holding stock and cleared when the hold ends (server/orders/states.ts), so the
 * units that one network's unconfirmed or unpaid orders hold are counted from the database by
 * every app process. The index holds only the orders holding stock now.
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema.alterTable("orders").addColumn("hold_client", "text").execute();
  await sql`create index orders_hold_client_idx on orders (hold_client) where hold_client is not null`.execute(db);
}
