/**
 * `npm run seed -- --orders N` (server/db/seed/orders.ts): seeded order history for benchmarks —
 * resumable, consistent totals, numbers in the store's format, customers that exist.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";
import { CUSTOMER_EVERY, seedOrders } from "../../server/db/seed/orders.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const cfg = loadConfig({
  SITE_URL: "http://127.0.0.1:3999",
  NODE_ENV: "test",
  AUTH_SECRET: "integration-secret-0123456789abcdef0123",
});

describe.each(dialects)("seeded orders on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, cfg);
    await seedCatalog(t.db, { products: 60 });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("adds N orders with lines and customers, resumes without duplicates, and keeps totals consistent", async () => {
    expect((await seedOrders(t.db, { orders: 150 })).inserted).toBe(150);
    expect((await seedOrders(t.db, { orders: 200 })).inserted).toBe(50);
    expect((await seedOrders(t.db, { orders: 200 })).inserted).toBe(0);
    const orders = await t.db.selectFrom("orders").selectAll().execute();
    expect(orders).toHaveLength(200);
    expect(new Set(orders.map((o) => o.number)).size).toBe(200);
    for (const o of orders) {
      expect(o.number).toMatch(/^TH-[0-9A-F]{10}$/);
      const lines = await t.db
        .selectFrom("order_lines")
        .select(["quantity", "unit_price_cents", "line_total_cents"])
        .where("order_id", "=", o.id)
        .execute();
      expect(lines.length).toBeGreaterThanOrEqual(1);
      for (const l of lines) expect(l.line_total_cents).toBe(l.quantity * l.unit_price_cents);
      const subtotal = lines.reduce((s, l) => s + l.line_total_cents, 0);
      expect(o.subtotal_cents).toBe(subtotal);
      expect(o.total_cents).toBe(subtotal + o.shipping_cents + o.tax_cents);
    }
    const users = await t.db.selectFrom("user").select("id").where("id", "like", "seed-user-%").execute();
    expect(users).toHaveLength(Math.ceil(200 / CUSTOMER_EVERY));
    const orphans = orders.filter((o) => o.user_id && !users.some((u) => u.id === o.user_id));
    expect(orphans).toEqual([]);
    expect(new Set(orders.map((o) => o.status)).size).toBeGreaterThan(2);
  });
});

describe("npm run seed arguments", () => {
  it("refuses a bad --orders value with the usage line", () => {
    const run = spawnSync(
      process.execPath,
      ["--experimental-strip-types", "server/db/seed/cli.ts", "--orders", "lots"],
      { cwd: path.resolve(import.meta.dirname, "../.."), encoding: "utf8" },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--orders must be a positive integer, got "lots"');
    expect(run.stderr).toContain("Usage: npm run seed -- [--products N] [--orders M]");
  });
});
