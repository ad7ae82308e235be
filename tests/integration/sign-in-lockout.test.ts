import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../../app/lib/auth-rules.ts";
import { closeRateLimitConnections, createRateLimiter } from "../../server/security/rate-limit.ts";
import { startAuthApp, type AuthApp } from "./auth-harness.ts";
import { dialects, freshDb, redisUp, redisUrl, type TestDb } from "./databases.ts";

const PASSWORD = "Sturdy-Hammer-42";
const WRONG = "Wrong-Password-1";
const LIMIT = 2;
const email = (tag: string) => `${tag}.${randomBytes(4).toString("hex")}@example.com`;
const ip = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

async function signIn(app: AuthApp, who: string, password: string, from: string) {
  const response = await app.post("/sign-in/email", { email: who, password }, { "x-test-ip": from });
  const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  return { status: response.status, ...body, retryAfter: Number(response.headers.get("x-retry-after")) };
}

async function statuses(app: AuthApp, who: string, password: string, from: string, times: number) {
  const out: number[] = [];
  for (let i = 0; i < times; i++) out.push((await signIn(app, who, password, from)).status);
  return out;
}

const failures = (n: number) => Array<number>(n).fill(401);
const refusals = (n: number) => Array<number>(n).fill(429);

/** `shared`: the two app instances count together (Redis); in memory each process counts alone. */
function lockoutSuite(
  label: string,
  env: () => Record<string, string>,
  options: { kinds?: typeof dialects; shared?: boolean } = {},
) {
  const kinds = options.kinds ?? dialects;
  describe.each(kinds)(`password sign-in counts failures, not attempts (%s, ${label})`, (kind) => {
    let t: TestDb;
    let app: AuthApp;
    let other: AuthApp;
    beforeAll(async () => {
      t = await freshDb(kind);
      app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "1000", AUTH_ACCOUNT_LIMIT: String(LIMIT), ...env() });
      other = await startAuthApp(t.db, { AUTH_IP_LIMIT: "1000", AUTH_ACCOUNT_LIMIT: String(LIMIT), ...env() });
    });
    afterAll(async () => {
      await app.close();
      await other.close();
      await t.drop();
    });

    const second = () => (options.shared ? other : app);

    async function owner(tag: string) {
      const who = email(tag);
      expect((await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Owner" })).status).toBe(200);
      return who;
    }

    it("a stranger's 20 wrong passwords from one IP throttle that IP, not the owner's correct password from another", async () => {
      const who = await owner("stranger");
      const stranger = ip();
      const seen = await statuses(app, who, WRONG, stranger, 20);
      expect(seen).toEqual([...failures(LIMIT), ...refusals(20 - LIMIT)]);
      const refused = await signIn(app, who, WRONG, stranger);
      expect(refused.message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      expect(refused.retryAfter).toBeGreaterThan(0);
      expect(refused.retryAfter).toBeLessThanOrEqual(300);
      // While that IP is locked, even the right password from it is refused …
      expect((await signIn(app, who, PASSWORD, stranger)).status).toBe(429);
      // … but the owner, elsewhere, signs in.
      expect((await signIn(app, who, PASSWORD, ip().replace("198.51.100", "203.0.113"))).status).toBe(200);
    });

    it("a correct password below the limit signs in and clears that IP's count", async () => {
      const who = await owner("reset");
      const from = ip();
      expect(await statuses(app, who, WRONG, from, LIMIT - 1)).toEqual(failures(LIMIT - 1));
      expect((await signIn(app, who, PASSWORD, from)).status).toBe(200);
      expect(await statuses(app, who, WRONG, from, LIMIT + 1)).toEqual([...failures(LIMIT), 429]);
    });

    it("only wrong passwords count: sign-ins and malformed requests give their place back", async () => {
      const who = await owner("refund");
      const from = ip();
      for (let i = 0; i < LIMIT * 2; i++) {
        expect((await signIn(app, who, PASSWORD, from)).status).toBe(200);
        expect(
          (await app.post("/sign-in/email", { email: "not-an-email", password: WRONG }, { "x-test-ip": from })).status,
        ).toBe(400);
      }
      expect(await statuses(app, "not-an-email", WRONG, from, 1)).toEqual([400]);
      expect(await statuses(app, who, WRONG, from, LIMIT + 1)).toEqual([...failures(LIMIT), 429]);
    });

    it("parallel guesses from one IP cannot slip past the limit", async () => {
      const who = await owner("burst");
      const from = ip();
      const burst = await Promise.all(Array.from({ length: 12 }, () => signIn(app, who, WRONG, from)));
      expect(burst.filter((r) => r.status === 401)).toHaveLength(LIMIT);
      expect(burst.filter((r) => r.status === 429)).toHaveLength(12 - LIMIT);
    });

    it("counts one account's failures across IPs: past 10× the limit password sign-in pauses for everyone, and the emailed link still signs in", async () => {
      const who = await owner("ceiling");
      const ceiling = 10 * LIMIT;
      for (let n = 0; n < ceiling / LIMIT; n++) {
        const from = `192.0.2.${n + 1}`;
        expect(await statuses(n % 2 ? second() : app, who, WRONG, from, LIMIT)).toEqual(failures(LIMIT));
      }
      const paused = await signIn(app, who, PASSWORD, "203.0.113.77");
      expect(paused.status).toBe(429);
      expect(paused.code).toBe("PASSWORD_SIGN_IN_PAUSED");
      expect(paused.message).toBe(AUTH_MESSAGES.passwordSignInPaused(Math.ceil(paused.retryAfter / 60)));
      expect(paused.message).toContain("Email me a sign-in link");
      expect(paused.retryAfter).toBeGreaterThan(0);
      expect(paused.retryAfter).toBeLessThanOrEqual(15 * 60);
      // The paused attempt did not use up that IP's own allowance.
      expect((await signIn(second(), who, PASSWORD, "203.0.113.77")).status).toBe(429);

      expect(
        (await app.post("/sign-in/magic-link", { email: who, callbackURL: "/" }, { "x-test-ip": "203.0.113.77" }))
          .status,
      ).toBe(200);
      const mail = await sql<{
        text_body: string;
      }>`select text_body from mail_queue where to_address = ${who} and subject like ${"%sign-in link%"} order by id desc`.execute(
        t.db,
      );
      const link = /https?:\/\/\S+magic-link\/verify\S+/.exec(mail.rows[0].text_body)![0];
      const signedIn = await fetch(link, { redirect: "manual", headers: { "x-test-ip": "203.0.113.77" } });
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.getSetCookie().join(";")).toMatch(/session_token=[^;]/);
    });
  });
}

lockoutSuite("in memory", () => ({}));

const up = await redisUp();
describe.skipIf(!up)("with Redis", () => {
  afterAll(() => closeRateLimitConnections());
  // Two app instances (as two processes) over one Redis: the "other" instance sees the same counts.
  lockoutSuite("Redis", () => ({ REDIS_URL: redisUrl }), { kinds: ["sqlite"], shared: true });

  it("gives back a hit without reviving an expired window or going below zero", async () => {
    const name = `undo-${randomBytes(4).toString("hex")}`;
    const limiter = createRateLimiter({ name, windowSeconds: 1, max: 2, redisUrl });
    await limiter.undo("k");
    await limiter.hit("k");
    await limiter.undo("k");
    await limiter.undo("k");
    expect((await limiter.hit("k")).remaining).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await limiter.undo("k");
    const redis = new Redis(redisUrl);
    try {
      expect(await redis.exists(`toolstore:rl:${name}:k`)).toBe(0);
    } finally {
      redis.disconnect();
    }
    await limiter.hit("k");
    await limiter.reset("k");
    expect((await limiter.hit("k")).remaining).toBe(1);
  });
});

describe("a refundable limiter in memory", () => {
  it("gives back a hit within the window only, never below zero, and resets", async () => {
    let now = 0;
    const limiter = createRateLimiter({ name: "mem-undo", windowSeconds: 60, max: 2, now: () => now });
    await limiter.undo("k");
    expect((await limiter.hit("k")).remaining).toBe(1);
    await limiter.undo("k");
    await limiter.undo("k");
    expect((await limiter.hit("k")).remaining).toBe(1);
    expect((await limiter.hit("k")).remaining).toBe(0);
    now += 61_000;
    await limiter.undo("k");
    expect((await limiter.hit("k")).remaining).toBe(1);
    await limiter.reset("k");
    expect((await limiter.hit("k")).remaining).toBe(1);
  });
});
