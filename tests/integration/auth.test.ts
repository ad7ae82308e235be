import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usePasswordHashingForTests } from "../../server/auth/password-hashing.ts";
import { dialects, freshDb, redisUp, redisUrl, type TestDb } from "./databases.ts";
import { startAuthApp, type AuthApp } from "./auth-harness.ts";

// This file signs up and in with the store's real hashing (Better Auth's scrypt), not the suite's fast one.
usePasswordHashingForTests(undefined);

const PASSWORD = "Sturdy-Hammer-42";
const email = (tag: string) => `${tag}.${randomBytes(4).toString("hex")}@example.com`;

async function userCount(t: TestDb) {
  const row = await sql<{ n: number }>`select count(*) as n from "user"`.execute(t.db);
  return Number(row.rows[0].n);
}

async function mailBodies(t: TestDb, to: string): Promise<string[]> {
  const rows = await sql<{ text_body: string }>`select text_body from mail_queue where to_address = ${to} order by id`
    .execute(t.db)
    .catch(() => ({ rows: [] as { text_body: string }[] }));
  return rows.rows.map((r) => r.text_body);
}

describe.each(dialects)("auth HTTP handler with bad input (%s)", (kind) => {
  let t: TestDb;
  let app: AuthApp;
  beforeAll(async () => {
    t = await freshDb(kind);
    app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "1000", AUTH_ACCOUNT_LIMIT: "4" });
  });
  afterAll(async () => {
    await app.close();
    await t.drop();
  });

  it("registers and signs in with good input, and the password is stored hashed", async () => {
    const who = email("good");
    expect((await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Good" })).status).toBe(200);
    const signIn = await app.post("/sign-in/email", { email: who, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().join(";");
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const stored = await sql<{
      password: string;
    }>`select a.password from account a join "user" u on u.id = a."userId" where u.email = ${who}`.execute(t.db);
    expect(stored.rows[0].password).not.toContain(PASSWORD);
    // Better Auth's scrypt: a 16-byte salt and a 64-byte key, in hex.
    expect(stored.rows[0].password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
  });

  it("refuses missing fields and wrong types with a 4xx and a reason", async () => {
    const before = await userCount(t);
    for (const body of [
      {},
      { email: email("x") },
      { password: PASSWORD },
      { email: 42, password: PASSWORD, name: "n" },
      { email: email("y"), password: ["a"], name: "n" },
      "not json",
    ]) {
      const response = await app.post("/sign-up/email", body);
      expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    const short = await app.post("/sign-up/email", { email: email("short"), password: "abc", name: "n" });
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe("Password must be at least 6 characters");
    const missing = await app.post("/sign-up/email", { email: "", password: "", name: "n" });
    expect((await missing.json()).message).toBe("Email and password are required");
    const common = await app.post("/sign-up/email", { email: email("common"), password: "trustno1", name: "n" });
    expect(common.status).toBe(400);
    expect((await common.json()).code).toBe("PASSWORD_DOES_NOT_MEET_REQUIREMENTS");
    expect(await userCount(t)).toBe(before);
  });

  it("refuses a 1 MB body with 413 before it reaches the auth library", async () => {
    const response = await app.post("/sign-in/email", { email: email("big"), password: "x".repeat(1024 * 1024) });
    expect(response.status).toBe(413);
  });

  it("treats SQL-looking and unicode emails as data", async () => {
    const before = await userCount(t);
    for (const weird of [
      "' OR 1=1 --@example.com",
      'x@example.com\'; DROP TABLE "user"; --',
      "robert');DELETE FROM account;--@x.io",
    ]) {
      const response = await app.post("/sign-in/email", { email: weird, password: PASSWORD });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    const unicode = await app.post("/sign-up/email", {
      email: `ünï.${randomBytes(3).toString("hex")}@exämple.com`,
      password: PASSWORD,
      name: "Ünï",
    });
    expect(unicode.status).toBeLessThan(500);
    expect(await userCount(t)).toBeGreaterThanOrEqual(before);
    await expect(sql`select count(*) from account`.execute(t.db)).resolves.toBeTruthy();
  });

  it("gives a duplicate email a clear answer and the same answer to wrong passwords and unknown emails", async () => {
    const who = email("dupe");
    await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Dupe" });
    const again = await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Dupe" });
    expect(again.status).toBe(422);
    const wrong = await app.post("/sign-in/email", { email: who, password: "Wrong-Password-1" });
    const unknown = await app.post("/sign-in/email", { email: email("nobody"), password: "Wrong-Password-1" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect((await wrong.json()).code).toBe((await unknown.json()).code);
  });

  it("answers untrusted origins with 403", async () => {
    const response = await app.post(
      "/sign-in/email",
      { email: email("csrf"), password: PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    const nullOrigin = await app.post(
      "/sign-in/email",
      { email: email("csrf"), password: PASSWORD },
      { origin: "null" },
    );
    expect(nullOrigin.status).toBe(403);
    const crossSite = await fetch(`${app.url}/api/auth/sign-out`, {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
  });

  it("limits failed sign-ins per account and IP (more in sign-in-lockout.test.ts)", async () => {
    const who = email("limit");
    await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Limit" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await app.post(
        "/sign-in/email",
        { email: who, password: "Wrong-Password-1" },
        { "x-test-ip": "10.0.0.1" },
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect((await response.json()).message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      }
    }
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
  });

  it("email links work once and expire after 15 minutes", async () => {
    const who = email("magic");
    await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Magic" });
    expect((await app.post("/sign-in/magic-link", { email: who, callbackURL: "/" })).status).toBe(200);
    // The first mail is the sign-up's address confirmation; the link is the latest.
    const body = (await mailBodies(t, who)).at(-1)!;
    const link = /https?:\/\/\S+magic-link\/verify\S+/.exec(body)![0];
    const first = await fetch(link, { redirect: "manual" });
    expect(first.status).toBe(302);
    expect(first.headers.getSetCookie().join(";")).toMatch(/session_token/);
    const replay = await fetch(link, { redirect: "manual" });
    expect(replay.headers.getSetCookie().join(";")).not.toMatch(/session_token=[^;]/);
    expect(replay.headers.get("location")).toMatch(/error=/);

    await app.post("/sign-in/magic-link", { email: who, callbackURL: "/" });
    const expiry = await sql<{
      expiresAt: unknown;
      createdAt: unknown;
    }>`select "expiresAt", "createdAt" from verification order by "createdAt" desc limit 1`.execute(t.db);
    const minutes =
      (new Date(String(expiry.rows[0].expiresAt)).getTime() - new Date(String(expiry.rows[0].createdAt)).getTime()) /
      60_000;
    expect(Math.round(minutes)).toBe(15);
    await sql`update verification set "expiresAt" = ${kind === "postgres" ? new Date(Date.now() - 1000) : new Date(Date.now() - 1000).toISOString()}`.execute(
      t.db,
    );
    const bodies = await mailBodies(t, who);
    const expiredLink = /https?:\/\/\S+magic-link\/verify\S+/.exec(bodies.at(-1)!)![0];
    const expired = await fetch(expiredLink, { redirect: "manual" });
    expect(expired.headers.getSetCookie().join(";")).not.toMatch(/session_token=[^;]/);
  });

  it("password reset answers the same for unknown emails, and a reset token works once", async () => {
    const who = email("reset");
    await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Reset" });
    const known = await app.post("/request-password-reset", { email: who, redirectTo: "/reset-password" });
    const unknown = await app.post("/request-password-reset", { email: email("ghost"), redirectTo: "/reset-password" });
    expect(known.status).toBe(unknown.status);
    expect(await known.json()).toEqual(await unknown.json());
    const body = (await mailBodies(t, who)).at(-1)!;
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(body)![1];
    expect((await app.store("/reset-password", { token, newPassword: "Fresh-Chisel-77" })).status).toBe(200);
    expect((await app.store("/reset-password", { token, newPassword: "Other-Chisel-78" })).status).toBe(400);
    expect(
      (await app.post("/sign-in/email", { email: who, password: "Fresh-Chisel-77" }, { "x-test-ip": "10.9.9.9" }))
        .status,
    ).toBe(200);
  });
});

describe("per-IP rate limit", () => {
  it("answers 429 with a retry time past the limit", async () => {
    const t = await freshDb("sqlite");
    const app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "3" });
    const statuses: number[] = [];
    let retry: string | null = null;
    for (let i = 0; i < 5; i++) {
      const response = await app.post(
        "/sign-in/email",
        { email: email(`ip${i}`), password: PASSWORD },
        { "x-test-ip": "198.51.100.7" },
      );
      statuses.push(response.status);
      if (response.status === 429) retry = response.headers.get("x-retry-after");
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(Number(retry)).toBeGreaterThan(0);
    await app.close();
    await t.drop();
  });
});

describe("rate limits shared through Redis", async () => {
  const up = await redisUp();
  it.skipIf(!up)("two app instances count one limit together", async () => {
    const t = await freshDb("sqlite");
    // An address no other test file uses: the limit's Redis key is per address and shared by
    // every run on this machine's Redis, including the other Vitest worker's files.
    const ip = `198.18.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
    const env = { AUTH_IP_LIMIT: "4", REDIS_URL: redisUrl };
    const [a, b] = [await startAuthApp(t.db, env), await startAuthApp(t.db, env)];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? a : b;
      statuses.push(
        (await app.post("/sign-in/email", { email: email(`r${i}`), password: PASSWORD }, { "x-test-ip": ip })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    await a.close();
    await b.close();
    await t.drop();
  });
});
