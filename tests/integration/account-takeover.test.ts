import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeOverUnverifiedAccount } from "../../server/auth/google-takeover.ts";
import { dialects, freshDb, mailsTo, pgUrl, type TestDb } from "./databases.ts";
import { startAuthApp, type AuthApp } from "./auth-harness.ts";

const PASSWORD = "Sturdy-Hammer-42";
const email = (tag: string) => `${tag}.${randomBytes(4).toString("hex")}@example.com`;

describe.each(dialects)("sign-up verification and the pre-account takeover (%s)", (kind) => {
  let t: TestDb;
  let app: AuthApp;
  beforeAll(async () => {
    t = await freshDb(kind);
    app = await startAuthApp(t.db, { AUTH_IP_LIMIT: "1000" });
  });
  afterAll(async () => {
    await app.close();
    await t.drop();
  });

  const userByEmail = (who: string) =>
    t.db.selectFrom("user").selectAll().where("email", "=", who).executeTakeFirstOrThrow();
  const mailsOf = (who: string) => mailsTo(t.db, who);

  it("sends a verification mail at sign-up; the account stays unverified until its link is used, and can sign in meanwhile", async () => {
    const who = email("verify");
    expect((await app.post("/sign-up/email", { email: who, password: PASSWORD, name: "Vera" })).status).toBe(200);
    const mails = await mailsOf(who);
    expect(mails.map((m) => m.subject)).toEqual(["Confirm your ToolHub Wholesale email address"]);
    expect(Boolean((await userByEmail(who)).emailVerified)).toBe(false);
    expect((await app.post("/sign-in/email", { email: who, password: PASSWORD })).status).toBe(200);

    const link = /https?:\/\/\S+verify-email\?\S+/.exec(mails[0].text_body)![0];
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/login?verified=1");
    const verified = await fetch(link, { redirect: "manual" });
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/login?verified=1");
    expect(Boolean((await userByEmail(who)).emailVerified)).toBe(true);
  });

  it("a Google link to an unverified account removes the password, ends every session and mails the owner", async () => {
    const victim = email("victim");
    // The attacker registers the victim's address and signs in.
    await app.post("/sign-up/email", { email: victim, password: PASSWORD, name: "Attacker" });
    expect((await app.post("/sign-in/email", { email: victim, password: PASSWORD })).status).toBe(200);
    const user = await userByEmail(victim);
    expect(await t.db.selectFrom("session").select("id").where("userId", "=", user.id).execute()).toHaveLength(1);

    expect(await takeOverUnverifiedAccount(t.db, user.id, app.origin)).toBe(true);

    expect(await t.db.selectFrom("account").select("providerId").where("userId", "=", user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom("session").select("id").where("userId", "=", user.id).execute()).toEqual([]);
    expect((await app.post("/sign-in/email", { email: victim, password: PASSWORD })).status).toBe(401);
    const mail = (await mailsOf(victim)).at(-1)!;
    expect(mail.subject).toBe("Password removed from your ToolHub Wholesale account");
    expect(mail.text_body).toContain("removed that password and signed out every other device");
  });

  it("leaves a verified account's password and sessions alone", async () => {
    const owner = email("owner");
    await app.post("/sign-up/email", { email: owner, password: PASSWORD, name: "Owner" });
    await t.db
      .updateTable("user")
      .set({ emailVerified: kind === "sqlite" ? 1 : true })
      .where("email", "=", owner)
      .execute();
    const user = await userByEmail(owner);
    expect(await takeOverUnverifiedAccount(t.db, user.id, app.origin)).toBe(false);
    expect((await app.post("/sign-in/email", { email: owner, password: PASSWORD })).status).toBe(200);
  });
});

describe.runIf(pgUrl)("start-up without AUTH_SECRET on PostgreSQL", () => {
  it("refuses to start and says why", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", DATABASE_URL: pgUrl, PORT: "0" };
    delete env.AUTH_SECRET;
    const result = spawnSync(process.execPath, [path.join(root, "server/http/main.ts")], {
      cwd: root,
      env,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/AUTH_SECRET is not set/);
  });
});
