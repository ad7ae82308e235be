import { sql, type RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, freshDb, type TestDb } from "./databases.ts";

/**
 * The order indexes that hold only orders with a value (migration 020) still serve every lookup
 * that asks for a value; guest orders paid on delivery add no entries to them.
 */
describe.each(dialects)("partial order indexes on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** The query plan's text; PostgreSQL is told to avoid table scans, as it would on a large table. */
  async function plan(query: RawBuilder<unknown>): Promise<string> {
    if (kind === "sqlite") {
      const rows = (await sql`explain query plan ${query}`.execute(t.db)).rows as { detail: string }[];
      return rows.map((r) => r.detail).join("\n");
    }
    return t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = (await sql`explain ${query}`.execute(trx)).rows as { "QUERY PLAN": string }[];
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
  }

  it.each([
    [
      "a customer's orders",
      sql`select id, status, total_cents from orders where user_id = ${"u1"} order by id desc`,
      "orders_user_idx",
    ],
    [
      "a company's orders by status",
      sql`select id from orders where organization_id = ${"org1"} and status = ${"placed"}`,
      "orders_organization_status_idx",
    ],
    [
      "the order of a Stripe session",
      sql`select id from orders where payment_session_id = ${"cs_1"}`,
      "orders_payment_session_idx",
    ],
    [
      "the order of a payment intent",
      sql`select id from orders where payment_intent_id = ${"pi_1"}`,
      "orders_payment_intent_idx",
    ],
    ["flagged payments", sql`select count(*) from orders where payment_flag is not null`, "orders_payment_flag_idx"],
  ])("%s reads its index", async (_what, query, index) => {
    expect(await plan(query)).toContain(index);
  });

  it("holds only the orders that have a value", async () => {
    const definitions =
      kind === "sqlite"
        ? ((await sql`select sql as def from sqlite_master where type = 'index' and name like 'orders_%'`.execute(t.db))
            .rows as { def: string }[])
        : ((
            await sql`select indexdef as def from pg_indexes where schemaname = current_schema() and indexname like 'orders_%'`.execute(
              t.db,
            )
          ).rows as { def: string }[]);
    const partial = definitions.map((d) => d.def.toLowerCase()).filter((d) => d.includes("is not null"));
    expect(partial).toHaveLength(6);
  });
});
