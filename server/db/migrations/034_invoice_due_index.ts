import { sql, type Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * The dashboard's overdue invoices (server/invoices/open-invoices.ts) read the unpaid invoices by
 * due date from this index, then each one's order by its key. Without it SQLite joined from the
 * orders side, reading all of them: 126 ms at 1,000,000 orders with no invoice at all, the most of
 * the dashboard's 375 ms (docs/benchmarks.md, issue 51's third part).
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await sql`create index invoices_status_due_idx on invoices (status, due_at)`.execute(db);
}
