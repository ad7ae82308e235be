import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_MESSAGES } from "../../app/lib/sessions.ts";
import { PRIVACY_MESSAGES } from "../../app/lib/privacy.ts";
import { endOtherSessions, endSession, listSessions, sessionFormAction } from "../../server/auth/sessions.ts";
import { isDomainError } from "../../server/errors.ts";
import { authDate } from "../../server/privacy/retention.ts";
import { startAuthApp, type AuthApp } from "./auth-harness.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const PASSWORD = "Sturdy-Hammer-42";
const UA = {
  windows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:133.0) Gecko/20100101 Firefox/133.0",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
};

interface SignedIn {
  userId: string;
  sessionId: string;
  token: string;
  cookie: string;
}

describe.each(dialects)("active sessions on %s", (kind) => {
  let t: TestDb;
  let app: AuthApp;

  beforeAll(async () => {
    t = await freshDb(kind);
    app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "1000", AUTH_ACCOUNT_LIMIT: "1000" });
  });
  afterAll(async () => {
    await app?.close();
    await t?.drop();
  });

  async function register(tag: string): Promise<string> {
    const email = `${tag}.${randomBytes(4).toString("hex")}@example.com`;
    expect((await app.post("/sign-up/email", { email, password: PASSWORD, name: `Ada ${tag}` })).status).toBe(200);
    return email;
  }

  /** A real sign-in through Better Auth's handler, from a given browser and address. */
  async function signIn(email: string, userAgent: string, ip: string): Promise<SignedIn> {
    const response = await app.post(
      "/sign-in/email",
      { email, password: PASSWORD },
      { "user-agent": userAgent, "x-test-ip": ip },
    );
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    const row = await t.db
      .selectFrom("session")
      .select(["id", "userId"])
      .where("token", "=", token)
      .executeTakeFirstOrThrow();
    const cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { userId: row.userId, sessionId: row.id, token, cookie };
  }

  async function stillSignedIn(who: SignedIn): Promise<boolean> {
    return Boolean(await app.auth.api.getSession({ headers: new Headers({ cookie: who.cookie }) }));
  }

  async function sessionIds(userId: string): Promise<string[]> {
    return (await t.db.selectFrom("session").select("id").where("userId", "=", userId).orderBy("id").execute()).map(
      (r) => r.id,
    );
  }

  async function insertExpiredSession(userId: string): Promise<string> {
    const id = `expired-${randomBytes(6).toString("hex")}`;
    const long = new Date(Date.now() - 40 * 86_400_000);
    const yesterday = new Date(Date.now() - 86_400_000);
    await t.db
      .insertInto("session")
      .values({
        id,
        token: `tok-${id}`,
        userId,
        expiresAt: authDate(t.db, yesterday),
        ipAddress: "198.51.100.7",
        userAgent: UA.iphone,
        createdAt: authDate(t.db, long),
        updatedAt: authDate(t.db, long),
      })
      .execute();
    return id;
  }

  function post(fields: Record<string, string>, origin = app.origin): Request {
    return new Request(`${app.origin}/account`, {
      method: "POST",
      headers: { origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  }
  const policy = () => [app.origin];

  it("lists only the user's own unexpired sessions, the current one first, without any token", async () => {
    const email = await register("list");
    const laptop = await signIn(email, UA.windows, "203.0.113.10");
    const phone = await signIn(email, UA.mac, "::ffff:203.0.113.11");
    const expired = await insertExpiredSession(laptop.userId);
    const bystander = await signIn(await register("bystander"), UA.iphone, "203.0.113.12");

    const list = await listSessions(t.db, laptop.userId, laptop.sessionId);
    expect(list.map((s) => s.id)).toEqual([laptop.sessionId, phone.sessionId]);
    expect(list.map((s) => s.id)).not.toContain(expired);
    expect(list.map((s) => s.id)).not.toContain(bystander.sessionId);
    expect(list[0]).toMatchObject({ current: true, device: "Chrome on Windows", ipAddress: "203.0.113.10" });
    expect(list[1]).toMatchObject({ current: false, device: "Firefox on macOS", ipAddress: "203.0.113.11" });
    for (const s of list) {
      expect(Object.keys(s).sort()).toEqual(["current", "device", "id", "ipAddress", "lastActiveAt", "signedInAt"]);
      expect(new Date(s.signedInAt).toISOString()).toBe(s.signedInAt);
      expect(Math.abs(Date.parse(s.signedInAt) - Date.now())).toBeLessThan(60_000);
    }
    const text = JSON.stringify(list);
    for (const secret of [laptop.token, phone.token, bystander.token]) expect(text).not.toContain(secret);

    // Seen from the other device, that one is current.
    expect((await listSessions(t.db, laptop.userId, phone.sessionId)).map((s) => [s.id, s.current])).toEqual([
      [phone.sessionId, true],
      [laptop.sessionId, false],
    ]);
  });

  it("refuses to end another user's session, or one that doesn't exist, and deletes nothing", async () => {
    const ada = await signIn(await register("ada"), UA.windows, "203.0.113.20");
    const bob = await signIn(await register("bob"), UA.mac, "203.0.113.21");
    const before = { ada: await sessionIds(ada.userId), bob: await sessionIds(bob.userId) };

    for (const id of [bob.sessionId, "no-such-session", "", "x".repeat(500)]) {
      const error = await endSession(t.db, ada.userId, id, { currentSessionId: ada.sessionId }).catch(
        (e: unknown) => e,
      );
      expect(isDomainError(error) && { status: error.status, message: error.message }).toEqual({
        status: 404,
        message: SESSION_MESSAGES.notFound,
      });
    }
    const form = new FormData();
    form.set("intent", "end-session");
    form.set("sessionId", bob.sessionId);
    expect(await sessionFormAction(t.db, post({}), ada, form, policy())).toEqual({
      status: 404,
      ok: false,
      message: SESSION_MESSAGES.notFound,
    });

    expect(await sessionIds(ada.userId)).toEqual(before.ada);
    expect(await sessionIds(bob.userId)).toEqual(before.bob);
    expect(await stillSignedIn(bob)).toBe(true);
  });

  it("refuses a post from another site and the current session itself", async () => {
    const email = await register("guard");
    const here = await signIn(email, UA.windows, "203.0.113.30");
    const there = await signIn(email, UA.mac, "203.0.113.31");
    const form = new FormData();
    form.set("intent", "end-session");
    form.set("sessionId", there.sessionId);
    expect(await sessionFormAction(t.db, post({}, "https://evil.example"), here, form, policy())).toEqual({
      status: 403,
      ok: false,
      message: PRIVACY_MESSAGES.untrustedOrigin,
    });
    const others = new FormData();
    others.set("intent", "end-other-sessions");
    expect((await sessionFormAction(t.db, post({}, "null"), here, others, policy())).status).toBe(403);
    const self = new FormData();
    self.set("intent", "end-session");
    self.set("sessionId", here.sessionId);
    expect(await sessionFormAction(t.db, post({}), here, self, policy())).toEqual({
      status: 400,
      ok: false,
      message: SESSION_MESSAGES.current,
    });
    expect((await sessionIds(here.userId)).length).toBe(2);
    expect(await stillSignedIn(there)).toBe(true);
  });

  it("ends one other session: that device is signed out, the rest stay", async () => {
    const email = await register("one");
    const here = await signIn(email, UA.windows, "203.0.113.40");
    const phone = await signIn(email, UA.iphone, "203.0.113.41");
    const tablet = await signIn(email, UA.mac, "203.0.113.42");
    const form = new FormData();
    form.set("intent", "end-session");
    form.set("sessionId", phone.sessionId);
    expect(await sessionFormAction(t.db, post({}), here, form, policy())).toEqual({
      status: 200,
      ok: true,
      message: SESSION_MESSAGES.ended("Safari on iPhone"),
    });
    expect(await stillSignedIn(phone)).toBe(false);
    expect(await stillSignedIn(here)).toBe(true);
    expect(await stillSignedIn(tablet)).toBe(true);
    expect((await listSessions(t.db, here.userId, here.sessionId)).map((s) => s.id)).toEqual([
      here.sessionId,
      tablet.sessionId,
    ]);
    // Again: it's gone already.
    expect((await sessionFormAction(t.db, post({}), here, form, policy())).status).toBe(404);
  });

  it("ends every other session and keeps the current one, leaving other users alone", async () => {
    const email = await register("others");
    const here = await signIn(email, UA.windows, "203.0.113.50");
    const a = await signIn(email, UA.iphone, "203.0.113.51");
    const b = await signIn(email, UA.mac, "203.0.113.52");
    const expired = await insertExpiredSession(here.userId);
    const bystander = await signIn(await register("calm"), UA.mac, "203.0.113.53");

    expect(await endOtherSessions(t.db, here.userId, here.sessionId)).toBe(3);
    expect(await sessionIds(here.userId)).toEqual([here.sessionId]);
    expect(await sessionIds(here.userId)).not.toContain(expired);
    for (const gone of [a, b]) expect(await stillSignedIn(gone)).toBe(false);
    expect(await stillSignedIn(here)).toBe(true);
    expect(await stillSignedIn(bystander)).toBe(true);

    const form = new FormData();
    form.set("intent", "end-other-sessions");
    expect(await sessionFormAction(t.db, post({}), here, form, policy())).toEqual({
      status: 200,
      ok: true,
      message: SESSION_MESSAGES.noOthers,
    });
    expect(await sessionIds(here.userId)).toEqual([here.sessionId]);
  });
});
