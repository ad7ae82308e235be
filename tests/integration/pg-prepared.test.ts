import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../server/db/connection.ts";
import { pgUrl } from "./databases.ts";

/** Named prepared statements on PostgreSQL (server/db/pg-prepared.ts), against a real server. */
describe.skipIf(!pgUrl)("PostgreSQL prepared statements", () => {
  const schema = `t_${randomBytes(6).toString("hex")}`;
  let db: Db;
  let plain: Db;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    db = createDb({ kind: "postgres", url: pgUrl, pgSchema: schema, poolSize: 1 });
    plain = createDb({ kind: "postgres", url: pgUrl, pgSchema: schema, poolSize: 1, preparedStatements: false });
    await sql`CREATE TABLE widgets (id integer PRIMARY KEY, name text NOT NULL)`.execute(db);
    await sql`INSERT INTO widgets VALUES (1, 'hammer'), (2, 'saw')`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await plain?.destroy();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  const prepared = async (handle: Db) =>
    (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(handle)).rows.map((r) => r.statement);

  it("runs a parameterized statement as a prepared one, with the same answers", async () => {
    for (const id of [1, 2, 1]) {
      const row = await db.selectFrom("widgets" as never).select(["name" as never]).where("id" as never, "=", id as never).executeTakeFirst();
      expect(row).toEqual({ name: id === 1 ? "hammer" : "saw" });
    }
    // Planned for each execution's own values, as unprepared statements are (generic plans slowed the search).
    expect((await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(db)).rows[0]?.plan_cache_mode).toBe("force_custom_plan");
    const statements = await prepared(db);
    expect(statements.filter((s) => s.includes('from "widgets"'))).toHaveLength(1);
    expect(await prepared(plain)).toEqual([]);
  });

  it("plans each execution even when the database URL carries its own server options", async () => {
    const url = new URL(pgUrl!);
    url.searchParams.set("options", `-c search_path=${schema} -c statement_timeout=4321`);
    const withOptions = createDb({ kind: "postgres", url: url.href, poolSize: 1 });
    try {
      const show = async (name: string) => Object.values((await sql.raw(`SHOW ${name}`).execute(withOptions)).rows[0] as object)[0];
      expect(await show("plan_cache_mode")).toBe("force_custom_plan");
      expect(await show("statement_timeout")).toBe("4321ms");
    } finally {
      await withOptions.destroy();
    }
  });

  it("leaves SELECT * unprepared, so a column added under a running process changes nothing", async () => {
    const all = () => db.selectFrom("widgets" as never).selectAll().where("id" as never, "=", 1 as never).executeTakeFirst();
    expect(await all()).toEqual({ id: 1, name: "hammer" });
    await sql`ALTER TABLE widgets ADD COLUMN colour text`.execute(plain);
    expect(await all()).toEqual({ id: 1, name: "hammer", colour: null });
    expect((await prepared(db)).some((s) => s.includes("select *"))).toBe(false);
    // A named statement over named columns is re-planned by PostgreSQL after the change.
    const row = await db.selectFrom("widgets" as never).select(["name" as never]).where("id" as never, "=", 2 as never).executeTakeFirst();
    expect(row).toEqual({ name: "saw" });
  });

  it("a statement that fails reports the database's error and leaves the connection usable", async () => {
    await expect(sql`INSERT INTO widgets (id, name) VALUES (${1}, ${"dup"})`.execute(db)).rejects.toMatchObject({ code: "23505" });
    await expect(sql`INSERT INTO widgets (id, name) VALUES (${1}, ${"dup"})`.execute(db)).rejects.toMatchObject({ code: "23505" });
    const row = await db.selectFrom("widgets" as never).select(["name" as never]).where("id" as never, "=", 1 as never).executeTakeFirst();
    expect(row).toEqual({ name: "hammer" });
  });
});
