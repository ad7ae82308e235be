import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { createDb, type Db, type DbKind } from "../../server/db/connection.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { startAuthApp } from "./auth-harness.ts";
import { createTestDatabase, dialects, dropTestDatabase, migrateAll, pgUrl } from "./databases.ts";

const run = promisify(execFile);
const CLI = path.resolve("server/ops/backup-cli.ts");
const work = mkdtempSync(path.join(tmpdir(), "backup-test-"));

function cli(args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== "DATABASE_URL" && k !== "SQLITE_PATH"),
  );
  return run(process.execPath, [CLI, ...args], { env: { ...clean, ...env } });
}

/** A place to put a store: an SQLite file, or a new PostgreSQL database. */
async function newStore(
  kind: DbKind,
  tag: string,
): Promise<{ env: Record<string, string>; open(): Db; drop(): Promise<void> }> {
  if (kind === "sqlite") {
    const file = path.join(work, `${tag}.db`);
    return {
      env: { SQLITE_PATH: file },
      open: () => createDb({ kind, sqlitePath: file }),
      drop: async () => undefined,
    };
  }
  const name = `toolstore_bk_${tag}_${randomBytes(4).toString("hex")}`;
  await createTestDatabase(name);
  const url = new URL(pgUrl!);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => createDb({ kind, url: url.toString(), poolSize: 8 }),
    drop: () => dropTestDatabase(name),
  };
}

afterAll(() => rmSync(work, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }));

describe.each(dialects)("npm run backup / npm run restore on %s", (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  // Each PostgreSQL database is dropped once its pools have closed, and an auth app once its kept-alive connections have.
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  }, 60_000);

  it("backs up a store while orders are being placed, restores it elsewhere, and every order committed before the backup is there, whole", async () => {
    const source = await newStore(kind, "src");
    const db = source.open();
    cleanups.push(source.drop, () => db.destroy());
    await migrateAll(db);
    await seedCatalog(db, { products: 20 });
    await db.updateTable("products").set({ stock_quantity: 100_000 }).execute();

    // Write load: members placing two-line orders back to back, three at a time.
    const committed: { number: string; at: number }[] = [];
    let stop = false;
    const buyer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const owner = `u:load-${n}-${i}`;
        await addToCart(db, owner, { productId: 1 + ((n + i) % 20), quantity: 1 });
        await addToCart(db, owner, { productId: 1 + ((n + i + 7) % 20), quantity: 2 });
        const checkout = checkoutSchema.parse({
          ...validCheckoutForm,
          email: `load.${n}.${i}@example.com`,
          checkoutToken: randomBytes(18).toString("base64url"),
        });
        const order = await placeOrder(db, {
          owner,
          userId: `load-${n}-${i}`,
          checkout,
          siteUrl: "https://shop.example",
        });
        committed.push({ number: order.number, at: Date.now() });
        // SQLite answers synchronously: without this the loop would never let the timers below run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const load = Promise.all([0, 1, 2].map(buyer));
    await new Promise((resolve) => setTimeout(resolve, 400));

    const file = path.join(work, `${kind}-backup`);
    const backupStarted = Date.now();
    const backup = await cli(["backup", file], source.env);
    expect(backup.stdout).toMatch(/^Backed up the (SQLite|PostgreSQL) database to /);
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop = true;
    await load;
    const mustHave = committed.filter((o) => o.at < backupStarted).map((o) => o.number);
    expect(mustHave.length).toBeGreaterThan(5);
    expect(committed.length).toBeGreaterThan(mustHave.length); // orders kept coming while the backup ran

    const target = await newStore(kind, "dst");
    cleanups.push(target.drop);
    const restore = await cli(["restore", file], target.env);
    expect(restore.stdout).toMatch(/^Restored /);
    const restored = target.open();
    cleanups.push(() => restored.destroy());
    const orders = await restored.selectFrom("orders").select(["id", "number"]).execute();
    const numbers = new Set(orders.map((o) => o.number));
    expect(mustHave.filter((n) => !numbers.has(n))).toEqual([]);
    // Whole: two lines each, a ledger row per line, and an order mail per order.
    const lines = await restored.selectFrom("order_lines").select(["order_id"]).execute();
    const ledger = await restored
      .selectFrom("stock_movements")
      .select(["order_id"])
      .where("reason", "=", "order")
      .execute();
    const mails = await restored
      .selectFrom("mail_queue")
      .select(["subject"])
      .where("subject", "like", "Your ToolHub Wholesale order %")
      .execute();
    for (const o of orders) {
      expect(lines.filter((l) => l.order_id === o.id)).toHaveLength(2);
      expect(ledger.filter((l) => l.order_id === o.id)).toHaveLength(2);
    }
    expect(mails).toHaveLength(orders.length);
  });

  it("a backup carries no working sign-in: sessions and emailed links are left out, the file is owner-only, and the restored store lets people sign in again", async () => {
    const source = await newStore(kind, "auth");
    const db = source.open();
    cleanups.push(source.drop, () => db.destroy());
    await migrateAll(db);
    const live = await startAuthApp(db, { AUTH_IP_LIMIT: "1000", AUTH_ACCOUNT_LIMIT: "1000" });
    cleanups.push(() => live.close());
    const email = `backup.${kind}.${randomBytes(3).toString("hex")}@example.com`;
    const password = "Sturdy-Hammer-42";
    expect((await live.post("/sign-up/email", { email, password, name: "Bea Backup" })).status).toBe(200);
    const signedIn = await live.post("/sign-in/email", { email, password });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect((await live.post("/request-password-reset", { email, redirectTo: "/reset-password" })).status).toBe(200);
    const [session] = await db.selectFrom("session").select("token").execute();
    const tokens = [
      session.token,
      ...(await db.selectFrom("verification").select("identifier").execute()).map((v) => v.identifier),
    ];
    expect(tokens.length).toBeGreaterThan(1);
    expect(await live.auth.api.getSession({ headers: new Headers({ cookie }) })).toMatchObject({ user: { email } });

    const file = path.join(work, `${kind}-signins`, "nested", "backup");
    await cli(["backup", file], source.env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    if (kind === "sqlite") {
      // Not in the file at all, not even in a freed page.
      const bytes = readFileSync(file).toString("latin1");
      for (const token of tokens) expect(bytes.includes(token), "a sign-in token is in the backup file").toBe(false);
    }
    // The live store keeps its sessions: only the copy leaves them out.
    expect(await db.selectFrom("session").select("token").execute()).toHaveLength(1);

    const target = await newStore(kind, "authdst");
    cleanups.push(target.drop);
    await cli(["restore", file], target.env);
    if (kind === "sqlite") expect(statSync(target.env.SQLITE_PATH).mode & 0o777).toBe(0o600);
    const restored = target.open();
    cleanups.push(() => restored.destroy());
    expect(await restored.selectFrom("session").selectAll().execute()).toEqual([]);
    expect(await restored.selectFrom("verification").selectAll().execute()).toEqual([]);
    expect(await restored.selectFrom("user").select("email").execute()).toEqual([{ email }]);

    // On the restored store the old session is gone; the password still signs in.
    const copy = await startAuthApp(restored, { AUTH_IP_LIMIT: "1000", AUTH_ACCOUNT_LIMIT: "1000" });
    cleanups.push(() => copy.close());
    expect(await copy.auth.api.getSession({ headers: new Headers({ cookie }) })).toBeNull();
    const again = await copy.post("/sign-in/email", { email, password });
    expect(again.status).toBe(200);
    const fresh = again.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(await copy.auth.api.getSession({ headers: new Headers({ cookie: fresh }) })).toMatchObject({
      user: { email },
    });
  });

  it("refuses a file that is not a backup, an existing target, and a backup of the other database kind, with a reason", async () => {
    const store = await newStore(kind, "bad");
    const db = store.open();
    cleanups.push(store.drop, () => db.destroy());
    await migrateAll(db);
    const junk = path.join(work, `${kind}-junk.txt`);
    writeFileSync(junk, "not a database");
    await expect(cli(["restore", junk], store.env)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("is not a store backup"),
    });
    await expect(cli(["backup", junk], store.env)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("already exists"),
    });
    await expect(cli(["restore"], store.env)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Usage: npm run backup"),
    });
    const other = kind === "sqlite" ? "PGDMP-not-really" : "SQLite format 3\u0000";
    const wrongKind = path.join(work, `${kind}-other-kind`);
    writeFileSync(wrongKind, other);
    await expect(cli(["restore", wrongKind], store.env)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("backup, but the configured database is"),
    });
  });
});
