import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { loadConfig } from "../../server/config.ts";
import type { MailStatus } from "../../server/db/schema.ts";
import { runJobIfDue } from "../../server/jobs/runner.ts";
import { enqueueMail, getMail } from "../../server/mail/queue.ts";
import { runMailCommand, type CliOutput } from "../../server/mail/operator.ts";
import { renderMail } from "../../server/mail/templates.ts";
import { RELAYED_SUBJECT_REMOVED } from "../../server/privacy/mail-erasure.ts";
import {
  authDate,
  deleteStaleRateLimitRows,
  retentionJob,
  runRetention,
  type RetentionPolicy,
} from "../../server/privacy/retention.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date("2026-06-01T12:00:00.000Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * DAY);
const POLICY: RetentionPolicy = { sentMailDays: 30, failedMailDays: 90 };

describe.each(dialects)("privacy retention on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, loadConfig({ NODE_ENV: "test", AUTH_SECRET: "retention-secret-0123456789abcdef0123456" }));
  });
  afterAll(() => t.drop());
  beforeEach(async () => {
    await t.db.deleteFrom("mail_queue").execute();
    await t.db.deleteFrom("session").execute();
    await t.db.deleteFrom("verification").execute();
    await t.db.deleteFrom("user").execute();
    await t.db.deleteFrom("job_leases").execute();
  });

  /** A mail in `status` whose last change was `age` days before NOW. */
  async function mailIn(
    status: MailStatus,
    age: number,
    options: { to?: string; replyTo?: string; lastError?: string } = {},
  ) {
    const to = options.to ?? `shopper.${randomUUID().slice(0, 8)}@example.com`;
    const { id } = await enqueueMail(t.db, {
      to,
      subject: "Your ToolHub Wholesale order TH-0123456789",
      replyTo: options.replyTo,
      headers: { "List-Unsubscribe": "<https://shop.example/newsletter/unsubscribe?token=secret-token-123>" },
      ...renderMail({
        heading: "Sign in",
        paragraphs: ["Hello Ada, your link:"],
        action: { label: "Sign in", url: "https://shop.example/api/auth/magic-link/verify?token=abc" },
      }),
    });
    const at = daysAgo(age).toISOString();
    await t.db
      .updateTable("mail_queue")
      .set({
        status,
        updated_at: at,
        created_at: at,
        sent_at: status === "sent" ? at : null,
        last_error: options.lastError ?? null,
      })
      .where("id", "=", id)
      .execute();
    return { id, to };
  }

  it("blanks old sent mails, keeps recent ones, and leaves queued and in-flight mails alone", async () => {
    const oldSent = await mailIn("sent", 31, { lastError: "452 mailbox of ada@example.com full; retried" });
    const recentSent = await mailIn("sent", 29);
    const oldQueued = await mailIn("queued", 200);
    const oldSending = await mailIn("sending", 200);
    const oldTransmitting = await mailIn("transmitting", 200);
    const failedRecent = await mailIn("failed", 60);
    const failedOld = await mailIn("failed", 91);
    const unknownOld = await mailIn("unknown", 91);

    const report = await runRetention(t.db, NOW, POLICY);
    expect(report).toMatchObject({ sentMailsErased: 1, failedMailsErased: 2 });

    const erased = await getMail(t.db, oldSent.id);
    expect(erased).toMatchObject({
      status: "sent",
      to_address: "***@example.com",
      text_body: "",
      html_body: "",
      headers: "{}",
      reply_to: null,
      subject: "Your ToolHub Wholesale order TH-0123456789",
      body_erased_at: NOW.toISOString(),
      last_error: "452 mailbox of ***@example.com full; retried",
    });
    expect(erased?.message_id).toMatch(/^<.+@.+>$/);
    expect(erased?.sent_at).toBe(daysAgo(31).toISOString());
    for (const f of [failedOld, unknownOld])
      expect(await getMail(t.db, f.id)).toMatchObject({ text_body: "", to_address: "***@example.com" });
    expect((await getMail(t.db, unknownOld.id))?.status).toBe("unknown");

    for (const kept of [recentSent, oldQueued, oldSending, oldTransmitting, failedRecent]) {
      const row = await getMail(t.db, kept.id);
      expect(row?.to_address).toBe(kept.to);
      expect(row?.text_body).toContain("Hello Ada");
      expect(row?.headers).toContain("secret-token-123");
      expect(row?.body_erased_at).toBeNull();
    }
    // A second pass finds nothing left to do.
    expect(await runRetention(t.db, NOW, POLICY)).toMatchObject({ sentMailsErased: 0, failedMailsErased: 0 });
  });

  it("drops the visitor's subject and reply-to from a relayed contact message", async () => {
    const relayed = await mailIn("sent", 40, {
      to: "support@toolhub.example",
      replyTo: '"Ada Lovelace" <ada@example.com>',
    });
    await runRetention(t.db, NOW, POLICY);
    expect(await getMail(t.db, relayed.id)).toMatchObject({
      to_address: "***@toolhub.example",
      reply_to: null,
      subject: RELAYED_SUBJECT_REMOVED,
      text_body: "",
    });
  });

  it("works in bounded batches: a backlog is finished over several runs", async () => {
    for (let i = 0; i < 5; i++) await mailIn("sent", 45);
    const small = { ...POLICY, batchSize: 2, maxBatches: 2 };
    expect((await runRetention(t.db, NOW, small)).sentMailsErased).toBe(4);
    expect((await runRetention(t.db, NOW, small)).sentMailsErased).toBe(1);
    const left = await t.db.selectFrom("mail_queue").select("id").where("body_erased_at", "is", null).execute();
    expect(left).toEqual([]);
  });

  async function user() {
    const id = randomUUID();
    const at = authDate(t.db, daysAgo(100));
    await t.db
      .insertInto("user")
      .values({
        id,
        name: "Ada",
        email: `${id}@example.com`,
        emailVerified: kind === "sqlite" ? 0 : false,
        image: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    return id;
  }
  async function session(userId: string, expiresAt: Date) {
    const id = randomUUID();
    const at = authDate(t.db, daysAgo(40));
    await t.db
      .insertInto("session")
      .values({
        id,
        token: randomUUID(),
        userId,
        expiresAt: authDate(t.db, expiresAt),
        ipAddress: "203.0.113.9",
        userAgent: "test",
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    return id;
  }
  async function verification(expiresAt: Date) {
    const id = randomUUID();
    const at = authDate(t.db, daysAgo(1));
    await t.db
      .insertInto("verification")
      .values({
        id,
        identifier: randomUUID(),
        value: JSON.stringify({ email: "ada@example.com" }),
        expiresAt: authDate(t.db, expiresAt),
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    return id;
  }

  it("deletes expired sessions and verification rows and keeps live ones", async () => {
    const u = await user();
    const expired = [await session(u, daysAgo(1)), await session(u, new Date(NOW.getTime() - 1000))];
    const live = await session(u, new Date(NOW.getTime() + DAY));
    const oldLink = await verification(new Date(NOW.getTime() - 60_000));
    const liveLink = await verification(new Date(NOW.getTime() + 10 * 60_000));

    const report = await runRetention(t.db, NOW, POLICY);
    expect(report).toMatchObject({ sessionsDeleted: 2, verificationsDeleted: 1, rateLimitRowsDeleted: 0 });
    expect((await t.db.selectFrom("session").select("id").execute()).map((r) => r.id)).toEqual([live]);
    expect((await t.db.selectFrom("verification").select("id").execute()).map((r) => r.id)).toEqual([liveLink]);
    expect(expired).not.toContain(live);
    expect(oldLink).not.toBe(liveLink);
  });

  it("deletes idle rows of Better Auth's rateLimit table when it exists (database storage)", async () => {
    expect(await deleteStaleRateLimitRows(t.db, NOW)).toBe(0); // no table: the store keeps limits in memory or Redis
    await sql`create table ${sql.table("rateLimit")} (id text primary key, key text not null, count integer not null, ${sql.ref("lastRequest")} bigint not null)`.execute(
      t.db,
    );
    try {
      await sql`insert into ${sql.table("rateLimit")} values ('a', 'k1', 3, ${NOW.getTime() - 2 * DAY}), ('b', 'k2', 1, ${NOW.getTime() - 60_000})`.execute(
        t.db,
      );
      expect(await deleteStaleRateLimitRows(t.db, NOW)).toBe(1);
      const { rows } = await sql<{ id: string }>`select id from ${sql.table("rateLimit")}`.execute(t.db);
      expect(rows.map((r) => r.id)).toEqual(["b"]);
    } finally {
      await sql`drop table ${sql.table("rateLimit")}`.execute(t.db);
    }
  });

  it("runs once when two processes offer the job at the same moment", async () => {
    const old = await mailIn("sent", 31);
    const u = await user();
    await session(u, daysAgo(1));
    let runs = 0;
    const job = retentionJob(POLICY);
    const counted = { ...job, run: async (db: typeof t.db, now: Date) => (runs++, job.run(db, now)) };
    const logs: string[] = [];
    const ran = await Promise.all(
      ["p1", "p2", "p3"].map((holder) =>
        runJobIfDue(t.db, counted, holder, { now: () => NOW, log: (l) => logs.push(l) }),
      ),
    );
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    expect((await getMail(t.db, old.id))?.body_erased_at).toBe(NOW.toISOString());
    expect(logs).toEqual([`Job privacy-retention: sentMailsErased 1, sessionsDeleted 1`]);
    // Within its interval no process runs it again.
    expect(await runJobIfDue(t.db, counted, "p4", { now: () => new Date(NOW.getTime() + 60_000) })).toBe(false);
  });

  it("the mail CLI lists erased mails as such and refuses to requeue them", async () => {
    const erased = await mailIn("failed", 120);
    const kept = await mailIn("failed", 5);
    await runRetention(t.db, NOW, POLICY);
    const printed: { tables: unknown[]; lines: string[]; errors: string[] } = { tables: [], lines: [], errors: [] };
    const out: CliOutput = {
      table: (r) => printed.tables.push(r),
      line: (l) => printed.lines.push(l),
      error: (e) => printed.errors.push(e),
    };

    expect(await runMailCommand(t.db, ["list", "failed"], out)).toBe(0);
    const rows = printed.tables[0] as { id: number; body: string; to_address: string }[];
    expect(rows.find((r) => r.id === erased.id)).toMatchObject({
      body: `erased ${NOW.toISOString().slice(0, 10)}`,
      to_address: "***@example.com",
    });
    expect(rows.find((r) => r.id === kept.id)).toMatchObject({ body: "kept", to_address: kept.to });

    expect(await runMailCommand(t.db, ["requeue", String(erased.id)], out)).toBe(1);
    expect(printed.errors.at(-1)).toMatch(/erased .* cannot be sent again/);
    expect((await getMail(t.db, erased.id))?.status).toBe("failed");
    expect(await runMailCommand(t.db, ["requeue", String(kept.id)], out)).toBe(0);
    expect((await getMail(t.db, kept.id))?.status).toBe("queued");

    expect(await runMailCommand(t.db, ["list", "bogus"], out)).toBe(2);
    expect(await runMailCommand(t.db, ["requeue", "x1"], out)).toBe(2);
    expect(await runMailCommand(t.db, ["requeue", "999999"], out)).toBe(1);
  });
});

describe("retention configuration", () => {
  it("defaults to 30 days for sent mail and 90 for failed or unknown, and refuses nonsense", () => {
    const cfg = loadConfig({});
    expect(cfg.MAIL_RETENTION_DAYS).toBe(30);
    expect(cfg.MAIL_FAILED_RETENTION_DAYS).toBe(90);
    expect(loadConfig({ MAIL_RETENTION_DAYS: "7" }).MAIL_RETENTION_DAYS).toBe(7);
    for (const bad of ["0", "-3", "abc", "1.5"])
      expect(() => loadConfig({ MAIL_RETENTION_DAYS: bad })).toThrow(/MAIL_RETENTION_DAYS/);
  });
});
