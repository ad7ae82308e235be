import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { contactAction, type ContactDeps } from "../../server/contact/action.ts";
import { ContactValidationError, submitContactMessage } from "../../server/contact/contact.ts";
import { startMailSender } from "../../server/mail/sender.ts";
import { createRateLimiter } from "../../server/security/rate-limit.ts";
import { startMailSink, type MailSink } from "../support/mail-sink.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const INBOX = "inbox@toolhub.test";
const good = {
  name: "Jane Doe",
  email: "jane@example.com",
  subject: "Quote for 40 drills",
  message: "Hello,\nplease quote <b>40</b> drills & 40 bits.",
};

function post(fields: Record<string, string>, ip = "203.0.113.7"): Request {
  return new Request("http://127.0.0.1/contact", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", "x-client-ip": ip },
  });
}

describe.each(dialects)("contact form action on %s", (kind) => {
  let t: TestDb;
  let deps: ContactDeps;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });
  beforeEach(() => {
    deps = {
      storeInbox: INBOX,
      siteUrl: "http://shop.test",
      limiter: createRateLimiter({ name: `contact-${randomBytes(4).toString("hex")}`, windowSeconds: 600, max: 5 }),
    };
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
    await t.db.deleteFrom("mail_queue").execute();
    await t.db.deleteFrom("contact_messages").execute();
  });
  async function sink(options = {}): Promise<MailSink> {
    const s = await startMailSink(options);
    closers.push(() => s.close());
    return s;
  }
  const counts = async () => ({
    messages: (await t.db.selectFrom("contact_messages").select("id").execute()).length,
    mails: (await t.db.selectFrom("mail_queue").select("id").execute()).length,
  });

  it("stores the message and mails the inbox (Reply-To = sender, HTML escaped) and the sender", async () => {
    const smtp = await sink();
    const res = await contactAction(t.db, post(good), deps);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({
      ok: true,
      outcome: "sent",
      errors: {},
      values: { name: "", email: "", subject: "", message: "" },
    });
    const stored = await t.db.selectFrom("contact_messages").selectAll().executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      name: good.name,
      email: good.email,
      subject: good.subject,
      message: good.message,
      ip: "203.0.113.7",
    });

    const sender = startMailSender(t.db, { smtpUrl: smtp.url, pollMs: 60_000, log: () => undefined });
    await sender.drain();
    await sender.stop();
    expect(smtp.mails).toHaveLength(2);

    const toStore = smtp.mails.find((m) => m.envelopeTo.includes(INBOX))!;
    expect(toStore.headers["reply-to"]).toMatch(/^"?Jane Doe"? <jane@example\.com>$/);
    expect(toStore.headers.subject).toBe("Contact form: Quote for 40 drills");
    expect(toStore.text).toContain("please quote <b>40</b> drills & 40 bits.");
    expect(toStore.html).toContain("please quote &lt;b&gt;40&lt;/b&gt; drills &amp; 40 bits.");
    expect(toStore.html).not.toContain("<b>40</b>");

    const ack = smtp.mails.find((m) => m.envelopeTo.includes("jane@example.com"))!;
    expect(ack.headers.subject).toMatch(/received your message/);
    // The store's own words and the message's number only: nothing the sender typed (issue 48).
    expect(ack.text).toContain(`Your reference: message #${stored.id}.`);
    for (const typed of ["Jane", "Quote for 40 drills", "drills", "<b>40</b>"]) {
      expect(ack.text).not.toContain(typed);
      expect(ack.html).not.toContain(typed);
      expect(ack.headers.subject).not.toContain(typed);
    }
  });

  it("the acknowledgement never carries the sender's text, so the form can't mail a stranger words of the sender's choosing", async () => {
    const lure = {
      name: "Your account is locked, call +1 555 0100",
      email: "victim@example.com",
      subject: "Verify at https://evil.example/login now",
      message: "Dear customer, pay the overdue invoice at https://evil.example/pay today.",
    };
    expect((await contactAction(t.db, post(lure, "203.0.113.9"), deps)).status).toBe(200);
    const ack = await t.db
      .selectFrom("mail_queue")
      .selectAll()
      .where("to_address", "=", lure.email)
      .executeTakeFirstOrThrow();
    const everything = [ack.subject, ack.text_body, ack.html_body, ack.headers, ack.reply_to ?? ""].join("\n");
    for (const typed of [lure.name, lure.subject, lure.message, "evil.example", "locked", "overdue"])
      expect(everything).not.toContain(typed);
    expect(ack.text_body).toContain("We've received the message sent through the contact form on our website");
    // The store's inbox still gets all of it.
    const toStore = await t.db
      .selectFrom("mail_queue")
      .selectAll()
      .where("to_address", "=", INBOX)
      .executeTakeFirstOrThrow();
    expect(toStore.text_body).toContain(lure.message);
  });

  it("escapes HTML in every user field of the HTML mail", async () => {
    const smtp = await sink();
    const evil = {
      name: `<img src=x onerror="alert(1)">`,
      email: "eve@example.com",
      subject: "<script>alert(2)</script>",
      message: `</p><a href="javascript:alert(3)">click</a>`,
    };
    expect((await contactAction(t.db, post(evil), deps)).status).toBe(200);
    const sender = startMailSender(t.db, { smtpUrl: smtp.url, pollMs: 60_000, log: () => undefined });
    await sender.drain();
    await sender.stop();
    for (const m of smtp.mails) {
      expect(m.html).not.toMatch(/<img|<script|<a href="javascript/);
    }
    const toStore = smtp.mails.find((m) => m.envelopeTo.includes(INBOX))!;
    expect(toStore.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(toStore.html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(toStore.html).toContain("&lt;/p&gt;&lt;a href=&quot;javascript:alert(3)&quot;&gt;click&lt;/a&gt;");
  });

  it("requires every field and keeps what was typed", async () => {
    const res = await contactAction(t.db, post({ name: "Jane", email: "", subject: "", message: "" }), deps);
    expect(res.status).toBe(400);
    expect(Object.keys(res.data.errors).sort()).toEqual(["email", "message", "subject"]);
    expect(res.data.values.name).toBe("Jane");
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
  });

  it("answers oversized fields with a 4xx message, never a 500", async () => {
    const res = await contactAction(
      t.db,
      post({
        name: "n".repeat(101),
        email: `${"e".repeat(250)}@example.com`,
        subject: "s".repeat(151),
        message: "m".repeat(5001),
      }),
      deps,
    );
    expect(res.status).toBe(400);
    expect(res.data.errors).toEqual({
      name: "Name must be 100 characters or fewer.",
      email: "Email must be 254 characters or fewer.",
      subject: "Subject must be 150 characters or fewer.",
      message: "Message must be 5,000 characters or fewer.",
    });
    expect(await counts()).toEqual({ messages: 0, mails: 0 });

    const huge = await contactAction(t.db, post({ ...good, message: "x".repeat(300_000) }), deps);
    expect(huge.status).toBe(413);
    expect(huge.data.message).toMatch(/more text than this form accepts/);
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
  });

  it("rejects CR/LF header injection in the name and the subject", async () => {
    for (const [field, value] of [
      ["name", "Eve\r\nBcc: victim@example.com"],
      ["name", "Eve\nBcc: victim@example.com"],
      ["subject", "Hi\r\nBcc: victim@example.com"],
      ["subject", "Hi\rX-Injected: 1"],
    ] as const) {
      const res = await contactAction(t.db, post({ ...good, [field]: value }), deps);
      expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(res.data.errors[field]).toMatch(/one line/);
    }
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
    // The domain function checks again, so no other caller can skip the rule.
    await expect(
      submitContactMessage(
        t.db,
        { ...good, subject: "a\r\nBcc: x@example.com" },
        { storeInbox: INBOX, siteUrl: "http://shop.test" },
      ),
    ).rejects.toBeInstanceOf(ContactValidationError);
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
  });

  it("answers a filled honeypot like a success but stores and sends nothing", async () => {
    const res = await contactAction(t.db, post({ ...good, website: "http://spam.example" }), deps);
    expect(res.status).toBe(200);
    expect(res.data.ok).toBe(true);
    expect(await counts()).toEqual({ messages: 0, mails: 0 });
  });

  it("limits submissions per IP", async () => {
    // Different messages: the same one again is a duplicate (one message, see the next test).
    const nth = (i: number) => ({ ...good, message: `${good.message} (${i})` });
    for (let i = 0; i < 5; i++)
      expect((await contactAction(t.db, post(nth(i), "198.51.100.1"), deps)).status).toBe(200);
    const limited = await contactAction(t.db, post(nth(5), "198.51.100.1"), deps);
    expect(limited.status).toBe(429);
    expect(limited.data.message).toMatch(/try again in \d+ minutes?/);
    expect(limited.data.values.subject).toBe(good.subject);
    expect((await contactAction(t.db, post(nth(6), "198.51.100.2"), deps)).status).toBe(200);
    expect((await counts()).messages).toBe(6);
  });

  it("stores and mails a message sent twice (a double click) once", async () => {
    const [a, b] = await Promise.all([contactAction(t.db, post(good), deps), contactAction(t.db, post(good), deps)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await contactAction(t.db, post(good), deps)).status).toBe(200);
    expect(await counts()).toEqual({ messages: 1, mails: 2 });
    expect((await contactAction(t.db, post({ ...good, subject: "Another question" }), deps)).status).toBe(200);
    expect(await counts()).toEqual({ messages: 2, mails: 4 });
  });

  it("keeps the mail queued while SMTP is down and delivers it exactly once when it is back", async () => {
    const first = await startMailSink();
    const port = first.port;
    await first.close(); // SMTP is down

    const sender = startMailSender(t.db, {
      smtpUrl: `smtp://127.0.0.1:${port}`,
      pollMs: 25,
      retryBaseMs: 150,
      retryMaxMs: 300,
      log: () => undefined,
    });
    closers.push(() => sender.stop());
    expect((await contactAction(t.db, post(good), deps)).status).toBe(200);
    await sender.drain();
    await new Promise((r) => setTimeout(r, 400));
    const waiting = await t.db.selectFrom("mail_queue").selectAll().execute();
    expect(waiting).toHaveLength(2);
    for (const row of waiting) {
      // Waiting for its next attempt (or in the middle of one, the sender keeps polling).
      expect(["queued", "sending"]).toContain(row.status);
      expect(row.attempts).toBeGreaterThanOrEqual(1);
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    }

    const back = await sink({ port }); // SMTP is back on the same address
    await back.waitFor((m) => m.envelopeTo.includes(INBOX));
    await back.waitFor((m) => m.envelopeTo.includes(good.email));
    await new Promise((r) => setTimeout(r, 500));
    expect(back.mails).toHaveLength(2);
    expect([...back.messageIdCounts().values()]).toEqual([1, 1]);
    const rows = await t.db.selectFrom("mail_queue").select(["status"]).execute();
    expect(rows.every((r) => r.status === "sent")).toBe(true);
  });
});
