import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { createDb, type Db } from "../../server/db/connection.ts";
import { prepareDatabase } from "../../server/db/prepare.ts";
import { pgUrl } from "./databases.ts";

// Two instances started together on an empty PostgreSQL database: both must come up, one seed.
describe.skipIf(!pgUrl)("cold start of several instances on an empty PostgreSQL database", () => {
  const schema = `cold_${randomBytes(6).toString("hex")}`;
  const handles: Db[] = [];
  const admin = async (query: string) => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(query);
    await c.end();
  };
  afterAll(async () => {
    await Promise.all(handles.map((db) => db.destroy()));
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it("three instances migrating and seeding at once all start, and the catalog is seeded once", async () => {
    await admin(`CREATE SCHEMA ${schema}`);
    const cfg = loadConfig({
      NODE_ENV: "test",
      DATABASE_URL: pgUrl,
      SEED_PRODUCTS: "60",
      AUTH_SECRET: "cold-start-test-secret-0123456789abcdef",
    });
    for (let i = 0; i < 3; i++) handles.push(createDb({ kind: "postgres", url: pgUrl, pgSchema: schema, poolSize: 4 }));
    const results = await Promise.allSettled(handles.map((db) => prepareDatabase(db, cfg)));
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok", "ok"]);
    const { n } = await handles[0]
      .selectFrom("products")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(60);
    const tables = await handles[0].introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(["user", "session", "account", "verification", "products", "orders"]),
    );
  });
});
