/**
 * Newsletter subscriptions with double opt-in. Plain functions on a Db handle; the routes call them.
 *
 * pending ──confirm link (48 h, one use)──▶ confirmed ──unsubscribe──▶ unsubscribed
 *    ▲                                                                    │
 *    └───────────────────────── subscribe again ──────────────────────────┘
 */
import { createHash, randomBytes } from "node:crypto";
import { dbKind, type Db } from "../db/connection.ts";
import type { NewsletterSubscriberRow } from "../db/schema.ts";
import { enqueueMail, type OutgoingMail } from "../mail/queue.ts";
import { renderMail, type MailParts } from "../mail/templates.ts";

export const CONFIRM_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;
/** A second Subscribe for the same pending address within this time sends no second mail. */
export const RESEND_COOLDOWN_MS = 60 * 1000;

export type SubscribeOutcome = "confirmation-sent" | "already-subscribed";
export type ConfirmCheck = "valid" | "already-confirmed" | "expired" | "invalid";
export type ConfirmOutcome = "confirmed" | "already-confirmed" | "expired" | "invalid";
export type UnsubscribeCheck = "subscribed" | "already-unsubscribed" | "invalid";
export type UnsubscribeOutcome = "unsubscribed" | "already-unsubscribed" | "invalid";

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Tokens we issue are 43 base64url characters; anything else is rejected before a query. */
function plausibleToken(token: string | null | undefined): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

function confirmUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/newsletter/confirm?token=${encodeURIComponent(token)}`;
}

function unsubscribeUrl(siteUrl: string, token: string): string {
  return `${siteUrl}/newsletter/unsubscribe?token=${encodeURIComponent(token)}`;
}

/**
 * Every newsletter mail goes through here: it adds the unsubscribe link to the text and HTML, and
 * the List-Unsubscribe and List-Unsubscribe-Post (RFC 8058 one-click) headers.
 */
function newsletterMail(
  siteUrl: string,
  subscriber: Pick<NewsletterSubscriberRow, "email" | "unsubscribe_token">,
  subject: string,
  parts: MailParts,
): OutgoingMail {
  const unsubscribe = unsubscribeUrl(siteUrl, subscriber.unsubscribe_token);
  const footer = [parts.footer, `Don't want these emails? Unsubscribe: ${unsubscribe}`].filter(Boolean).join("\n\n");
  return {
    to: subscriber.email,
    subject,
    ...renderMail({ ...parts, footer }),
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

export async function subscribe(
  db: Db,
  rawEmail: string,
  options: { siteUrl: string; now?: Date },
): Promise<SubscribeOutcome> {
  const email = normalizeEmail(rawEmail);
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const postgres = dbKind(db) === "postgres";
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("newsletter_subscribers")
      .values({ email, status: "pending", unsubscribe_token: newToken(), created_at: at, updated_at: at })
      .onConflict((oc) => oc.column("email").doNothing())
      .execute();
    const query = trx.selectFrom("newsletter_subscribers").selectAll().where("email", "=", email);
    const row = await (postgres ? query.forUpdate() : query).executeTakeFirstOrThrow();
    if (row.status === "confirmed") return "already-subscribed";
    const sentAt = row.confirmation_sent_at ? Date.parse(row.confirmation_sent_at) : 0;
    if (row.status === "pending" && now.getTime() - sentAt < RESEND_COOLDOWN_MS) return "confirmation-sent";

    const token = newToken();
    await trx
      .updateTable("newsletter_subscribers")
      .set({
        status: "pending",
        confirm_token_hash: hashToken(token),
        confirm_expires_at: new Date(now.getTime() + CONFIRM_TOKEN_TTL_MS).toISOString(),
        confirmation_sent_at: at,
        updated_at: at,
      })
      .where("id", "=", row.id)
      .execute();
    await enqueueMail(
      trx,
      newsletterMail(options.siteUrl, row, "Confirm your ToolHub Wholesale newsletter subscription", {
        heading: "Confirm your subscription",
        paragraphs: [
          `Someone — hopefully you — asked to get the ToolHub Wholesale newsletter at ${email}.`,
          "Confirm with the button below and we'll send you trade deals, new arrivals and member offers. The link works once and expires in 48 hours.",
        ],
        action: { label: "Confirm subscription", url: confirmUrl(options.siteUrl, token) },
        footer: "If you didn't ask for this, ignore this email: you won't be subscribed.",
      }),
    );
    return "confirmation-sent";
  });
}

async function findByConfirmToken(db: Db, token: string | null | undefined) {
  if (!plausibleToken(token)) return undefined;
  return db
    .selectFrom("newsletter_subscribers")
    .selectAll()
    .where("confirm_token_hash", "=", hashToken(token))
    .executeTakeFirst();
}

/** Read-only look at a confirmation link, for the page that shows the Confirm button. */
export async function checkConfirmToken(
  db: Db,
  token: string | null | undefined,
  now: Date = new Date(),
): Promise<ConfirmCheck> {
  const row = await findByConfirmToken(db, token);
  if (!row) return "invalid";
  if (row.status === "confirmed") return "already-confirmed";
  if (row.status !== "pending") return "invalid";
  if (!row.confirm_expires_at || Date.parse(row.confirm_expires_at) <= now.getTime()) return "expired";
  return "valid";
}

/** Uses a confirmation link. The token works once: after that it reports already-confirmed. */
export async function confirmSubscription(
  db: Db,
  token: string | null | undefined,
  now: Date = new Date(),
): Promise<ConfirmOutcome> {
  if (!plausibleToken(token)) return "invalid";
  const at = now.toISOString();
  const hash = hashToken(token);
  // One conditional UPDATE, so two clicks at once cannot both "confirm".
  const updated = await db
    .updateTable("newsletter_subscribers")
    .set({ status: "confirmed", confirmed_at: at, confirm_expires_at: null, updated_at: at })
    .where("confirm_token_hash", "=", hash)
    .where("status", "=", "pending")
    .where("confirm_expires_at", ">", at)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return "confirmed";
  const check = await checkConfirmToken(db, token, now);
  return check === "valid" ? "invalid" : check;
}

async function findByUnsubscribeToken(db: Db, token: string | null | undefined) {
  if (!plausibleToken(token)) return undefined;
  return db.selectFrom("newsletter_subscribers").selectAll().where("unsubscribe_token", "=", token).executeTakeFirst();
}

export async function checkUnsubscribeToken(db: Db, token: string | null | undefined): Promise<UnsubscribeCheck> {
  const row = await findByUnsubscribeToken(db, token);
  if (!row) return "invalid";
  return row.status === "unsubscribed" ? "already-unsubscribed" : "subscribed";
}

export async function unsubscribe(
  db: Db,
  token: string | null | undefined,
  now: Date = new Date(),
): Promise<UnsubscribeOutcome> {
  const row = await findByUnsubscribeToken(db, token);
  if (!row) return "invalid";
  if (row.status === "unsubscribed") return "already-unsubscribed";
  const at = now.toISOString();
  await db
    .updateTable("newsletter_subscribers")
    .set({
      status: "unsubscribed",
      unsubscribed_at: at,
      confirm_token_hash: null,
      confirm_expires_at: null,
      updated_at: at,
    })
    .where("id", "=", row.id)
    .execute();
  return "unsubscribed";
}

export async function getSubscriber(db: Db, email: string): Promise<NewsletterSubscriberRow | undefined> {
  return db
    .selectFrom("newsletter_subscribers")
    .selectAll()
    .where("email", "=", normalizeEmail(email))
    .executeTakeFirst();
}
