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
    (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(handle)).rows.map(
      (r) => r.statement,
    );

  it("runs a parameterized statement as a prepared one, with the same answers", async () => {
    for (const id of [1, 2, 1]) {
      const row = await db
        .selectFrom("widgets" as never)
        .select(["name" as never])
        .where("id" as never, "=", id as never)
        .executeTakeFirst();
      expect(row).toEqual({ name: id === 1 ? "hammer" : "saw" });
    }
    const statements = await prepared(db);
    expect(statements.filter((s) => s.includes('from "widgets"'))).toHaveLength(1);
    expect(await prepared(plain)).toEqual([]);
  });

  it("prepares a SELECT without parameters too (the catalog version every page reads), but not DDL or COMMIT", async () => {
    for (let i = 0; i < 3; i++) {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM widgets`.execute(db);
      expect(Number(rows[0].n)).toBeGreaterThan(0);
    }
    await db.transaction().execute(async (trx) => {
      await sql`CREATE TABLE gadgets (id integer)`.execute(trx);
    });
    const statements = await prepared(db);
    expect(statements.filter((s) => s.includes("SELECT count(*) AS n FROM widgets"))).toHaveLength(1);
    expect(statements.some((s) => /gadgets|^commit|^begin/i.test(s))).toBe(false);
  });

  it("leaves statements on the search tables unnamed, so each is planned for the words it asks for", async () => {
    await sql`CREATE TABLE search_terms (term text PRIMARY KEY, stem text NOT NULL)`.execute(plain);
    await sql`INSERT INTO search_terms VALUES ('drills', 'drill')`.execute(plain);
    for (let i = 0; i < 3; i++) {
      const row = await db
        .selectFrom("search_terms" as never)
        .select(["stem" as never])
        .where("term" as never, "=", "drills" as never)
        .executeTakeFirst();
      expect(row).toEqual({ stem: "drill" });
    }
    expect((await prepared(db)).filter((s) => s.includes("search_terms"))).toEqual([]);
  });

  it("leaves SELECT * unprepared, so a column added under a running process changes nothing", async () => {
    const all = () =>
      db
        .selectFrom("widgets" as never)
        .selectAll()
        .where("id" as never, "=", 1 as never)
        .executeTakeFirst();
    expect(await all()).toEqual({ id: 1, name: "hammer" });
    await sql`ALTER TABLE widgets ADD COLUMN colour text`.execute(plain);
    expect(await all()).toEqual({ id: 1, name: "hammer", colour: null });
    expect((await prepared(db)).some((s) => s.includes("select *"))).toBe(false);
    // A named statement over named columns is re-planned by PostgreSQL after the change.
    const row = await db
      .selectFrom("widgets" as never)
      .select(["name" as never])
      .where("id" as never, "=", 2 as never)
      .executeTakeFirst();
    expect(row).toEqual({ name: "saw" });
  });

  it("a statement that fails reports the database's error and leaves the connection usable", async () => {
    await expect(sql`INSERT INTO widgets (id, name) VALUES (${1}, ${"dup"})`.execute(db)).rejects.toMatchObject({
      code: "23505",
    });
    await expect(sql`INSERT INTO widgets (id, name) VALUES (${1}, ${"dup"})`.execute(db)).rejects.toMatchObject({
      code: "23505",
    });
    const row = await db
      .selectFrom("widgets" as never)
      .select(["name" as never])
      .where("id" as never, "=", 1 as never)
      .executeTakeFirst();
    expect(row).toEqual({ name: "hammer" });
  });
});
