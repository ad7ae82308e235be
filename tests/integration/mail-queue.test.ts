import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { enqueueMail, getMail, MailValidationError } from "../../server/mail/queue.ts";
import { startMailSender, type MailSenderOptions } from "../../server/mail/sender.ts";
import { renderMail } from "../../server/mail/templates.ts";
import { startMailSink, type MailSink } from "../support/mail-sink.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const mail = (to: string, subject: string) => ({
  to,
  subject,
  ...renderMail({ heading: subject, paragraphs: ["Body"] }),
});

describe.each(dialects)("mail queue and sender on %s", (kind) => {
  let t: TestDb;
  const sinks: MailSink[] = [];
  const logs: string[] = [];
  const sender = (options: MailSenderOptions) =>
    startMailSender(t.db, { pollMs: 60_000, log: (l) => logs.push(l), ...options });

  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });
  afterEach(async () => {
    await Promise.all(sinks.splice(0).map((s) => s.close()));
    await t.db.deleteFrom("mail_queue").execute();
    logs.length = 0;
  });
  async function sink(options = {}) {
    const s = await startMailSink(options);
    sinks.push(s);
    return s;
  }

  it("delivers a queued mail over SMTP once, with its stable Message-ID, Reply-To and extra headers", async () => {
    const smtp = await sink();
    const { id } = await enqueueMail(t.db, {
      ...mail("buyer@example.com", "Your order"),
      replyTo: '"Doe, Jane" <jane@example.com>',
      headers: {
        "List-Unsubscribe": "<https://shop.example/u?token=abc>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
    const s = sender({ smtpUrl: smtp.url });
    await s.drain();
    await s.drain();
    await s.stop();

    expect(smtp.mails).toHaveLength(1);
    const row = await getMail(t.db, id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    const got = smtp.mails[0];
    expect(got.envelopeTo).toEqual(["buyer@example.com"]);
    expect(got.headers["message-id"]).toBe(row?.message_id);
    expect(got.headers["reply-to"]).toBe('"Doe, Jane" <jane@example.com>');
    expect(got.headers["list-unsubscribe"]).toBe("<https://shop.example/u?token=abc>");
    expect(got.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(got.text).toContain("Body");
    expect(got.html).toContain("<p");
    expect(logs.filter((l) => l.includes(`mail #${id}`))).toHaveLength(1);
  });

  it("commits and rolls back with the caller's transaction", async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await enqueueMail(trx, mail("a@example.com", "Rolled back"));
        throw new Error("order failed");
      }),
    ).rejects.toThrow("order failed");
    const committed = await t.db.transaction().execute((trx) => enqueueMail(trx, mail("a@example.com", "Committed")));
    const rows = await t.db.selectFrom("mail_queue").select(["id", "subject"]).execute();
    expect(rows.map((r) => r.subject)).toEqual(["Committed"]);
    expect(rows[0].id).toBe(committed.id);
  });

  it("refuses CR/LF header injection with a typed error and stores nothing", async () => {
    const attempts = [
      { ...mail("a@example.com\r\nBcc: victim@example.com", "x") },
      { ...mail("a@example.com", "Hello\r\nBcc: victim@example.com") },
      { ...mail("a@example.com", "x"), replyTo: "r@example.com\nBcc: victim@example.com" },
      { ...mail("a@example.com", "x"), headers: { "X-Note": "a\r\nBcc: victim@example.com" } },
    ];
    for (const m of attempts) await expect(enqueueMail(t.db, m)).rejects.toBeInstanceOf(MailValidationError);
    expect(await t.db.selectFrom("mail_queue").select("id").execute()).toEqual([]);
  });

  it("marks a mail the server refuses with 5xx as failed, without retrying", async () => {
    const smtp = await sink({ onRcptTo: () => Object.assign(new Error("No such user"), { responseCode: 550 }) });
    const { id } = await enqueueMail(t.db, mail("nobody@example.com", "Bounce"));
    const s = sender({ smtpUrl: smtp.url, retryBaseMs: 10 });
    await s.drain();
    await new Promise((r) => setTimeout(r, 50));
    await s.drain();
    await s.stop();
    expect(await getMail(t.db, id)).toMatchObject({ status: "failed", attempts: 1 });
    expect((await getMail(t.db, id))?.last_error).toMatch(/550/);
    expect(smtp.mails).toHaveLength(0);
  });

  it("retries a 4xx with exponential backoff, then delivers exactly once", async () => {
    let refusals = 2;
    const smtp = await sink({
      onRcptTo: () => (refusals-- > 0 ? Object.assign(new Error("Try later"), { responseCode: 451 }) : undefined),
    });
    const { id } = await enqueueMail(t.db, mail("later@example.com", "Greylisted"));
    const s = sender({ smtpUrl: smtp.url, retryBaseMs: 100, retryMaxMs: 10_000 });
    await s.drain();
    const first = await getMail(t.db, id);
    expect(first).toMatchObject({ status: "queued", attempts: 1 });
    expect(first?.last_error).toMatch(/451/);
    const delay1 = Date.parse(first!.next_attempt_at) - Date.parse(first!.updated_at);
    expect(delay1).toBeGreaterThanOrEqual(80);
    expect(delay1).toBeLessThanOrEqual(120);

    await s.drain(); // not due yet: nothing happens
    expect(await getMail(t.db, id)).toMatchObject({ status: "queued", attempts: 1 });

    await new Promise((r) => setTimeout(r, 130));
    await s.drain();
    const second = await getMail(t.db, id);
    expect(second).toMatchObject({ status: "queued", attempts: 2 });
    const delay2 = Date.parse(second!.next_attempt_at) - Date.parse(second!.updated_at);
    expect(delay2).toBeGreaterThanOrEqual(160);
    expect(delay2).toBeLessThanOrEqual(240);

    await new Promise((r) => setTimeout(r, 250));
    await s.drain();
    await s.stop();
    expect(await getMail(t.db, id)).toMatchObject({ status: "sent", attempts: 3 });
    expect(smtp.mails).toHaveLength(1);
  });

  it("records a retry's delay exactly, however much the clock moves while the sender works", async () => {
    const smtp = await sink({ onRcptTo: () => Object.assign(new Error("Try later"), { responseCode: 451 }) });
    const { id } = await enqueueMail(t.db, mail("slow@example.com", "Busy machine"));
    let skew = 0;
    const movingClock = () => new Date(Date.now() + (skew += 50)); // each reading 50 ms after the last
    // Every retry waits 80–120 ms (the maximum caps the doubling), however many attempts the sender's own loop makes.
    const s = sender({ smtpUrl: smtp.url, retryBaseMs: 100, retryMaxMs: 100, now: movingClock });
    await s.drain();
    await s.stop();
    const row = await getMail(t.db, id);
    expect(row?.status).toBe("queued");
    expect(row?.attempts).toBeGreaterThanOrEqual(1);
    const delay = Date.parse(row!.next_attempt_at) - Date.parse(row!.updated_at);
    expect(delay).toBeGreaterThanOrEqual(80);
    expect(delay).toBeLessThanOrEqual(120);
  });

  it("lets several senders work one queue: every mail arrives exactly once", async () => {
    const smtp = await sink();
    for (let i = 0; i < 24; i++) await enqueueMail(t.db, mail(`user${i}@example.com`, `Mail ${i}`));
    const senders = [1, 2, 3].map(() => sender({ smtpUrl: smtp.url }));
    await Promise.all(senders.map((s) => s.drain()));
    await Promise.all(senders.map((s) => s.drain()));
    await Promise.all(senders.map((s) => s.stop()));
    expect(smtp.mails).toHaveLength(24);
    expect([...smtp.messageIdCounts().values()].every((n) => n === 1)).toBe(true);
    const statuses = await t.db.selectFrom("mail_queue").select(["status", "attempts"]).execute();
    expect(statuses.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });

  it("wakes up when a mail is queued in the same process, without waiting for the poll", async () => {
    const smtp = await sink();
    const s = sender({ smtpUrl: smtp.url, pollMs: 60_000 });
    await new Promise((r) => setTimeout(r, 50));
    await enqueueMail(t.db, mail("quick@example.com", "Fast"));
    await smtp.waitFor((m) => m.envelopeTo.includes("quick@example.com"), 5000);
    await s.stop();
  });

  it("with no SMTP configured, writes one .eml file per mail to the outbox and logs one line each", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "outbox-"));
    try {
      const a = await enqueueMail(t.db, mail("one@example.com", "First"));
      const b = await enqueueMail(t.db, mail("two@example.com", "Second"));
      const s = sender({ smtpUrl: "", outboxDir: dir });
      await s.drain();
      await s.stop();
      const files = (await readdir(dir)).sort();
      expect(files).toHaveLength(2);
      expect(files.every((f) => f.endsWith(".eml"))).toBe(true);
      const first = await readFile(path.join(dir, files[0]), "utf8");
      expect(first).toContain("To: one@example.com");
      expect(first).toContain(`Message-ID: ${(await getMail(t.db, a.id))?.message_id}`);
      expect(await getMail(t.db, b.id)).toMatchObject({ status: "sent" });
      expect(logs.filter((l) => /written to .*\.eml/.test(l))).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
