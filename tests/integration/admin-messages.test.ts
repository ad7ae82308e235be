import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getMessage,
  INBOX_MESSAGES,
  listMessages,
  replyToMessage,
  setMessageHandled,
} from "../../server/contact/inbox.ts";
import { replySubject } from "../../server/contact/reply-mail.ts";
import { mailQueueView, requeueAllFailed, requeueMailAsStaff } from "../../server/mail/admin-queue.ts";
import { enqueueMail } from "../../server/mail/queue.ts";
import {
  countSubscribersByStatus,
  listSubscribers,
  spreadsheetSafe,
  subscribersCsv,
} from "../../server/newsletter/admin.ts";
import type { Db } from "../../server/db/connection.ts";
import type { MailStatus, NewsletterStatus } from "../../server/db/schema.ts";
import { countRows, dialects, freshDb, type TestDb } from "./databases.ts";
import { auditRows, cfg, insertMessage, refusal, staffActor } from "./admin-people-fixtures.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";

const options = { storeInbox: "support@toolhub.example", siteUrl: "http://127.0.0.1:3999" };

const mailCount = (db: Db) => countRows(db, "mail_queue");

describe("replySubject", () => {
  it("adds one Re:", () => {
    expect(replySubject("Where is my drill?")).toBe("Re: Where is my drill?");
    expect(replySubject("RE: Invoice")).toBe("RE: Invoice");
  });
  it("keeps spreadsheet formulas out of the CSV", () => {
    expect(spreadsheetSafe("=cmd@example.com")).toBe("'=cmd@example.com");
    expect(spreadsheetSafe("-x@example.com")).toBe("'-x@example.com");
    expect(spreadsheetSafe("ada@example.com")).toBe("ada@example.com");
  });
});

describe.each(dialects)("contact inbox on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
    await migrateAuth(t.db, cfg);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("lists newest first and filters handled / unhandled", async () => {
    const old = await insertMessage(t.db, { subject: "Old", createdAt: "2025-01-01T00:00:00.000Z", handled: true });
    const fresh = await insertMessage(t.db, { subject: "Fresh", createdAt: "2025-01-02T00:00:00.000Z" });
    expect((await listMessages(t.db)).rows.map((r) => r.id)).toEqual([fresh, old]);
    expect((await listMessages(t.db, { filter: "unhandled" })).rows.map((r) => r.id)).toEqual([fresh]);
    expect((await listMessages(t.db, { filter: "handled" })).rows.map((r) => r.id)).toEqual([old]);
  });

  it("marks handled and unhandled with an audit row each; a repeat changes nothing", async () => {
    const id = await insertMessage(t.db, { subject: "Mark me" });
    const first = await setMessageHandled(t.db, staffActor, id, true);
    expect(first).toEqual({ changed: true, message: INBOX_MESSAGES.handled });
    const row = await t.db
      .selectFrom("contact_messages")
      .select(["handled_at", "handled_by"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.handled_at).toBeTruthy();
    expect(row.handled_by).toBe(staffActor.userId);
    expect((await setMessageHandled(t.db, staffActor, id, true)).changed).toBe(false);
    await setMessageHandled(t.db, staffActor, id, false);
    expect(
      (await t.db.selectFrom("contact_messages").select("handled_at").where("id", "=", id).executeTakeFirstOrThrow())
        .handled_at,
    ).toBeNull();
    expect((await auditRows(t.db, "contact_message", id)).map((a) => a.action)).toEqual([
      "message.handle",
      "message.unhandle",
    ]);
    expect((await refusal(setMessageHandled(t.db, staffActor, 999_999, true))).status).toBe(404);
  });

  it("replies: queues 'Re: subject' to the sender, sets replied_at and handled, audit row with the text — together", async () => {
    const id = await insertMessage(t.db, {
      subject: "Where is my drill?",
      email: "buyer@example.com",
      name: "Bea Buyer",
    });
    const before = await mailCount(t.db);
    const { mailId } = await replyToMessage(
      t.db,
      staffActor,
      id,
      { reply: "It ships tomorrow.\nThanks!", seen: "" },
      options,
    );
    expect(await mailCount(t.db)).toBe(before + 1);
    const mail = await t.db.selectFrom("mail_queue").selectAll().where("id", "=", mailId).executeTakeFirstOrThrow();
    expect(mail).toMatchObject({
      to_address: "buyer@example.com",
      subject: "Re: Where is my drill?",
      reply_to: options.storeInbox,
      status: "queued",
    });
    expect(mail.text_body).toContain("Hello Bea Buyer,");
    expect(mail.text_body).toContain("It ships tomorrow.");
    expect(mail.text_body).toContain("> where is my drill?");
    const row = await t.db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.replied_at).toBeTruthy();
    expect(row.handled_at).toBe(row.replied_at);
    expect(row.handled_by).toBe(staffActor.userId);
    const audit = await auditRows(t.db, "contact_message", id);
    expect(audit.map((a) => a.action)).toEqual(["message.reply"]);
    expect(JSON.parse(audit[0].after!)).toMatchObject({ mail_id: mailId, reply: "It ships tomorrow.\nThanks!" });
    const detail = await getMessage(t.db, id);
    expect(detail!.replies).toEqual([{ at: row.replied_at, by: "Sam Staff", text: "It ships tomorrow.\nThanks!" }]);

    // The same form posted again (stale "seen") sends nothing.
    expect(await refusal(replyToMessage(t.db, staffActor, id, { reply: "Again", seen: "" }, options))).toEqual({
      status: 409,
      message: INBOX_MESSAGES.staleReply,
    });
    expect(await mailCount(t.db)).toBe(before + 1);
    // A follow-up that saw the first reply goes out.
    await replyToMessage(t.db, staffActor, id, { reply: "Follow-up", seen: row.replied_at! }, options);
    expect(await mailCount(t.db)).toBe(before + 2);
  });

  it("writes nothing when the reply can't be queued or is invalid", async () => {
    const id = await insertMessage(t.db, { subject: "Bad address", email: "broken\r\nBcc: evil@example.com" });
    const before = await mailCount(t.db);
    expect((await refusal(replyToMessage(t.db, staffActor, id, { reply: "Hi" }, options))).status).toBe(422);
    const row = await t.db
      .selectFrom("contact_messages")
      .select(["replied_at", "handled_at"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ replied_at: null, handled_at: null });
    expect(await auditRows(t.db, "contact_message", id)).toHaveLength(0);
    expect(await mailCount(t.db)).toBe(before);
    const ok = await insertMessage(t.db, { subject: "Fine" });
    for (const reply of ["", "   ", 42, "x".repeat(10_001)]) {
      expect((await refusal(replyToMessage(t.db, staffActor, ok, { reply }, options))).status).toBe(400);
    }
    expect((await refusal(replyToMessage(t.db, staffActor, 999_999, { reply: "Hi" }, options))).status).toBe(404);
    expect(await mailCount(t.db)).toBe(before);
  });
});

describe.each(dialects)("newsletter subscribers on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
    const add = (email: string, status: NewsletterStatus, day: string) =>
      t.db
        .insertInto("newsletter_subscribers")
        .values({
          email,
          status,
          unsubscribe_token: `tok-${email}`,
          created_at: `2025-01-${day}T10:00:00.000Z`,
          updated_at: `2025-01-${day}T10:00:00.000Z`,
          confirmed_at: status === "pending" ? null : `2025-01-${day}T11:00:00.000Z`,
          unsubscribed_at: status === "unsubscribed" ? `2025-01-${day}T12:00:00.000Z` : null,
        })
        .execute();
    await add("ann@example.com", "confirmed", "01");
    await add("bob@shop.example", "pending", "02");
    await add("cy@example.com", "unsubscribed", "03");
    await add("dee@example.com", "confirmed", "04");
    await add("-dash@example.com", "confirmed", "05");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("counts per status and lists with filter and email search, newest first", async () => {
    expect(await countSubscribersByStatus(t.db)).toEqual({ pending: 1, confirmed: 3, unsubscribed: 1 });
    expect((await listSubscribers(t.db)).rows.map((r) => r.email)).toEqual([
      "-dash@example.com",
      "dee@example.com",
      "cy@example.com",
      "bob@shop.example",
      "ann@example.com",
    ]);
    expect((await listSubscribers(t.db, { status: "confirmed" })).rows.map((r) => r.email)).toEqual([
      "-dash@example.com",
      "dee@example.com",
      "ann@example.com",
    ]);
    expect((await listSubscribers(t.db, { q: "SHOP" })).rows.map((r) => r.email)).toEqual(["bob@shop.example"]);
    expect(
      (await listSubscribers(t.db, { q: "example.com", status: "unsubscribed" })).rows.map((r) => r.email),
    ).toEqual(["cy@example.com"]);
  });

  it("exports CSV with a header, every subscriber's status and dates, filtered by status", async () => {
    const csv = async (status: NewsletterStatus | null) => {
      let text = "";
      for await (const chunk of subscribersCsv(t.db, { status })) text += chunk;
      return text;
    };
    const all = parse(await csv(null), { columns: true }) as Record<string, string>[];
    expect(all).toHaveLength(5);
    expect(all[0]).toEqual({
      email: "ann@example.com",
      status: "confirmed",
      subscribed_at: "2025-01-01T10:00:00.000Z",
      confirmed_at: "2025-01-01T11:00:00.000Z",
      unsubscribed_at: "",
    });
    expect(all[4].email).toBe("'-dash@example.com");
    const unsubscribed = parse(await csv("unsubscribed"), { columns: true }) as Record<string, string>[];
    expect(unsubscribed).toEqual([
      {
        email: "cy@example.com",
        status: "unsubscribed",
        subscribed_at: "2025-01-03T10:00:00.000Z",
        confirmed_at: "2025-01-03T11:00:00.000Z",
        unsubscribed_at: "2025-01-03T12:00:00.000Z",
      },
    ]);
    expect((await csv("pending")).split("\n")[0]).toBe("email,status,subscribed_at,confirmed_at,unsubscribed_at");
  });
});

describe.each(dialects)("mail queue page on %s", (kind) => {
  let t: TestDb;
  const ids: Record<string, number> = {};
  const NOW = new Date();
  beforeAll(async () => {
    t = await freshDb(kind);
    const add = async (key: string, status: MailStatus, extra: Record<string, unknown> = {}) => {
      const { id } = await enqueueMail(t.db, {
        to: `${key}.person@example.com`,
        subject: `Mail ${key}`,
        text: "t",
        html: "<p>t</p>",
      });
      await t.db
        .updateTable("mail_queue")
        .set({ status, attempts: 3, last_error: `550 mailbox ${key}.person@example.com unavailable`, ...extra })
        .where("id", "=", id)
        .execute();
      ids[key] = id;
    };
    await add("failed1", "failed");
    await add("failed2", "failed");
    await add("unknown", "unknown");
    await add("erased", "failed", { body_erased_at: "2025-01-01T00:00:00.000Z" });
    await add("overdue", "queued", { next_attempt_at: new Date(NOW.getTime() - 30 * 60_000).toISOString() });
    await add("sent", "sent");
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("shows counts and stuck mails with masked recipients and errors", async () => {
    const view = await mailQueueView(t.db, NOW);
    expect(view.counts).toMatchObject({ failed: 3, unknown: 1, queued: 1, sent: 1 });
    expect(view.stuckCount).toBe(5);
    expect(view.stuck.map((m) => m.id).sort()).toEqual([ids.failed1, ids.failed2, ids.unknown, ids.erased].sort());
    expect(view.overdue.map((m) => m.id)).toEqual([ids.overdue]);
    const failed = view.stuck.find((m) => m.id === ids.failed1)!;
    expect(failed).toMatchObject({
      to: "***@example.com",
      subject: "Mail failed1",
      attempts: 3,
      lastError: "550 mailbox ***@example.com unavailable",
      canRequeue: true,
    });
    expect(JSON.stringify(view)).not.toContain("person@example.com");
    expect(view.stuck.find((m) => m.id === ids.erased)!.canRequeue).toBe(false);
  });

  it("requeues one mail with an audit row; refuses sent, erased and unknown ids", async () => {
    const outcome = await requeueMailAsStaff(t.db, staffActor, ids.unknown);
    expect(outcome.message).toBe(`Mail #${ids.unknown} queued again`);
    expect(
      (await t.db.selectFrom("mail_queue").select("status").where("id", "=", ids.unknown).executeTakeFirstOrThrow())
        .status,
    ).toBe("queued");
    const audit = await auditRows(t.db, "mail", ids.unknown);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "mail.requeue",
      before: JSON.stringify({ status: "unknown" }),
      after: JSON.stringify({ status: "queued" }),
    });
    expect((await refusal(requeueMailAsStaff(t.db, staffActor, ids.sent))).status).toBe(409);
    expect((await refusal(requeueMailAsStaff(t.db, staffActor, ids.erased))).message).toMatch(
      /erased .* cannot be sent again/,
    );
    expect((await refusal(requeueMailAsStaff(t.db, staffActor, 999_999))).status).toBe(404);
    expect(await auditRows(t.db, "mail", ids.sent)).toHaveLength(0);
  });

  it("requeues all failed mails (not erased ones), one audit row each", async () => {
    const outcome = await requeueAllFailed(t.db, staffActor);
    expect(outcome.count).toBe(2);
    for (const key of ["failed1", "failed2"]) {
      expect(
        (await t.db.selectFrom("mail_queue").select("status").where("id", "=", ids[key]).executeTakeFirstOrThrow())
          .status,
      ).toBe("queued");
      expect(await auditRows(t.db, "mail", ids[key])).toHaveLength(1);
    }
    expect(
      (await t.db.selectFrom("mail_queue").select("status").where("id", "=", ids.erased).executeTakeFirstOrThrow())
        .status,
    ).toBe("failed");
    expect((await requeueAllFailed(t.db, staffActor)).message).toBe("No failed mail to requeue.");
  });
});
