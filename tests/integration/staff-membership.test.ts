/**
 * The staff list's shared rules (server/staff/membership.ts, manage.ts), on SQLite and PostgreSQL:
 * - a role given to an account whose address was never verified (someone pre-registered the new
 *   hire's address with their own password) first removes its password, sessions, second factor and
 *   trusted devices and mails a set-password link, from the back office's invitation and from
 *   `npm run staff -- add` alike; the pre-registered password stops working;
 * - a role given to a verified account keeps its password and second factor and ends its sessions;
 * - removal from either side ends sessions and keeps an admin, even when two run at once;
 * - an admin resets a colleague's second factor (rows gone, sessions ended, audit row, mail), never
 *   their own, never as staff, and two admins resetting at once both get an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Auth } from "../../server/auth/auth.ts";
import { OPERATOR, parseStaffArgs, runStaffCommand } from "../../server/staff/cli.ts";
import {
  inviteStaff,
  listStaffForAdmin,
  removeStaffMember,
  RESET_TWO_FACTOR_MESSAGES,
  resetStaffTwoFactor,
} from "../../server/staff/manage.ts";
import { addStaff } from "../../server/staff/staff.ts";
import { freshStaffDb, testAuthConfig } from "./auth-db.ts";
import { dialects, mailsTo, type TestDb } from "./databases.ts";

const PASSWORD = "Sturdy-Hammer-42";
const ATTACKER_PASSWORD = "Attackers-Own-Pass-31";
const SITE = "http://127.0.0.1:3999";
const cfg = testAuthConfig(SITE);

describe.each(dialects)("the staff list's rules on %s", (kind) => {
  let t: TestDb;
  let auth: Auth;
  let admin: { userId: string; name: string };
  const change = { actor: OPERATOR, siteUrl: SITE };
  const flag = (value: boolean) => (kind === "postgres" ? value : value ? 1 : 0);

  beforeAll(async () => {
    ({ t, auth, admin } = await freshStaffDb(kind, cfg, PASSWORD, "Boss"));
  });
  afterAll(async () => {
    await t?.drop();
  });

  const mails = (to: string) => mailsTo(t.db, to);
  const audit = (objectId: string) =>
    t.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "actor_name", "before", "after"])
      .where("object_id", "=", objectId)
      .orderBy("id")
      .execute();
  const userRow = (id: string) =>
    t.db
      .selectFrom("user")
      .select(["role", "name", "emailVerified", "twoFactorEnabled"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  const count = async (table: "session" | "account" | "twoFactor", userId: string) =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("userId", "=", userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const verificationsOf = (userId: string) =>
    t.db.selectFrom("verification").select("identifier").where("value", "=", userId).execute();

  /** What someone who pre-registered an address has: a password, two sessions, an authenticator, a trusted device. */
  async function preRegistered(email: string, verified = false): Promise<string> {
    await auth.api.signUpEmail({ body: { email, password: ATTACKER_PASSWORD, name: "Mallory" } });
    const id = (await t.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
    if (verified)
      await t.db
        .updateTable("user")
        .set({ emailVerified: flag(true) })
        .where("id", "=", id)
        .execute();
    await auth.api.signInEmail({ body: { email, password: ATTACKER_PASSWORD } });
    await auth.api.signInEmail({ body: { email, password: ATTACKER_PASSWORD } });
    await t.db
      .insertInto("twoFactor")
      .values({ id: `tf-${id}`, secret: "encrypted-secret", backupCodes: "encrypted-codes", userId: id })
      .execute();
    await t.db
      .updateTable("user")
      .set({ twoFactorEnabled: flag(true) })
      .where("id", "=", id)
      .execute();
    const now = new Date();
    await t.db
      .insertInto("verification")
      .values({
        id: `td-${id}`,
        identifier: `trust-device-${id}`,
        value: id,
        expiresAt:
          kind === "postgres" ? new Date(now.getTime() + 86400_000) : new Date(now.getTime() + 86400_000).toISOString(),
        createdAt: kind === "postgres" ? now : now.toISOString(),
        updatedAt: kind === "postgres" ? now : now.toISOString(),
      })
      .execute();
    expect(await count("session", id)).toBe(2);
    return id;
  }

  const linkToken = (text: string) => /\/reset-password\?token=([\w-]+)/.exec(text)?.[1];

  it("an invitation to an unverified pre-registered address removes its password, sessions and second factor, then mails a set-password link", async () => {
    const email = "newhire@example.com";
    const id = await preRegistered(email);

    const result = await inviteStaff(t.db, auth as never, admin, { email, name: "New Hire", role: "admin" }, SITE);
    expect(result).toEqual({ userId: id, created: false, outcome: "reclaimed" });

    expect(await userRow(id)).toMatchObject({ role: "admin", name: "New Hire" });
    const row = await userRow(id);
    expect(Boolean(row.emailVerified)).toBe(true);
    expect(Boolean(row.twoFactorEnabled)).toBe(false);
    expect(await count("account", id)).toBe(0);
    expect(await count("session", id)).toBe(0);
    expect(await count("twoFactor", id)).toBe(0);
    // The trusted device is gone; only the new set-password token is keyed by the account.
    const left = await verificationsOf(id);
    expect(left.map((v) => v.identifier)).toHaveLength(1);
    expect(left[0].identifier).not.toContain("trust-device");

    // The pre-registered password no longer signs in.
    await expect(auth.api.signInEmail({ body: { email, password: ATTACKER_PASSWORD } })).rejects.toThrow();

    const [entry] = await audit(id);
    expect(entry).toMatchObject({ action: "staff.promote", actor_id: admin.userId });
    expect(JSON.parse(entry.before!)).toEqual({
      role: "customer",
      emailVerified: false,
      signInMethods: ["credential"],
      twoFactor: true,
      sessions: 2,
      name: "Mallory",
    });
    expect(JSON.parse(entry.after!)).toEqual({
      role: "admin",
      emailVerified: true,
      signInMethods: [],
      twoFactor: false,
      sessions: 0,
      name: "New Hire",
      setPasswordLinkMailed: true,
    });

    const sent = (await mails(email)).filter(
      (m) => m.subject === "You're invited to the ToolHub Wholesale back office",
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].text_body).toContain("we removed that password");
    expect((await listStaffForAdmin(t.db)).find((m) => m.id === id)).toMatchObject({
      pending: true,
      twoFactorEnabled: false,
    });

    // The owner of the mailbox chooses a password and signs in with it.
    await auth.api.resetPassword({
      body: { token: linkToken(sent[0].text_body)!, newPassword: "Real-New-Hire-Pass-8" },
    });
    const signedIn = await auth.api.signInEmail({ body: { email, password: "Real-New-Hire-Pass-8" } });
    expect(signedIn.user.id).toBe(id);
    await expect(auth.api.signInEmail({ body: { email, password: ATTACKER_PASSWORD } })).rejects.toThrow();
  });

  it("`npm run staff -- add` on an unverified address does the same and says so", async () => {
    const email = "clihire@example.com";
    const id = await preRegistered(email);
    const lines: string[] = [];
    const out = { line: (s: string) => lines.push(s), error: (s: string) => lines.push(`ERR ${s}`) };
    const code = await runStaffCommand(
      t.db,
      cfg,
      parseStaffArgs(["add", "--email", email, "--password", "Operator-Chosen-Pass-5", "--role", "staff"]),
      out,
    );
    expect(code).toBe(0);
    expect(lines[0]).toBe(
      `${email} was not verified: its password, sessions and second factor were removed and a set-password link was mailed. It is now staff (was customer).`,
    );
    expect(lines.join("\n")).toContain("--password was not used.");
    expect(lines.join("\n")).not.toContain("Operator-Chosen-Pass-5");

    expect((await userRow(id)).role).toBe("staff");
    expect([await count("account", id), await count("session", id), await count("twoFactor", id)]).toEqual([0, 0, 0]);
    await expect(auth.api.signInEmail({ body: { email, password: ATTACKER_PASSWORD } })).rejects.toThrow();
    await expect(auth.api.signInEmail({ body: { email, password: "Operator-Chosen-Pass-5" } })).rejects.toThrow();
    const [entry] = await audit(id);
    expect(entry).toMatchObject({
      action: "staff.promote",
      actor_id: "system:staff-cli",
      actor_name: "Store operator",
    });
    const sent = await mails(email);
    expect(sent.map((m) => m.subject)).toContain("You're invited to the ToolHub Wholesale back office");
    expect(linkToken(sent.at(-1)!.text_body)).toBeTruthy();
  });

  it("a verified account keeps its password and second factor; its sessions end and it is told (back office and command line)", async () => {
    const email = "verified@example.com";
    const id = await preRegistered(email, true);
    const passwordHash = async () =>
      (
        await t.db
          .selectFrom("account")
          .select("password")
          .where("userId", "=", id)
          .where("providerId", "=", "credential")
          .executeTakeFirst()
      )?.password;
    const hash = await passwordHash();
    expect(hash).toBeTruthy();
    const { outcome } = await inviteStaff(t.db, auth as never, admin, { email, name: "Vera", role: "staff" }, SITE);
    expect(outcome).toBe("promoted");
    const row = await userRow(id);
    expect(row).toMatchObject({ role: "staff", name: "Mallory" });
    expect(Boolean(row.twoFactorEnabled)).toBe(true);
    expect(await count("session", id)).toBe(0);
    expect(await count("account", id)).toBe(1);
    expect(await count("twoFactor", id)).toBe(1);
    expect(await audit(id)).toEqual([
      {
        action: "staff.promote",
        actor_id: admin.userId,
        actor_name: "Boss",
        before: '{"role":"customer","sessions":2}',
        after: '{"role":"staff","sessions":0}',
      },
    ]);
    expect((await mails(email)).map((m) => m.subject)).toContain(
      "You now have access to the ToolHub Wholesale back office",
    );
    expect(await passwordHash()).toBe(hash);
    await t.db
      .insertInto("session")
      .values({
        id: `s-${id}`,
        token: `tok-${id}`,
        userId: id,
        expiresAt: new Date(Date.now() + 3600_000).toISOString(),
        ipAddress: null,
        userAgent: null,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      })
      .execute();

    // The command line: staff → admin, the same function.
    const lines: string[] = [];
    const code = await runStaffCommand(
      t.db,
      cfg,
      parseStaffArgs(["add", "--email", email, "--role", "admin", "--password", "Ignored-Pass-77"]),
      { line: (s) => lines.push(s), error: (s) => lines.push(s) },
    );
    expect(code).toBe(0);
    expect(lines).toEqual([
      `${email} was staff, now admin. Its 1 session was ended. They were told by email.`,
      "The address was verified, so the account keeps its own password: --password was not used.",
    ]);
    expect(await count("session", id)).toBe(0);
    expect((await audit(id)).at(-1)).toMatchObject({
      action: "staff.promote",
      actor_id: "system:staff-cli",
      before: '{"role":"staff","sessions":1}',
    });
    expect(await passwordHash()).toBe(hash);
  });

  it("refuses bad input: an unknown role, an account already on the list", async () => {
    await expect(
      inviteStaff(t.db, auth as never, admin, { email: "boss@example.com", name: "Boss", role: "staff" }, SITE),
    ).rejects.toMatchObject({ code: "ALREADY_STAFF", status: 409 });
    await expect(
      addStaff(t.db, auth as never, { email: "verified@example.com", role: "owner" as never }, change),
    ).rejects.toMatchObject({ code: "invalid_role" });
  });

  it("two invitations of the same unverified address at once: one reclaims it, the other gets a readable refusal", async () => {
    const email = "race@example.com";
    const id = await preRegistered(email);
    const results = await Promise.allSettled([
      inviteStaff(t.db, auth as never, admin, { email, name: "Race One", role: "staff" }, SITE),
      inviteStaff(t.db, auth as never, admin, { email, name: "Race Two", role: "admin" }, SITE),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult | undefined;
    if (refused) expect(refused.reason).toMatchObject({ status: 409 });
    expect([await count("account", id), await count("session", id), await count("twoFactor", id)]).toEqual([0, 0, 0]);
    expect((await audit(id)).map((a) => a.action)).toEqual(["staff.promote"]);
  });

  it("the command line's remove is the back office's: sessions end, and of two admins removed at once one stays", async () => {
    const a = await addStaff(
      t.db,
      auth as never,
      { email: "admin-a@example.com", password: PASSWORD, role: "admin" },
      change,
    );
    await auth.api.signInEmail({ body: { email: "admin-a@example.com", password: PASSWORD } });
    const lines: string[] = [];
    expect(
      await runStaffCommand(t.db, cfg, parseStaffArgs(["remove", "--email", "admin-a@example.com"]), {
        line: (s) => lines.push(s),
        error: (s) => lines.push(s),
      }),
    ).toBe(0);
    expect(lines).toEqual([
      "admin-a@example.com is no longer admin; the account stays, as a customer. Its 1 session was ended.",
    ]);
    expect(await count("session", a.userId)).toBe(0);
    expect((await audit(a.userId)).at(-1)).toMatchObject({ action: "staff.remove", actor_id: "system:staff-cli" });

    // Leave exactly two admins, then remove both at the same moment.
    const others = (await listStaffForAdmin(t.db)).filter((m) => m.role === "admin" && m.id !== admin.userId);
    for (const o of others) await removeStaffMember(t.db, admin, o.id);
    const b = await addStaff(
      t.db,
      auth as never,
      { email: "admin-b@example.com", password: PASSWORD, role: "admin" },
      change,
    );
    const results = await Promise.allSettled([
      removeStaffMember(t.db, OPERATOR, admin.userId),
      removeStaffMember(t.db, OPERATOR, b.userId),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      code: "LAST_ADMIN",
      status: 409,
    });
    expect((await listStaffForAdmin(t.db)).filter((m) => m.role === "admin")).toHaveLength(1);
    // Put the test's admin back for the tests below.
    const survivor = (await listStaffForAdmin(t.db)).find((m) => m.role === "admin")!;
    if (survivor.id !== admin.userId)
      await addStaff(t.db, auth as never, { email: "boss@example.com", role: "admin" }, change);
  });

  describe("resetting a colleague's second factor", () => {
    async function enrolledColleague(email: string, role: "staff" | "admin" = "staff") {
      const { userId } = await addStaff(
        t.db,
        auth as never,
        { email, password: PASSWORD, role, name: "Colleague" },
        change,
      );
      await auth.api.signInEmail({ body: { email, password: PASSWORD } });
      await t.db
        .insertInto("twoFactor")
        .values({ id: `tf-${userId}`, secret: "encrypted-secret", backupCodes: "encrypted-codes", userId })
        .execute();
      await t.db
        .updateTable("user")
        .set({ twoFactorEnabled: flag(true) })
        .where("id", "=", userId)
        .execute();
      return userId;
    }

    it("removes their factor, ends their sessions, writes an audit row and mails them", async () => {
      const id = await enrolledColleague("colleague@example.com");
      expect(await resetStaffTwoFactor(t.db, admin, id, SITE)).toEqual({ sessionsEnded: 1 });
      expect(Boolean((await userRow(id)).twoFactorEnabled)).toBe(false);
      expect([await count("twoFactor", id), await count("session", id)]).toEqual([0, 0]);
      expect(await count("account", id)).toBe(1);
      expect((await audit(id)).at(-1)).toEqual({
        action: "staff.reset-two-factor",
        actor_id: admin.userId,
        actor_name: "Boss",
        before: '{"twoFactorEnabled":true,"sessions":1}',
        after: '{"twoFactorEnabled":false,"sessions":0}',
      });
      const [mail] = (await mails("colleague@example.com")).filter(
        (m) => m.subject === "Your two-factor authentication was reset",
      );
      expect(mail.text_body).toContain("Boss reset the two-factor authentication");
      expect((await listStaffForAdmin(t.db)).find((m) => m.id === id)).toMatchObject({
        twoFactorEnabled: false,
        pending: false,
      });
      // Nothing left to reset.
      await expect(resetStaffTwoFactor(t.db, admin, id, SITE)).rejects.toMatchObject({
        code: "NO_TWO_FACTOR",
        status: 409,
        message: RESET_TWO_FACTOR_MESSAGES.notEnrolled("Colleague"),
      });
    });

    it("refuses an admin's own, a staff member (not admin) as the one resetting, and someone not on the staff list", async () => {
      await t.db
        .insertInto("twoFactor")
        .values({ id: `tf-self-${admin.userId}`, secret: "s", backupCodes: "b", userId: admin.userId })
        .execute();
      await t.db
        .updateTable("user")
        .set({ twoFactorEnabled: flag(true) })
        .where("id", "=", admin.userId)
        .execute();
      const target = await enrolledColleague("target@example.com");
      const staffId = await enrolledColleague("plainstaff@example.com", "staff");
      await auth.api.signUpEmail({ body: { email: "customer2fa@example.com", password: PASSWORD, name: "Cus" } });
      const customer = (
        await t.db
          .selectFrom("user")
          .select("id")
          .where("email", "=", "customer2fa@example.com")
          .executeTakeFirstOrThrow()
      ).id;
      const before = await t.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();

      await expect(resetStaffTwoFactor(t.db, admin, admin.userId, SITE)).rejects.toMatchObject({
        code: "OWN_TWO_FACTOR",
        status: 409,
        message: "You can't reset your own two-factor authentication. Ask another admin.",
      });
      expect(await count("twoFactor", admin.userId)).toBe(1);
      await expect(resetStaffTwoFactor(t.db, { userId: staffId, name: "Plain" }, target, SITE)).rejects.toMatchObject({
        code: "NOT_ADMIN",
        status: 403,
      });
      await expect(resetStaffTwoFactor(t.db, OPERATOR, target, SITE)).rejects.toMatchObject({ code: "NOT_ADMIN" });
      expect(await count("twoFactor", target)).toBe(1);
      await expect(resetStaffTwoFactor(t.db, admin, customer, SITE)).rejects.toMatchObject({
        code: "NOT_STAFF",
        status: 404,
      });
      await expect(resetStaffTwoFactor(t.db, admin, "no-such-user", SITE)).rejects.toMatchObject({
        code: "NOT_STAFF",
        status: 404,
      });
      const after = await t.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it("two admins resetting the same colleague at once: one resets, the other is told it is done", async () => {
      const second = await enrolledColleague("second-admin@example.com", "admin");
      const id = await enrolledColleague("both@example.com");
      const results = await Promise.allSettled([
        resetStaffTwoFactor(t.db, admin, id, SITE),
        resetStaffTwoFactor(t.db, { userId: second, name: "Second" }, id, SITE),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
        code: "NO_TWO_FACTOR",
        status: 409,
      });
      expect((await audit(id)).filter((a) => a.action === "staff.reset-two-factor")).toHaveLength(1);
      expect(
        (await mails("both@example.com")).filter((m) => m.subject === "Your two-factor authentication was reset"),
      ).toHaveLength(1);
    });
  });
});
