import { sql, type Kysely } from "kysely";
import { dbKind, type Db } from "./connection.ts";

/** Whether a table exists in the connection's schema (PostgreSQL) or file (SQLite). */
export async function tableExists(db: Db | Kysely<any>, name: string): Promise<boolean> {
  if (dbKind(db as Db) === "postgres") {
    const { rows } = await sql<{ t: string | null }>`select to_regclass(${`"${name}"`})::text as t`.execute(db);
    return rows[0]?.t != null;
  }
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from sqlite_master where type = 'table' and name = ${name}`.execute(db);
  return Number(rows[0]?.n) > 0;
}
