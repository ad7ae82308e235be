import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { banCustomer, BAN_MESSAGES, unbanCustomer } from "../../server/customers/ban.ts";
import { getCustomer } from "../../server/customers/detail.ts";
import { likeContains, listCustomers } from "../../server/customers/list.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { auditRows, authFor, cfg, insertOrder, PASSWORD, refusal, staffActor } from "./admin-people-fixtures.ts";

describe("likeContains", () => {
  it("escapes LIKE wildcards", () => {
    expect(likeContains("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});

describe.each(dialects)("customers on %s", (kind) => {
  let t: TestDb;
  const ids: Record<string, string> = {};
  const auth = () => authFor(t.db);

  async function register(key: string, email: string, name: string, role?: string) {
    const result = await auth().api.signUpEmail({ body: { email, password: PASSWORD, name } });
    ids[key] = result.user.id;
    if (role) await t.db.updateTable("user").set({ role }).where("id", "=", result.user.id).execute();
  }

  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, cfg);
    await register("ada", "ada.lovelace@example.com", "Ada Lovelace");
    await register("grace", "grace@navy.example", "Grace Hopper");
    await register("wild", "wild_card@example.com", "50% Off_Fan");
    await register("staff", "sam.staff@example.com", "Sam Staff", "staff");
    await register("admin", "alex.admin@example.com", "Alex Admin", "admin");
    // A Google account on Ada too.
    await t.db
      .insertInto("account")
      .values({
        id: "acc-google-ada",
        accountId: "g-123",
        providerId: "google",
        userId: ids.ada,
        password: null,
        accessToken: null,
        refreshToken: null,
        idToken: null,
        scope: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .execute();
    // Ada's orders: three sales, one cancelled, one unpaid hold; a guest order with her email is not hers.
    const adasOrders = [
      ["placed", 1000, "2025-01-01"],
      ["delivered", 2500, "2025-01-02"],
      ["returned", 400, "2025-01-03"],
      ["cancelled", 9000, "2025-01-04"],
      ["awaiting_payment", 7000, "2025-01-05"],
    ] as const;
    for (const [status, total, day] of adasOrders)
      await insertOrder(t.db, { status, total, createdAt: `${day}T10:00:00.000Z`, userId: ids.ada });
    await insertOrder(t.db, {
      status: "placed",
      total: 123,
      createdAt: "2025-01-05T10:00:00.000Z",
      userId: null,
      email: "ada.lovelace@example.com",
    });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("searches by name or email, case-insensitively, anywhere in the text", async () => {
    const emails = async (q: string) => (await listCustomers(t.db, { q })).rows.map((r) => r.email).sort();
    expect(await emails("LOVELACE")).toEqual(["ada.lovelace@example.com"]);
    expect(await emails("hopper")).toEqual(["grace@navy.example"]);
    expect(await emails("navy.EX")).toEqual(["grace@navy.example"]);
    expect(await emails("  ada  ")).toEqual(["ada.lovelace@example.com"]);
    // Wildcards are literal: "_" and "%" match only themselves.
    expect(await emails("d_c")).toEqual(["wild_card@example.com"]);
    expect(await emails("50% OFF_")).toEqual(["wild_card@example.com"]);
    expect(await emails("a_a")).toEqual([]);
    expect(await emails("nobody-here")).toEqual([]);
  });

  it("filters by role and lists newest first, paginated", async () => {
    const all = await listCustomers(t.db, {});
    expect(all.rows.map((r) => r.email)).toEqual([
      "alex.admin@example.com",
      "sam.staff@example.com",
      "wild_card@example.com",
      "grace@navy.example",
      "ada.lovelace@example.com",
    ]);
    expect(all.hasNext).toBe(false);
    expect((await listCustomers(t.db, { role: "staff" })).rows.map((r) => r.role).sort()).toEqual(["admin", "staff"]);
    expect((await listCustomers(t.db, { role: "customer" })).rows).toHaveLength(3);
    expect((await listCustomers(t.db, { sort: "email" })).rows[0].email).toBe("ada.lovelace@example.com");
    const beyond = await listCustomers(t.db, { page: 2 });
    expect(beyond.rows).toEqual([]);
    expect((await listCustomers(t.db, { page: 10_000 })).page).toBe(200);
  });

  it("shows placed orders, lifetime value and sign-in methods", async () => {
    const [ada] = (await listCustomers(t.db, { q: "lovelace" })).rows;
    expect(ada).toMatchObject({ orders: 3, lifetimeValue: { usd: 3900, gbp: 0 }, role: "customer", banned: false });
    expect(ada.methods.sort()).toEqual(["google", "password"]);
    const detail = await getCustomer(t.db, ids.ada);
    expect(detail).toMatchObject({
      orderCount: 3,
      lifetimeValue: { usd: 3900, gbp: 0 },
      allOrders: 5,
      email: "ada.lovelace@example.com",
    });
    expect(detail!.orders.map((o) => o.status)).toEqual([
      "awaiting_payment",
      "cancelled",
      "returned",
      "delivered",
      "placed",
    ]);
    expect(await getCustomer(t.db, "no-such-user")).toBeNull();
    expect(await getCustomer(t.db, "x".repeat(500))).toBeNull();
  });

  it("bans a customer: flag and reason set, every session ended, audit row, and sign-in refused with the store's message", async () => {
    await auth().api.signInEmail({ body: { email: "grace@navy.example", password: PASSWORD } });
    await auth().api.signInEmail({ body: { email: "grace@navy.example", password: PASSWORD } });
    const sessions = () => t.db.selectFrom("session").select("id").where("userId", "=", ids.grace).execute();
    expect(await sessions()).toHaveLength(2);

    const outcome = await banCustomer(t.db, staffActor, ids.grace, { reason: "  Chargeback fraud  " });
    expect(outcome.sessionsEnded).toBe(2);
    expect(outcome.message).toBe(BAN_MESSAGES.banned(2));
    expect(await sessions()).toHaveLength(0);
    const user = await t.db
      .selectFrom("user")
      .select(["banned", "banReason", "banExpires"])
      .where("id", "=", ids.grace)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.banned)).toBe(true);
    expect(user.banReason).toBe("Chargeback fraud");
    expect(user.banExpires).toBeNull();
    const audit = await auditRows(t.db, "user", ids.grace);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "customer.ban", actor_id: staffActor.userId, actor_name: "Sam Staff" });
    expect(JSON.parse(audit[0].after!)).toEqual({ banned: true, banReason: "Chargeback fraud", sessionsEnded: 2 });

    await expect(
      auth().api.signInEmail({ body: { email: "grace@navy.example", password: PASSWORD } }),
    ).rejects.toMatchObject({
      body: {
        code: "BANNED_USER",
        message: "This account has been suspended. Please contact us if you think this is a mistake.",
      },
    });
    expect((await listCustomers(t.db, { bannedOnly: true })).rows.map((r) => r.email)).toEqual(["grace@navy.example"]);

    // A second ban changes nothing.
    expect(await refusal(banCustomer(t.db, staffActor, ids.grace, { reason: "again" }))).toEqual({
      status: 409,
      message: BAN_MESSAGES.alreadyBanned,
    });
    expect(await auditRows(t.db, "user", ids.grace)).toHaveLength(1);
  });

  it("refuses staff and admin targets, unknown ids and a missing reason, and writes nothing", async () => {
    await auth().api.signInEmail({ body: { email: "sam.staff@example.com", password: PASSWORD } });
    for (const key of ["staff", "admin"]) {
      expect(await refusal(banCustomer(t.db, staffActor, ids[key], { reason: "no" }))).toEqual({
        status: 403,
        message: BAN_MESSAGES.staff,
      });
      const row = await t.db.selectFrom("user").select("banned").where("id", "=", ids[key]).executeTakeFirstOrThrow();
      expect(Boolean(row.banned)).toBe(false);
      expect(await auditRows(t.db, "user", ids[key])).toHaveLength(0);
    }
    expect(await t.db.selectFrom("session").select("id").where("userId", "=", ids.staff).execute()).toHaveLength(1);
    expect((await refusal(banCustomer(t.db, staffActor, "nope", { reason: "x" }))).status).toBe(404);
    expect((await refusal(banCustomer(t.db, staffActor, ids.ada, { reason: "   " }))).status).toBe(400);
    expect((await refusal(banCustomer(t.db, staffActor, ids.ada, { reason: 42 }))).status).toBe(400);
    expect((await refusal(banCustomer(t.db, staffActor, ids.ada, { reason: "x".repeat(501) }))).status).toBe(400);
    expect(await auditRows(t.db, "user", ids.ada)).toHaveLength(0);
  });

  it("unbans: flag and reason cleared, audit row, sign-in works again; unbanning twice is refused", async () => {
    const outcome = await unbanCustomer(t.db, staffActor, ids.grace);
    expect(outcome.message).toBe(BAN_MESSAGES.unbanned);
    const user = await t.db
      .selectFrom("user")
      .select(["banned", "banReason"])
      .where("id", "=", ids.grace)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.banned)).toBe(false);
    expect(user.banReason).toBeNull();
    const audit = await auditRows(t.db, "user", ids.grace);
    expect(audit.map((a) => a.action)).toEqual(["customer.ban", "customer.unban"]);
    expect(JSON.parse(audit[1].before!)).toEqual({ banned: true, banReason: "Chargeback fraud" });
    const signedIn = await auth().api.signInEmail({ body: { email: "grace@navy.example", password: PASSWORD } });
    expect(signedIn.user.email).toBe("grace@navy.example");
    expect(await refusal(unbanCustomer(t.db, staffActor, ids.grace))).toEqual({
      status: 409,
      message: BAN_MESSAGES.notBanned,
    });
    expect(await refusal(unbanCustomer(t.db, staffActor, ids.staff))).toEqual({
      status: 403,
      message: BAN_MESSAGES.staff,
    });
  });

  it("lets only one of two simultaneous bans through", async () => {
    const results = await Promise.allSettled([
      banCustomer(t.db, staffActor, ids.wild, { reason: "one" }),
      banCustomer(t.db, staffActor, ids.wild, { reason: "two" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await auditRows(t.db, "user", ids.wild)).toHaveLength(1);
  });
});
