/**
 * Crash safety of the mail sender's claim/lease scheme: a mail is never sent twice, even when a
 * sender is killed in the middle — and a mail whose body never left is still delivered.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db, type DbKind, type DbOptions } from "../../server/db/connection.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { enqueueMail, getMail, requeueMail } from "../../server/mail/queue.ts";
import {
  claimNextMail,
  composeMail,
  markTransmitting,
  recoverExpiredLeases,
  startMailSender,
  type MailSenderOptions,
} from "../../server/mail/sender.ts";
import { renderMail } from "../../server/mail/templates.ts";
import { createSmtpTransport, DeliveryError } from "../../server/mail/transport.ts";
import { startMailSink, type MailSink } from "../support/mail-sink.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const root = path.resolve(import.meta.dirname, "../..");
const mail = (to: string, subject = "Hello") => ({
  to,
  subject,
  ...renderMail({ heading: subject, paragraphs: ["Body"] }),
});
const later = (ms: number) => () => new Date(Date.now() + ms);
const quiet = { log: () => undefined, pollMs: 60_000 };

/** A minimal SMTP server that hangs up at a chosen point, to see how the sender classifies it. */
async function hangUpServer(
  at: "rcpt" | "after-body",
): Promise<{ url: string; bodies: number; close(): Promise<void> }> {
  const state = { bodies: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let inData = false;
    let buffer = "";
    socket.write("220 test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      if (inData) {
        if (buffer.includes("\r\n.\r\n")) {
          state.bodies++;
          socket.destroy(); // the whole body arrived; hang up without a reply
        }
        return;
      }
      let i: number;
      while ((i = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === "EHLO" || cmd === "HELO") socket.write("250 test\r\n");
        else if (cmd === "MAIL") socket.write("250 OK\r\n");
        else if (cmd === "RCPT") {
          if (at === "rcpt") return void socket.destroy();
          socket.write("250 OK\r\n");
        } else if (cmd === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
          return;
        } else if (cmd === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    get bodies() {
      return state.bodies;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Starts a sender in a separate Node process, which the test can kill -9. */
function spawnSender(dbOptions: DbOptions, smtpUrl: string, leaseMs: number): ChildProcess {
  const code = `
    const { createDb } = await import(${JSON.stringify(pathToFileURL(path.join(root, "server/db/connection.ts")).href)});
    const { startMailSender } = await import(${JSON.stringify(pathToFileURL(path.join(root, "server/mail/sender.ts")).href)});
    const db = createDb(JSON.parse(process.env.TEST_DB_OPTIONS));
    startMailSender(db, { smtpUrl: process.env.TEST_SMTP_URL, leaseMs: Number(process.env.TEST_LEASE_MS), pollMs: 50, log: (l) => console.log(l) });
    setInterval(() => {}, 1000);
  `;
  return spawn(process.execPath, ["--input-type=module", "-e", code], {
    cwd: root,
    env: {
      ...process.env,
      TEST_DB_OPTIONS: JSON.stringify(dbOptions),
      TEST_SMTP_URL: smtpUrl,
      TEST_LEASE_MS: String(leaseMs),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

async function waitUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
  what = "condition",
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe.each(dialects)("mail claim and lease on %s", (kind) => {
  let t: TestDb;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
    await t.db.deleteFrom("mail_queue").execute();
  });
  async function sink(options = {}): Promise<MailSink> {
    const s = await startMailSink(options);
    closers.push(() => s.close());
    return s;
  }
  const sender = (options: MailSenderOptions) => {
    const s = startMailSender(t.db, { ...quiet, ...options });
    closers.push(() => s.stop());
    return s;
  };

  it("gives a mail to exactly one of many concurrent claims", async () => {
    const { id } = await enqueueMail(t.db, mail("a@example.com"));
    const now = new Date();
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, i) => claimNextMail(t.db, `token-${i}`, now, 60_000)),
    );
    const won = claims.filter((c) => c !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ id, status: "sending", attempts: 1 });
    expect(await claimNextMail(t.db, "late", now, 60_000)).toBeUndefined();
  });

  it("killed after claiming, before the body: the lease expires, the mail goes out exactly once", async () => {
    const smtp = await sink();
    const { id } = await enqueueMail(t.db, mail("requeue@example.com"));
    expect(await claimNextMail(t.db, "dead-sender", new Date(), 1000)).toBeDefined(); // …and the process dies here

    const s = sender({ smtpUrl: smtp.url, now: later(2000) });
    await s.drain();
    expect(smtp.mails).toHaveLength(1);
    expect(await getMail(t.db, id)).toMatchObject({ status: "sent", attempts: 2 });
    await s.drain();
    expect(smtp.mails).toHaveLength(1);
  });

  it("killed while the body was going out: the mail is marked unknown and never resent", async () => {
    const smtp = await sink();
    const { id } = await enqueueMail(t.db, mail("unknown@example.com"));
    const now = new Date();
    await claimNextMail(t.db, "dead-sender", now, 1000);
    expect(await markTransmitting(t.db, id, "dead-sender", now, 1000)).toBe(true); // …and the process dies here

    const s = sender({ smtpUrl: smtp.url, now: later(2000) });
    await s.drain();
    await s.drain();
    expect(smtp.mails).toHaveLength(0);
    const row = await getMail(t.db, id);
    expect(row?.status).toBe("unknown");
    expect(row?.last_error).toMatch(/may have been delivered/);

    // A person who checked the SMTP logs can send it again on purpose.
    expect(await requeueMail(t.db, id)).toBe(true);
    await s.drain();
    expect(smtp.mails).toHaveLength(1);
  });

  it("fences a stale owner: once another sender took the mail, the old one cannot send its body", async () => {
    const smtp = await sink();
    const { id } = await enqueueMail(t.db, mail("fenced@example.com"));
    const row = await claimNextMail(t.db, "slow-sender", new Date(), 1000);
    expect(row).toBeDefined();

    // The slow sender's lease runs out; another sender recovers and delivers the mail.
    const s = sender({ smtpUrl: smtp.url, now: later(2000) });
    await s.drain();
    expect(smtp.mails).toHaveLength(1);

    // The slow sender wakes up and reaches the body: the gate refuses and nothing is sent.
    expect(await markTransmitting(t.db, id, "slow-sender", new Date(), 1000)).toBe(false);
    const transport = createSmtpTransport(smtp.url);
    const composed = await composeMail(row!, "Store <store@example.com>");
    const attempt = transport.deliver(composed, () => markTransmitting(t.db, id, "slow-sender", new Date(), 1000));
    await expect(attempt).rejects.toSatisfy((e) => e instanceof DeliveryError && e.outcome === "fenced");
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.mails).toHaveLength(1);
    expect(await getMail(t.db, id)).toMatchObject({ status: "sent" });
  });

  it("retries a connection lost before the body, and flags one lost after the body as unknown", async () => {
    const early = await hangUpServer("rcpt");
    closers.push(() => early.close());
    const a = await enqueueMail(t.db, mail("early@example.com"));
    const s1 = sender({ smtpUrl: early.url });
    await s1.drain();
    expect(await getMail(t.db, a.id)).toMatchObject({ status: "queued", attempts: 1 });
    // Stopped first: a running sender wakes when a mail is queued, and s1 would take the next one
    // to the server that hangs up at RCPT, which puts it off for 30 s.
    await s1.stop();
    await t.db.deleteFrom("mail_queue").execute();

    const late = await hangUpServer("after-body");
    closers.push(() => late.close());
    const b = await enqueueMail(t.db, mail("late@example.com"));
    const s2 = sender({ smtpUrl: late.url, retryBaseMs: 1 });
    // Drain until the body went out (on a busy machine the first try can lose the connection
    // before the body: that one is retried, as the first half of this test shows).
    for (let i = 0; i < 100 && late.bodies === 0; i++) {
      await s2.drain();
      if (late.bodies === 0) await new Promise((r) => setTimeout(r, 20));
    }
    await s2.drain();
    expect(late.bodies).toBe(1);
    expect(await getMail(t.db, b.id)).toMatchObject({ status: "unknown" });
  });

  it("a stale lease recovered by the recovery step is reported", async () => {
    const { id } = await enqueueMail(t.db, mail("x@example.com"));
    await claimNextMail(t.db, "dead", new Date(), 10);
    const result = await recoverExpiredLeases(t.db, new Date(Date.now() + 1000));
    expect(result).toEqual({ requeued: [id], unknown: [] });
  });
});

// Real processes, killed with SIGKILL, sharing a database file (SQLite) or server (PostgreSQL).
describe.each(dialects)("mail sender processes killed mid-send on %s", (kind: DbKind) => {
  let db: Db;
  let options: DbOptions;
  let cleanup: () => Promise<void>;
  const children: ChildProcess[] = [];
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (kind === "sqlite") {
      const dir = await mkdtemp(path.join(tmpdir(), "mail-crash-"));
      options = { kind, sqlitePath: path.join(dir, "store.db") };
      cleanup = () => rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    } else {
      const t = await freshDb(kind);
      options = { kind, url: t.url, poolSize: 4 };
      cleanup = () => t.drop();
    }
    db = createDb(options);
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await cleanup?.();
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(kill9));
    await Promise.all(closers.splice(0).map((c) => c()));
    await db.deleteFrom("mail_queue").execute();
  });
  async function sink(o = {}) {
    const s = await startMailSink(o);
    closers.push(() => s.close());
    return s;
  }
  const status = async (id: number) => (await getMail(db, id))?.status;
  /** A healthy sender on a new sink, drained until the mail `id` reaches `wanted`. */
  async function recoverWithHealthySender(id: number, wanted: string, what: string) {
    const good = await sink();
    const s = startMailSender(db, { ...quiet, smtpUrl: good.url });
    closers.push(() => s.stop());
    await waitUntil(
      async () => {
        await s.drain();
        return (await status(id)) === wanted;
      },
      15_000,
      what,
    );
    return { good, s };
  }

  it("killed while still in the SMTP envelope: another process delivers it, exactly once", async () => {
    const stalled = await sink({ rcptDelayMs: 30_000 });
    const { id } = await enqueueMail(db, mail("envelope@example.com"));
    const child = spawnSender(options, stalled.url, 1500);
    children.push(child);
    await stalled.rcptReached;
    expect(await status(id)).toBe("sending");
    await kill9(child);

    const { good } = await recoverWithHealthySender(id, "sent", "the mail to be recovered and sent");
    expect(stalled.mails).toHaveLength(0);
    expect(good.mails).toHaveLength(1);
  });

  it("killed after the body went out, before the reply: never sent a second time", async () => {
    const holding = await sink({ holdAfterData: true });
    const { id } = await enqueueMail(db, mail("body@example.com"));
    const child = spawnSender(options, holding.url, 1500);
    children.push(child);
    await holding.bodyReceived;
    await waitUntil(async () => (await status(id)) === "transmitting", 5000, "transmitting");
    await kill9(child);

    const { good, s } = await recoverWithHealthySender(id, "unknown", "the mail to be marked unknown");
    await s.drain();
    expect(good.mails).toHaveLength(0);
  });

  it("two sender processes share one queue: each mail arrives exactly once", async () => {
    const smtp = await sink();
    for (let i = 0; i < 30; i++) await enqueueMail(db, mail(`p${i}@example.com`, `Mail ${i}`));
    children.push(spawnSender(options, smtp.url, 60_000), spawnSender(options, smtp.url, 60_000));
    await waitUntil(() => smtp.mails.length >= 30, 20_000, "30 mails");
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails).toHaveLength(30);
    expect([...smtp.messageIdCounts().values()].every((n) => n === 1)).toBe(true);
  });
});
