import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";
import { authDate } from "../../server/privacy/retention.ts";
import { keyFromUri, totpCode } from "../support/totp.ts";
import { startAuthApp, type AuthApp } from "./auth-harness.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

/**
 * Staff sessions and second-factor codes (issue 48, items 2, 3 and 5), through the real auth stack:
 * 12 hours in the database and the cookie and never extended; a session without a code can only
 * enter one; no emailed link for staff; wrong codes counted per account on every path; each code once.
 */
const PASSWORD = "Sturdy-Hammer-42";
const HOUR = 3600_000;
const email = (tag: string) => `${tag}.${randomBytes(4).toString("hex")}@example.com`;
/** The cookies a browser keeps from a response: for each name, the last Set-Cookie (an emptied one removes it). */
function cookieOf(response: Response): string {
  const jar = new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const name = pair.slice(0, pair.indexOf("="));
    if (pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}
/** The Max-Age the browser keeps for the session cookie: the last Set-Cookie of that name wins. */
const sessionCookieMaxAge = (response: Response) =>
  Number(
    /Max-Age=(\d+)/i.exec(
      response.headers
        .getSetCookie()
        .filter((c) => /session_token=[^;]/.test(c))
        .at(-1) ?? "",
    )?.[1],
  );
/** A code of a time step no earlier test used: the next step's code is accepted too (one step either side). */
const stepCode = (key: string, steps: number) => totpCode(key, Date.now() + steps * 30_000);

describe.each(dialects)("staff sessions and codes (%s)", (kind) => {
  let t: TestDb;
  let app: AuthApp;

  beforeAll(async () => {
    t = await freshDb(kind);
    app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "100000", AUTH_ACCOUNT_LIMIT: "1000" });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  async function account(tag: string, role: "customer" | "staff" | "admin" = "staff") {
    const who = email(tag);
    expect((await app.post("/sign-up/email", { email: who, password: PASSWORD, name: `Sam ${tag}` })).status).toBe(200);
    const row = await t.db
      .updateTable("user")
      .set({ emailVerified: true, role })
      .where("email", "=", who)
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, email: who };
  }

  const twoFactorOn = async (userId: string) =>
    Boolean(
      (await t.db.selectFrom("user").select("twoFactorEnabled").where("id", "=", userId).executeTakeFirstOrThrow())
        .twoFactorEnabled,
    );
  async function mailSubjects(to: string): Promise<string[]> {
    const rows = await sql<{
      subject: string;
    }>`select subject from mail_queue where to_address = ${to} order by id`.execute(t.db);
    return rows.rows.map((r) => r.subject);
  }

  /** Password sign-in, then enrolment through the handler the enrolment page uses; returns the key and a session that passed a code. */
  async function enrolled(tag: string, role: "staff" | "admin" = "staff") {
    const who = await account(tag, role);
    const signIn = await app.post("/sign-in/email", { email: who.email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    let cookie = cookieOf(signIn);
    const enable = await app.store("/two-factor/enable", { password: PASSWORD }, { cookie });
    expect(enable.status, await enable.clone().text()).toBe(200);
    const key = keyFromUri(((await enable.json()) as { totpURI: string }).totpURI);
    const enrolmentCode = stepCode(key, 0);
    const verify = await app.store("/two-factor/verify-totp", { code: enrolmentCode }, { cookie });
    expect(verify.status, await verify.clone().text()).toBe(200);
    cookie = cookieOf(verify);
    return { ...who, key, cookie, enrolmentCode };
  }

  it("a staff session ends 12 hours after it was made, in the database and the cookie; a customer's lasts 30 days", async () => {
    const staff = await account("twelve");
    const customer = await account("thirty", "customer");
    const staffSignIn = await app.post("/sign-in/email", { email: staff.email, password: PASSWORD });
    const customerSignIn = await app.post("/sign-in/email", { email: customer.email, password: PASSWORD });
    expect(sessionCookieMaxAge(staffSignIn)).toBeGreaterThan(12 * 3600 - 10);
    expect(sessionCookieMaxAge(staffSignIn)).toBeLessThanOrEqual(12 * 3600);
    expect(sessionCookieMaxAge(customerSignIn)).toBeGreaterThan(29 * 86400);
    const [staffRow] = await t.db
      .selectFrom("session")
      .select(["createdAt", "expiresAt"])
      .where("userId", "=", staff.id)
      .execute();
    const lifetime = new Date(staffRow.expiresAt).getTime() - new Date(staffRow.createdAt).getTime();
    expect(Math.abs(lifetime - 12 * HOUR)).toBeLessThan(5_000);
    const [customerRow] = await t.db
      .selectFrom("session")
      .select(["createdAt", "expiresAt"])
      .where("userId", "=", customer.id)
      .execute();
    expect(new Date(customerRow.expiresAt).getTime() - new Date(customerRow.createdAt).getTime()).toBeGreaterThan(
      29 * 24 * HOUR,
    );
  });

  it("Better Auth's daily refresh never moves a staff session's end, and a 13-hour-old session is refused everywhere", async () => {
    const staff = await enrolled("refresh");
    const createdAt = new Date(Date.now() - 11 * HOUR);
    // Due for the refresh (last extended two days ago as far as Better Auth can tell).
    await t.db
      .updateTable("session")
      .set({
        createdAt: authDate(t.db, createdAt),
        expiresAt: authDate(t.db, new Date(createdAt.getTime() + 12 * HOUR)),
        updatedAt: authDate(t.db, new Date(Date.now() - 2 * 24 * HOUR)),
      })
      .where("userId", "=", staff.id)
      .execute();
    const got = await app.auth.api.getSession({ headers: new Headers({ cookie: staff.cookie }) });
    expect(got?.user.email).toBe(staff.email);
    const [row] = await t.db.selectFrom("session").select(["expiresAt"]).where("userId", "=", staff.id).execute();
    expect(Math.abs(new Date(row.expiresAt).getTime() - (createdAt.getTime() + 12 * HOUR))).toBeLessThan(5_000);

    const old = new Date(Date.now() - 13 * HOUR);
    await t.db
      .updateTable("session")
      .set({ createdAt: authDate(t.db, old), expiresAt: authDate(t.db, new Date(old.getTime() + 12 * HOUR)) })
      .where("userId", "=", staff.id)
      .execute();
    expect(await app.auth.api.getSession({ headers: new Headers({ cookie: staff.cookie }) })).toBeNull();
    expect(
      (
        await app.store(
          "/change-password",
          { currentPassword: PASSWORD, newPassword: "Sturdy-Hammer-77" },
          { cookie: staff.cookie },
        )
      ).status,
    ).toBe(401);
  });

  it("start-up ends staff sessions made before the 12-hour rule once they are 12 hours old", async () => {
    const staff = await enrolled("legacy");
    const old = new Date(Date.now() - 13 * HOUR);
    await t.db
      .updateTable("session")
      .set({ createdAt: authDate(t.db, old), expiresAt: authDate(t.db, new Date(Date.now() + 17 * 24 * HOUR)) })
      .where("userId", "=", staff.id)
      .execute();
    await migrateAuth(t.db, loadConfig({ NODE_ENV: "test", AUTH_SECRET: "integration-secret-0123456789abcdef0123" }));
    expect(await app.auth.api.getSession({ headers: new Headers({ cookie: staff.cookie }) })).toBeNull();
  });

  it("a staff session without a code can enrol, enter a code or sign out, and nothing else", async () => {
    const staff = await account("codeless");
    const cookie = cookieOf(await app.post("/sign-in/email", { email: staff.email, password: PASSWORD }));
    const change = await app.store(
      "/change-password",
      { currentPassword: PASSWORD, newPassword: "Sturdy-Hammer-77" },
      { cookie },
    );
    expect(change.status).toBe(403);
    expect(((await change.json()) as { code: string }).code).toBe("SECOND_FACTOR_REQUIRED");
    const invite = await app.store(
      "/organization/invite-member",
      { email: email("x"), role: "buyer", organizationId: "x" },
      { cookie },
    );
    expect(invite.status).toBe(403);
    const enable = await app.store("/two-factor/enable", { password: PASSWORD }, { cookie });
    expect(enable.status).toBe(200);
    const account_ = await t.db
      .selectFrom("account")
      .select("password")
      .where("userId", "=", staff.id)
      .executeTakeFirstOrThrow();
    expect(account_.password).toBeTruthy();
  });

  it("once enrolled, the second factor can't be replaced or removed by a session (an admin resets it); a code-passed session may change its password and keeps its code", async () => {
    const staff = await enrolled("replace");
    const again = await app.store("/two-factor/enable", { password: PASSWORD }, { cookie: staff.cookie });
    expect(again.status).toBe(403);
    expect(((await again.json()) as { code: string }).code).toBe("TWO_FACTOR_ALREADY_ENABLED");
    const disable = await app.store("/two-factor/disable", { password: PASSWORD }, { cookie: staff.cookie });
    expect(disable.status).toBe(404);
    const change = await app.store(
      "/change-password",
      { currentPassword: PASSWORD, newPassword: "Sturdy-Hammer-77", revokeOtherSessions: true },
      { cookie: staff.cookie },
    );
    expect(change.status, await change.clone().text()).toBe(200);
    const sessions = await t.db
      .selectFrom("session")
      .select(["secondFactorAt"])
      .where("userId", "=", staff.id)
      .execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].secondFactorAt).toBeTruthy();
    expect(await twoFactorOn(staff.id)).toBe(true);
    expect(await mailSubjects(staff.email)).toContain(
      "Two-factor authentication is on for your ToolHub Wholesale account",
    );
  });

  it("an emailed sign-in link is never sent to a staff address (the owner is told why), and a link from before the role opens no session", async () => {
    const staff = await account("link");
    expect((await app.post("/sign-in/magic-link", { email: staff.email, callbackURL: "/" })).status).toBe(200);
    expect(await mailSubjects(staff.email)).toEqual(
      expect.arrayContaining(["Sign-in links don't work for staff accounts"]),
    );
    expect(await mailSubjects(staff.email)).not.toContain("Your ToolHub Wholesale sign-in link");

    const promoted = await account("promoted", "customer");
    expect(
      (await app.post("/sign-in/magic-link", { email: promoted.email, callbackURL: "/", errorCallbackURL: "/login" }))
        .status,
    ).toBe(200);
    const rows = await sql<{
      text_body: string;
    }>`select text_body from mail_queue where to_address = ${promoted.email} and subject = 'Your ToolHub Wholesale sign-in link'`.execute(
      t.db,
    );
    const link = /https?:\/\/\S+magic-link\/verify\S+/.exec(rows.rows[0].text_body)![0];
    await t.db.updateTable("user").set({ role: "admin" }).where("id", "=", promoted.id).execute();
    const response = await fetch(link, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("/login?error=STAFF_PASSWORD_ONLY");
    expect(response.headers.getSetCookie().some((c) => /session_token=[^;]/.test(c))).toBe(false);
    expect(await t.db.selectFrom("session").select("id").where("userId", "=", promoted.id).execute()).toEqual([]);
  });

  it("with only the mailbox, an attacker reaches no staff session: a new password still asks for the code, no sign-in link comes, and no endpoint removes or mints a second factor", async () => {
    const staff = await enrolled("mailbox");
    expect(
      (await app.post("/request-password-reset", { email: staff.email, redirectTo: "/reset-password" })).status,
    ).toBe(200);
    const rows = await sql<{
      text_body: string;
    }>`select text_body from mail_queue where to_address = ${staff.email} and subject like '%Reset%' order by id`.execute(
      t.db,
    );
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(rows.rows.at(-1)!.text_body)![1];
    expect((await app.store("/reset-password", { token, newPassword: "Attacker-Chisel-77" })).status).toBe(200);
    const signIn = await app.post("/sign-in/email", { email: staff.email, password: "Attacker-Chisel-77" });
    expect(((await signIn.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    expect(cookieOf(signIn)).not.toMatch(/session_token=/);
    expect((await app.post("/sign-in/magic-link", { email: staff.email, callbackURL: "/" })).status).toBe(200);
    expect(await mailSubjects(staff.email)).not.toContain("Your ToolHub Wholesale sign-in link");
    const challenge = cookieOf(signIn);
    for (const path of ["/two-factor/disable", "/two-factor/generate-backup-codes", "/two-factor/enable"]) {
      expect((await app.post(path, { password: "Attacker-Chisel-77" }, { cookie: challenge })).status, path).toBe(404);
    }
    expect(
      (await app.store("/two-factor/enable", { password: "Attacker-Chisel-77" }, { cookie: challenge })).status,
    ).toBe(401);
    expect(await t.db.selectFrom("session").select("id").where("userId", "=", staff.id).execute()).toEqual([]);
    expect(await twoFactorOn(staff.id)).toBe(true);
  });

  it("counts wrong codes per account on the signed-in path: 5 in 15 minutes, then even the right code waits, and the owner is mailed once", async () => {
    const staff = await enrolled("lock");
    // A session that hasn't passed a code yet (as a sign-in before the rule, or a password change, could leave).
    await t.db.updateTable("session").set({ secondFactorAt: null }).where("userId", "=", staff.id).execute();
    for (let i = 0; i < 5; i++) {
      const wrong = await app.store(
        "/two-factor/verify-totp",
        { code: "000000" === stepCode(staff.key, 1) ? "111111" : "000000" },
        { cookie: staff.cookie },
      );
      expect(wrong.status).toBe(401);
    }
    const right = await app.store(
      "/two-factor/verify-totp",
      { code: stepCode(staff.key, 1) },
      { cookie: staff.cookie },
    );
    expect(right.status).toBe(429);
    expect(((await right.json()) as { code: string }).code).toBe("SECOND_FACTOR_LOCKED");
    // The lock is the account's: the password sign-in's second step is refused too.
    const signIn = await app.post("/sign-in/email", { email: staff.email, password: PASSWORD });
    expect(((await signIn.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect).toBe(true);
    expect(
      (await app.store("/two-factor/verify-totp", { code: stepCode(staff.key, 1) }, { cookie: cookieOf(signIn) }))
        .status,
    ).toBe(429);
    expect(
      (await mailSubjects(staff.email)).filter((s) => s === "Code entry on your ToolHub Wholesale account is paused"),
    ).toHaveLength(1);
  });

  it("parallel guesses can't slip past the count: of 12 wrong codes at once, exactly 5 are checked", async () => {
    const staff = await enrolled("parallel");
    const signIn = await app.post("/sign-in/email", { email: staff.email, password: PASSWORD });
    const cookie = cookieOf(signIn);
    const codes = Array.from({ length: 12 }, (_, i) => String(100000 + i * 7919)).filter(
      (c) => c !== stepCode(staff.key, 0) && c !== stepCode(staff.key, 1) && c !== stepCode(staff.key, -1),
    );
    const statuses = await Promise.all(
      codes.map((code) => app.store("/two-factor/verify-totp", { code }, { cookie }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 429)).toHaveLength(codes.length - 5);
    expect(statuses.filter((s) => s === 401 || s === 400)).toHaveLength(5);
  });

  it("a code's time step works once: the enrolment's code is refused at the next sign-in, a fresh one works; a backup code can't be used twice at once", async () => {
    const staff = await enrolled("replay");
    const signIn = await app.post("/sign-in/email", { email: staff.email, password: PASSWORD });
    const cookie = cookieOf(signIn);
    // The very code the enrolment used: the clock may have moved into the next step since.
    const replay = await app.store("/two-factor/verify-totp", { code: staff.enrolmentCode }, { cookie });
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { code: string }).code).toBe("CODE_ALREADY_USED");
    const fresh = await app.store("/two-factor/verify-totp", { code: stepCode(staff.key, 1) }, { cookie });
    expect(fresh.status, await fresh.clone().text()).toBe(200);

    const backup = (await app.auth.api.viewBackupCodes({ body: { userId: staff.id } })) as { backupCodes: string[] };
    const [a, b] = await Promise.all(
      [1, 2].map(async () => {
        const challenge = await app.post("/sign-in/email", { email: staff.email, password: PASSWORD });
        return cookieOf(challenge);
      }),
    );
    const results = await Promise.all(
      [a, b].map((c) =>
        app
          .store("/two-factor/verify-backup-code", { code: backup.backupCodes[0] }, { cookie: c })
          .then((r) => r.status),
      ),
    );
    expect(results.sort()).toEqual([200, 401]);
  });
});
