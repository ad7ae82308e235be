/**
 * A real local SMTP server (the `smtp-server` package) that keeps what it receives, for the
 * mail integration tests and every suite that runs the store (end-to-end, forms). Plus a small
 * MIME reader, enough for the mails the store sends (multipart/alternative, quoted-printable or
 * base64 parts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer, type SMTPServerSession } from "smtp-server";

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
  /** Header name (lower case) → unfolded value; the first occurrence. */
  headers: Record<string, string>;
  text: string;
  html: string;
}

export interface MailSinkOptions {
  port?: number;
  /** Return an error (with responseCode) to reject a recipient. */
  onRcptTo?: (address: string) => (Error & { responseCode?: number }) | undefined;
  /** Delay before answering RCPT TO, in ms (to hold a client inside the envelope). */
  rcptDelayMs?: number;
  /** Never answer the end of DATA (the client waits for the final reply). */
  holdAfterData?: boolean;
  /** Also write each message to `${dir}/<time>-<n>.eml` (read by another process). */
  dir?: string;
}

export interface MailSink {
  port: number;
  url: string;
  mails: ReceivedMail[];
  /** How many times each Message-ID arrived. */
  messageIdCounts(): Map<string, number>;
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once a client has sent a whole message body (used with holdAfterData). */
  bodyReceived: Promise<void>;
  rcptReached: Promise<void>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const input = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === "=" && /^[0-9A-Fa-f]{2}$/.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) in a header value. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function splitHeaders(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  const unfolded = block.replace(/\r?\n[ \t]+/g, " ");
  for (const line of unfolded.split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    out[name] ??= decodeHeader(line.slice(i + 1).trim());
  }
  return out;
}

function splitEntity(raw: string): { headers: Record<string, string>; body: string } {
  const m = /\r?\n\r?\n/.exec(raw);
  if (!m) return { headers: splitHeaders(raw), body: "" };
  return { headers: splitHeaders(raw.slice(0, m.index)), body: raw.slice(m.index + m[0].length) };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const cte = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  if (cte === "quoted-printable") return decodeQuotedPrintable(body);
  if (cte === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

function parseMail(raw: string): Pick<ReceivedMail, "headers" | "text" | "html"> {
  const { headers, body } = splitEntity(raw);
  let text = "";
  let html = "";
  const visit = (h: Record<string, string>, b: string) => {
    const type = (h["content-type"] ?? "text/plain").toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(h["content-type"] ?? "")?.[1];
    if (type.startsWith("multipart/") && boundary) {
      const parts = b.split(`--${boundary}`).slice(1);
      for (const part of parts) {
        if (part.startsWith("--")) break;
        const sub = splitEntity(part.replace(/^\r?\n/, ""));
        visit(sub.headers, sub.body);
      }
    } else if (type.startsWith("text/html")) html += decodeBody(h, b);
    else if (type.startsWith("text/plain")) text += decodeBody(h, b);
  };
  visit(headers, body);
  return { headers, text: text.replace(/\r\n/g, "\n").trimEnd(), html: html.replace(/\r\n/g, "\n").trimEnd() };
}

export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const mails: ReceivedMail[] = [];
  if (options.dir) mkdirSync(options.dir, { recursive: true });
  const waiters = new Set<() => void>();
  let markBody!: () => void;
  let markRcpt!: () => void;
  const bodyReceived = new Promise<void>((r) => (markBody = r));
  const rcptReached = new Promise<void>((r) => (markRcpt = r));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session: SMTPServerSession, callback) {
      markRcpt();
      const answer = () => callback(options.onRcptTo?.(address.address) ?? undefined);
      if (options.rcptDelayMs) setTimeout(answer, options.rcptDelayMs);
      else answer();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        markBody();
        if (options.holdAfterData) return; // never answer: the client is left waiting
        const bytes = Buffer.concat(chunks);
        if (options.dir) {
          const name = `${Date.now()}-${String(mails.length + 1).padStart(4, "0")}.eml`;
          writeFileSync(path.join(options.dir, name), bytes);
        }
        const raw = bytes.toString("utf8");
        mails.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          raw,
          ...parseMail(raw),
        });
        for (const w of waiters) w();
        callback();
      });
    },
  });
  server.on("error", () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    bodyReceived,
    rcptReached,
    messageIdCounts() {
      const counts = new Map<string, number>();
      for (const m of mails)
        counts.set(m.headers["message-id"] ?? "", (counts.get(m.headers["message-id"] ?? "") ?? 0) + 1);
      return counts;
    },
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = mails.find(predicate);
          if (hit) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hit);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching mail within ${timeoutMs} ms (received ${mails.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        // Drop connections left open (held DATA) so close() does not wait for them.
        const connections = (
          server as unknown as { connections?: Set<{ close?: () => void; _socket?: { destroy(): void } }> }
        ).connections;
        for (const c of connections ?? []) c._socket?.destroy();
        server.close(() => resolve());
      });
    },
  };
}
