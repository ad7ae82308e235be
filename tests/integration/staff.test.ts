import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { betterAuth } from "better-auth";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAuthOptions } from "../../server/auth/auth.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { can, roles } from "../../server/auth/permissions.ts";
import { UNGUARDED } from "../../server/auth/sign-in-guard.ts";
import { loadConfig } from "../../server/config.ts";
import { dashboardCounts } from "../../server/admin/dashboard.ts";
import { OPERATOR, parseStaffArgs, runStaffCommand, USAGE } from "../../server/staff/cli.ts";
import { addStaff, listStaff, removeStaff } from "../../server/staff/staff.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const root = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "Sturdy-Hammer-42";
const cfg = loadConfig({
  SITE_URL: "http://127.0.0.1:3999",
  NODE_ENV: "test",
  AUTH_SECRET: "integration-secret-0123456789abcdef0123",
});

describe("permission statements", () => {
  it("lets staff run the store but not manage staff; admins manage staff; customers nothing", () => {
    expect(can("staff", { dashboard: ["view"], order: ["update"], product: ["create"] })).toBe(true);
    expect(can("staff", { staff: ["view"] })).toBe(false);
    expect(can("staff", { user: ["set-role"] })).toBe(false);
    expect(can("admin", { staff: ["invite", "set-role", "remove"] })).toBe(true);
    // Better Auth's own user statements belong to no role since issue 48 (server/auth/permissions.ts).
    expect(can("admin", { user: ["set-role"] })).toBe(false);
    expect(can("admin", { user: ["impersonate"] })).toBe(false);
    expect(can("customer", { dashboard: ["view"] })).toBe(false);
    expect(Object.keys(roles).sort()).toEqual(["admin", "customer", "staff"]);
  });
});

describe.each(dialects)("staff accounts on %s", (kind) => {
  let t: TestDb;
  const auth = () => betterAuth(buildAuthOptions(t.db, cfg, UNGUARDED));
  const change = { actor: OPERATOR, siteUrl: cfg.siteUrl };

  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, cfg);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const roleOf = async (email: string) =>
    (await t.db.selectFrom("user").select("role").where("email", "=", email).executeTakeFirst())?.role;
  const passwordOf = (email: string) =>
    t.db
      .selectFrom("account")
      .innerJoin("user", "user.id", "account.userId")
      .select("password")
      .where("email", "=", email)
      .executeTakeFirstOrThrow();

  it("gives existing databases the admin plugin's columns at start-up", async () => {
    // A database migrated before the plugin: drop its columns, then migrate as start-up does.
    for (const column of ["role", "banned", "banReason", "banExpires"])
      await t.db.schema.alterTable("user").dropColumn(column).execute();
    await t.db.schema.alterTable("session").dropColumn("impersonatedBy").execute();
    await migrateAuth(t.db, cfg);
    await sql`select "role", "banned", "banReason", "banExpires" from "user"`.execute(t.db);
    await sql`select "impersonatedBy" from "session"`.execute(t.db);
  });

  it("creates an account with a hashed password and the role in user.role; new sign-ups are customers", async () => {
    const outcome = await addStaff(
      t.db,
      auth(),
      { email: "Boss@Example.com", password: PASSWORD, role: "admin" },
      change,
    );
    expect(outcome.kind).toBe("created");
    expect(await roleOf("boss@example.com")).toBe("admin");
    const account = await t.db
      .selectFrom("account")
      .select(["providerId", "password"])
      .where("userId", "=", outcome.userId)
      .executeTakeFirstOrThrow();
    expect(account.providerId).toBe("credential");
    expect(account.password).toBeTruthy();
    expect(account.password).not.toContain(PASSWORD);
    // The password works through Better Auth's own sign-in.
    const signedIn = await auth().api.signInEmail({ body: { email: "boss@example.com", password: PASSWORD } });
    expect(signedIn.user.email).toBe("boss@example.com");

    await auth().api.signUpEmail({ body: { email: "shopper@example.com", password: PASSWORD, name: "Shopper" } });
    expect(await roleOf("shopper@example.com")).toBe("customer");
  });

  it("promotes an existing account whose address is verified without touching its password, and lists staff", async () => {
    // Only a verified account keeps its password (an unverified one: staff-membership.test.ts).
    await t.db
      .updateTable("user")
      .set({ emailVerified: kind === "postgres" ? true : 1 })
      .where("email", "=", "shopper@example.com")
      .execute();
    const before = await passwordOf("shopper@example.com");
    const outcome = await addStaff(
      t.db,
      auth(),
      { email: "shopper@example.com", password: "Other-Password-77", role: "staff" },
      change,
    );
    expect(outcome).toMatchObject({ kind: "promoted", previousRole: "customer" });
    expect(await roleOf("shopper@example.com")).toBe("staff");
    const after = await passwordOf("shopper@example.com");
    expect(after.password).toBe(before.password);
    expect((await addStaff(t.db, auth(), { email: "shopper@example.com", role: "staff" }, change)).kind).toBe(
      "unchanged",
    );

    const staff = await listStaff(t.db);
    expect(staff.map((s) => [s.role, s.email])).toEqual([
      ["admin", "boss@example.com"],
      ["staff", "shopper@example.com"],
    ]);
  });

  it("remove demotes to customer and keeps the account; unknown or non-staff accounts are refused", async () => {
    expect(await removeStaff(t.db, OPERATOR, "shopper@example.com")).toMatchObject({ previousRole: "staff" });
    expect(await roleOf("shopper@example.com")).toBe("customer");
    // The back office's removeStaffMember answers for a non-staff account (its code, NOT_STAFF).
    await expect(removeStaff(t.db, OPERATOR, "shopper@example.com")).rejects.toMatchObject({ code: "NOT_STAFF" });
    await expect(removeStaff(t.db, OPERATOR, "nobody@example.com")).rejects.toMatchObject({ code: "not_found" });
    await expect(addStaff(t.db, auth(), { email: "new@example.com", role: "staff" }, change)).rejects.toMatchObject({
      code: "password_required",
    });
    await expect(
      addStaff(t.db, auth(), { email: "new@example.com", password: "123", role: "staff" }, change),
    ).rejects.toMatchObject({ code: "invalid_password" });
    expect(await roleOf("new@example.com")).toBeUndefined();
  });

  it("prints no password and masks listed addresses", async () => {
    const lines: string[] = [];
    const out = { line: (s: string) => lines.push(s), error: (s: string) => lines.push(s) };
    expect(
      await runStaffCommand(
        t.db,
        cfg,
        parseStaffArgs(["add", "--email", "clerk@example.com", "--password", PASSWORD, "--role", "staff"]),
        out,
      ),
    ).toBe(0);
    expect(await runStaffCommand(t.db, cfg, parseStaffArgs(["list"]), out)).toBe(0);
    expect(await runStaffCommand(t.db, cfg, parseStaffArgs(["remove", "--email=nobody@example.com"]), out)).toBe(1);
    const text = lines.join("\n");
    expect(text).not.toContain(PASSWORD);
    expect(text).toContain("b***@example.com");
    expect(text).not.toContain("boss@example.com");
  });

  it("counts the dashboard's figures from the database", async () => {
    expect(await dashboardCounts(t.db)).toEqual({ ordersToday: 0, waitingToShip: 0, unansweredMessages: 0 });
    await t.db
      .insertInto("contact_messages")
      .values({
        name: "Ada",
        email: "ada@example.com",
        subject: "Hi",
        message: "Hello",
        ip: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await dashboardCounts(t.db)).unansweredMessages).toBe(1);
  });
});

describe("npm run staff (the command)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "staff-cli-"));
  const env = {
    ...process.env,
    SQLITE_PATH: path.join(dir, "store.db"),
    DATABASE_URL: "",
    AUTH_SECRET: "cli-secret-0123456789abcdef0123456789",
    REDIS_URL: "",
  };
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(root, "server/staff/cli.ts"), ...args], {
      cwd: root,
      env,
      encoding: "utf8",
      timeout: 30_000,
    });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [[]],
    [["promote"]],
    [["add", "--email", "a@example.com"]],
    [["add", "--email", "a@example.com", "--role", "owner"]],
    [["add", "--role", "staff"]],
    [["remove"]],
    [["list", "--all"]],
    [["add", "--email"]],
  ])("exits non-zero with the usage line for %j", (args) => {
    const result = run(...args);
    expect(result.status).not.toBe(0);
    expect(result.status).not.toBeNull();
    expect(result.stderr).toContain(USAGE);
  });

  it("adds, lists and removes against the configured database; never the last admin", () => {
    const added = run("add", "--email", "owner@example.com", "--password", PASSWORD, "--role", "admin");
    expect(added.status, added.stderr).toBe(0);
    expect(added.stdout + added.stderr).not.toContain(PASSWORD);
    const listed = run("list");
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain("admin  o***@example.com");
    const last = run("remove", "--email", "owner@example.com");
    expect(last.status).toBe(1);
    expect(last.stderr).toContain("There must always be at least one admin.");
    expect(run("add", "--email", "second@example.com", "--password", PASSWORD, "--role", "admin").status).toBe(0);
    expect(run("remove", "--email", "owner@example.com").status).toBe(0);
    expect(run("remove", "--email", "owner@example.com").status).toBe(1);
  }, 120_000);
});
