/**
 * How a composed mail leaves the process: over SMTP (SMTP_URL) or as an .eml file in OUTBOX_DIR.
 *
 * Both transports call `gate()` right before the message body goes out. The sender uses the gate
 * to record, in the database, that the body is about to be handed over (status 'transmitting');
 * when the gate says no, the transport aborts without sending the body.
 *
 * SMTP classification (see docs/decisions/0002-durable-mail.md):
 * - the server answered with a 4xx/5xx reply at any step → it did not take the message
 *   ('retry' for 4xx, 'permanent' for 5xx);
 * - the connection failed before the last byte of the body was handed to the socket → the server
 *   cannot have the end-of-data marker, so it cannot have accepted it ('retry');
 * - the connection failed after that, without a reply → 'unknown': it may have been delivered.
 */
import { createHash } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { OWNER_ONLY_DIR, OWNER_ONLY_FILE } from "../ops/private-files.ts";

export interface ComposedMail {
  id: number;
  messageId: string;
  to: string;
  subject: string;
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

export type DeliveryOutcome = "retry" | "permanent" | "unknown" | "fenced";

export class DeliveryError extends Error {
  readonly outcome: DeliveryOutcome;
  constructor(outcome: DeliveryOutcome, message: string) {
    super(message);
    this.name = "DeliveryError";
    this.outcome = outcome;
  }
}

/** Called right before the body goes out; resolves false when this sender no longer owns the mail. */
type BodyGate = () => Promise<boolean>;

export interface MailTransport {
  readonly kind: "smtp" | "outbox" | "custom";
  /** Resolves with a short description of where the mail went; rejects with a DeliveryError. */
  deliver(mail: ComposedMail, gate: BodyGate): Promise<string>;
  close(): Promise<void>;
}

export interface SmtpTimeouts {
  connectionTimeout?: number;
  greetingTimeout?: number;
  socketTimeout?: number;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

function parseSmtpUrl(url: string) {
  const u = new URL(url);
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:")
    throw new Error(`SMTP_URL must start with smtp:// or smtps://`);
  const secure = u.protocol === "smtps:";
  const flag = (name: string) => u.searchParams.get(name) === "true";
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ignoreTLS: flag("ignoreTLS"),
    requireTLS: flag("requireTLS"),
    tls: u.searchParams.get("tls.rejectUnauthorized") === "false" ? { rejectUnauthorized: false } : undefined,
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
  };
}

export function createSmtpTransport(url: string, timeouts: SmtpTimeouts = {}): MailTransport {
  const target = parseSmtpUrl(url);
  return {
    kind: "smtp",
    async close() {},
    deliver(mail, gate) {
      return new Promise<string>((resolve, reject) => {
        let settled = false;
        let bodyRequested = false;
        /** True once the last body byte may have been handed to the socket. */
        let bodyHandedOver = false;
        let fenced = false;

        const connection = new SMTPConnection({
          host: target.host,
          port: target.port,
          secure: target.secure,
          ignoreTLS: target.ignoreTLS,
          requireTLS: target.requireTLS,
          tls: target.tls,
          connectionTimeout: timeouts.connectionTimeout ?? 30_000,
          greetingTimeout: timeouts.greetingTimeout ?? 30_000,
          socketTimeout: timeouts.socketTimeout ?? 60_000,
          logger: false,
        });

        const finish = (error: SmtpError | null, response?: string) => {
          if (settled) return;
          settled = true;
          if (!error) {
            connection.quit();
            resolve(response ?? "accepted");
            return;
          }
          connection.close();
          const detail = `${error.message}`.replace(/\s+/g, " ").slice(0, 500);
          if (fenced) reject(new DeliveryError("fenced", "another sender owns this mail now; body not sent"));
          else if (typeof error.responseCode === "number" && error.responseCode >= 500)
            reject(new DeliveryError("permanent", detail));
          else if (typeof error.responseCode === "number" && error.responseCode >= 400)
            reject(new DeliveryError("retry", detail));
          else if (bodyHandedOver)
            reject(new DeliveryError("unknown", `connection lost after the message body was sent: ${detail}`));
          else reject(new DeliveryError("retry", detail));
        };

        // The body stream is only read once the server has answered DATA with 354: SMTPConnection
        // pipes it after the envelope. So the first read is the moment the body starts to go out.
        const body = new Readable({
          read() {
            if (bodyRequested) return;
            bodyRequested = true;
            gate().then(
              (ok) => {
                if (!ok) {
                  fenced = true;
                  body.destroy(new Error("fenced"));
                  return;
                }
                bodyHandedOver = true;
                body.push(mail.raw);
                body.push(null);
              },
              (error: unknown) => {
                fenced = true;
                body.destroy(error instanceof Error ? error : new Error(String(error)));
              },
            );
          },
        });

        connection.on("error", (error: SmtpError) => finish(error));
        connection.connect((connectError) => {
          if (connectError) return finish(connectError);
          const send = () =>
            connection.send(mail.envelope, body, (error, info) =>
              error ? finish(error) : finish(null, info?.response),
            );
          if (target.auth) connection.login(target.auth, (error) => (error ? finish(error) : send()));
          else send();
        });
      });
    },
  };
}

/**
 * Writes each mail as an .eml file; the file name is unique per queued mail (id + Message-ID).
 * Owner-only (0600 in a 0700 folder): an outbox mail may hold a live sign-in link.
 */
export function createOutboxTransport(dir: string): MailTransport {
  const root = path.resolve(dir);
  return {
    kind: "outbox",
    async close() {},
    async deliver(mail, gate) {
      await mkdir(root, { recursive: true, mode: OWNER_ONLY_DIR });
      if (!(await gate())) throw new DeliveryError("fenced", "another sender owns this mail now; not written");
      const tag = createHash("sha256").update(mail.messageId).digest("hex").slice(0, 10);
      const file = path.join(root, `mail-${String(mail.id).padStart(6, "0")}-${tag}.eml`);
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, mail.raw, { mode: OWNER_ONLY_FILE });
        await rename(tmp, file);
      } catch (error) {
        // Nothing was written under the final name, so the mail is not in the outbox.
        throw new DeliveryError(
          "retry",
          `could not write ${file}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return `written to ${path.relative(process.cwd(), file) || file}`;
    },
  };
}
