import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startMailSender } from "../../server/mail/sender.ts";
import { newsletterAction, type NewsletterDeps } from "../../server/newsletter/action.ts";
import {
  checkConfirmToken,
  checkUnsubscribeToken,
  confirmSubscription,
  CONFIRM_TOKEN_TTL_MS,
  getSubscriber,
  RESEND_COOLDOWN_MS,
  subscribe,
  unsubscribe,
} from "../../server/newsletter/newsletter.ts";
import { createRateLimiter } from "../../server/security/rate-limit.ts";
import { startMailSink, type MailSink, type ReceivedMail } from "../support/mail-sink.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const SITE = "http://shop.test";

function post(fields: Record<string, string>, ip = "203.0.113.9"): Request {
  return new Request(`${SITE}/newsletter`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", "x-client-ip": ip },
  });
}

const tokenFrom = (url: string) => new URL(url).searchParams.get("token") ?? "";

describe.each(dialects)("newsletter on %s", (kind) => {
  let t: TestDb;
  let smtp: MailSink;
  let deps: NewsletterDeps;

  beforeAll(async () => {
    t = await freshDb(kind);
    smtp = await startMailSink();
  });
  afterAll(async () => {
    await smtp?.close();
    await t?.drop();
  });
  beforeEach(() => {
    deps = {
      siteUrl: SITE,
      limiter: createRateLimiter({ name: `nl-${randomBytes(4).toString("hex")}`, windowSeconds: 600, max: 10 }),
    };
  });
  afterEach(async () => {
    smtp.mails.length = 0;
    await t.db.deleteFrom("mail_queue").execute();
    await t.db.deleteFrom("newsletter_subscribers").execute();
  });

  async function deliver(): Promise<ReceivedMail[]> {
    const sender = startMailSender(t.db, { smtpUrl: smtp.url, pollMs: 60_000, log: () => undefined });
    await sender.drain();
    await sender.stop();
    return [...smtp.mails];
  }
  function links(m: ReceivedMail) {
    const confirm = /Confirm subscription: (\S+)/.exec(m.text)?.[1] ?? "";
    const unsubscribe = /Unsubscribe: (\S+)/.exec(m.text)?.[1] ?? "";
    return { confirm, unsubscribe };
  }

  it("explains an invalid email next to the field and stores nothing", async () => {
    for (const [value, message] of [
      ["", "Enter your email address."],
      ["not-an-email", "Enter a valid email address, like name@example.com."],
      ["a@example.com\r\nBcc: victim@example.com", "Enter a valid email address, like name@example.com."],
      [`${"x".repeat(250)}@example.com`, "Email must be 254 characters or fewer."],
    ]) {
      const res = await newsletterAction(t.db, post({ userEmail: value }), deps);
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.data).toMatchObject({ ok: false, outcome: "invalid", message, email: value });
    }
    const huge = await newsletterAction(t.db, post({ userEmail: "x".repeat(200_000) }), deps);
    expect(huge.status).toBe(413);
    expect(await t.db.selectFrom("newsletter_subscribers").select("id").execute()).toEqual([]);
    expect(await t.db.selectFrom("mail_queue").select("id").execute()).toEqual([]);
  });

  it("stores a valid address as pending and sends one double opt-in mail with unsubscribe link and headers", async () => {
    const res = await newsletterAction(t.db, post({ userEmail: "  Shopper@Example.com " }), deps);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, outcome: "confirmation-sent" });
    expect(res.data.message).toContain("We've sent a confirmation link to Shopper@Example.com");
    const sub = await getSubscriber(t.db, "shopper@example.com");
    expect(sub).toMatchObject({ email: "shopper@example.com", status: "pending" });

    // A second press of Subscribe right away sends no second mail.
    expect((await newsletterAction(t.db, post({ userEmail: "shopper@example.com" }), deps)).data.outcome).toBe(
      "confirmation-sent",
    );

    const mails = await deliver();
    expect(mails).toHaveLength(1);
    const m = mails[0];
    expect(m.envelopeTo).toEqual(["shopper@example.com"]);
    const { confirm, unsubscribe: unsub } = links(m);
    expect(confirm).toMatch(/^http:\/\/shop\.test\/newsletter\/confirm\?token=[\w-]{43}$/);
    expect(unsub).toBe(`${SITE}/newsletter/unsubscribe?token=${sub!.unsubscribe_token}`);
    expect(m.headers["list-unsubscribe"]).toBe(`<${unsub}>`);
    expect(m.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(m.html).toContain(`href="${confirm}"`);
    expect(m.html).toContain(unsub);
    // Only a hash of the opt-in token is stored.
    const row = await getSubscriber(t.db, "shopper@example.com");
    expect(row?.confirm_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.confirm_token_hash).not.toContain(tokenFrom(confirm));
  });

  it("confirms once; the link then reports it was used, and Subscribe says already subscribed", async () => {
    await subscribe(t.db, "fan@example.com", { siteUrl: SITE });
    const token = tokenFrom(links((await deliver())[0]).confirm);

    expect(await checkConfirmToken(t.db, token)).toBe("valid");
    expect(await confirmSubscription(t.db, token)).toBe("confirmed");
    expect(await getSubscriber(t.db, "fan@example.com")).toMatchObject({ status: "confirmed" });
    expect(await confirmSubscription(t.db, token)).toBe("already-confirmed");
    expect(await checkConfirmToken(t.db, token)).toBe("already-confirmed");

    const again = await newsletterAction(t.db, post({ userEmail: "FAN@example.com" }), deps);
    expect(again.data).toMatchObject({
      ok: true,
      outcome: "already-subscribed",
      message: "FAN@example.com is already subscribed to our newsletter. Thanks for being with us!",
    });
    expect((await t.db.selectFrom("mail_queue").select("id").execute()).length).toBe(1);
  });

  it("refuses an expired link, and a link replaced by a newer one", async () => {
    const start = new Date();
    await subscribe(t.db, "late@example.com", { siteUrl: SITE, now: start });
    const first = tokenFrom(links((await deliver())[0]).confirm);
    const afterExpiry = new Date(start.getTime() + CONFIRM_TOKEN_TTL_MS + 1000);
    expect(await checkConfirmToken(t.db, first, afterExpiry)).toBe("expired");
    expect(await confirmSubscription(t.db, first, afterExpiry)).toBe("expired");
    expect(await getSubscriber(t.db, "late@example.com")).toMatchObject({ status: "pending" });

    // Subscribing again (after the resend cool-down) sends a new link; the old one stops working.
    smtp.mails.length = 0;
    await subscribe(t.db, "late@example.com", {
      siteUrl: SITE,
      now: new Date(start.getTime() + RESEND_COOLDOWN_MS + 1000),
    });
    const second = tokenFrom(links((await deliver())[0]).confirm);
    expect(second).not.toBe(first);
    expect(await confirmSubscription(t.db, first)).toBe("invalid");
    expect(await confirmSubscription(t.db, second)).toBe("confirmed");
  });

  it("rejects made-up tokens", async () => {
    for (const token of ["", "abc", "x".repeat(43), "../../etc/passwd", "a".repeat(500)]) {
      expect(await confirmSubscription(t.db, token)).toBe("invalid");
      expect(await unsubscribe(t.db, token)).toBe("invalid");
    }
    expect(await confirmSubscription(t.db, null)).toBe("invalid");
  });

  it("unsubscribes with the link, idempotently, and can subscribe again with a new opt-in", async () => {
    await subscribe(t.db, "leaver@example.com", { siteUrl: SITE });
    const { confirm, unsubscribe: unsub } = links((await deliver())[0]);
    expect(await confirmSubscription(t.db, tokenFrom(confirm))).toBe("confirmed");

    const token = tokenFrom(unsub);
    expect(await checkUnsubscribeToken(t.db, token)).toBe("subscribed");
    expect(await unsubscribe(t.db, token)).toBe("unsubscribed");
    expect(await getSubscriber(t.db, "leaver@example.com")).toMatchObject({ status: "unsubscribed" });
    expect(await unsubscribe(t.db, token)).toBe("already-unsubscribed");
    expect(await checkUnsubscribeToken(t.db, token)).toBe("already-unsubscribed");
    // The old confirmation link cannot re-subscribe them.
    expect(await confirmSubscription(t.db, tokenFrom(confirm))).toBe("invalid");

    smtp.mails.length = 0;
    expect(await subscribe(t.db, "leaver@example.com", { siteUrl: SITE })).toBe("confirmation-sent");
    expect(await getSubscriber(t.db, "leaver@example.com")).toMatchObject({ status: "pending" });
    const fresh = links((await deliver())[0]);
    expect(await confirmSubscription(t.db, tokenFrom(fresh.confirm))).toBe("confirmed");
  });

  it("limits Subscribe requests per IP", async () => {
    for (let i = 0; i < 10; i++)
      expect(
        (await newsletterAction(t.db, post({ userEmail: `r${i}@example.com` }, "198.51.100.9"), deps)).status,
      ).toBe(200);
    const limited = await newsletterAction(t.db, post({ userEmail: "r10@example.com" }, "198.51.100.9"), deps);
    expect(limited.status).toBe(429);
    expect(limited.data).toMatchObject({ ok: false, outcome: "rate-limited", email: "r10@example.com" });
    expect(await getSubscriber(t.db, "r10@example.com")).toBeUndefined();
  });
});
