import type { Kysely } from "kysely";
import type { DbKind } from "../connection.ts";

/**
 * Leases for periodic jobs (server/jobs/): one row per job name. A process runs a job only while
 * it holds the row's lease, so N app processes never run one job at the same time.
 */
export async function up(db: Kysely<any>, _kind: DbKind): Promise<void> {
  await db.schema
    .createTable("job_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    /** Fencing token of the holder; null when free. */
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "text")
    .addColumn("last_started_at", "text")
    .addColumn("last_finished_at", "text")
    .addColumn("last_error", "text")
    .execute();
}
