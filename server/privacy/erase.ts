/**
 * Account deletion (issue 11, item 7), in ONE transaction: either everything below happens or
 * nothing does.
 *
 * Deleted: the user row, its accounts (password hash, Google link and tokens), every session,
 * verification rows for the account (sign-in links for its email, reset tokens for its id), its
 * cart, wishlist, chosen market and saved lists (shared ones too), the newsletter subscriber row for its email,
 * and contact messages sent from its email.
 * Quotes (issue 48): a quote that never became an order is deleted with its lines; an accepted
 * one is kept for the accounts (number, lines, prices, dates, staff's note) with its email and
 * the buyer's message blanked and no user id. The staff inbox's "Quote request" mail, which
 * quoted the buyer's message, is blanked like the account's own mails.
 * Trade applications: pending and rejected ones are deleted; an approved one (its company's row
 * points at it) is kept with the company's name, country and tax number, and the applicant's
 * phone, address lines and city blanked, the postcode cut to its district and no user id. The
 * company's own row (name, billing address, phone) is the company's, kept for its members and
 * invoices.
 * Kept for the accounts, no longer linked to anyone: the account's orders with their number,
 * lines, totals, dates, status and payment method, the country and region shipped to and the
 * postcode's district (mask.ts). Email, names, address lines, business name and tax number are
 * blanked, user_id is cleared (and the stock ledger's "user:<id>" actor for them), and the guest
 * link's token is replaced, so old links show nothing.
 * Mails to (or relaying a message from) the address are blanked like the retention job does
 * (mail-erasure.ts); a still-queued one is cancelled ('failed'). A mail a sender has already
 * claimed is left to finish; the retention job blanks it later.
 */
import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import addressparser from "nodemailer/lib/addressparser";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { NotFoundError } from "../errors.ts";
import { ownerForUser } from "../shopper/guest.ts";
import { ERASABLE_MAIL_COLUMNS, eraseMail } from "./mail-erasure.ts";
import { postcodeDistrict } from "./mask.ts";

type Trx = Transaction<Database>;

/** The stock ledger's actor for a deleted account's orders. */
const ERASED_ACTOR = "user:erased";

/** user_id of an anonymised quote or trade application (the columns are NOT NULL; no user has this id). */
export const ERASED_USER_ID = "";

export const CANCELLED_MAIL_REASON = "not sent: the recipient deleted their account";

export interface ErasureSummary {
  ordersAnonymised: number;
  mailsErased: number;
  contactMessagesDeleted: number;
  sessionsEnded: number;
  quotesDeleted: number;
  quotesAnonymised: number;
  applicationsDeleted: number;
  applicationsAnonymised: number;
}

export const NOTHING_ERASED: ErasureSummary = {
  ordersAnonymised: 0,
  mailsErased: 0,
  contactMessagesDeleted: 0,
  sessionsEnded: 0,
  quotesDeleted: 0,
  quotesAnonymised: 0,
  applicationsDeleted: 0,
  applicationsAnonymised: 0,
};

const addressOf = (value: string | null): string | null => {
  if (!value) return null;
  const parsed = addressparser(value, { flatten: true });
  return parsed.length === 1 ? (parsed[0]?.address ?? "").trim().toLowerCase() : null;
};

async function anonymiseOrders(trx: Trx, userId: string): Promise<number> {
  const orders = await trx
    .selectFrom("orders")
    .select(["id", "ship_country", "ship_postcode"])
    .where("user_id", "=", userId)
    .execute();
  if (orders.length) {
    // The stock ledger and order history name who acted; "user:<id>" would still tie the orders together.
    for (const table of ["stock_movements", "order_events"] as const) {
      await trx
        .updateTable(table)
        .set({ actor: ERASED_ACTOR })
        .where(
          "order_id",
          "in",
          orders.map((o) => o.id),
        )
        .where("actor", "=", `user:${userId}`)
        .execute();
    }
  }
  for (const order of orders) {
    await trx
      .updateTable("orders")
      .set({
        user_id: null,
        email: "",
        business_name: null,
        tax_number: null,
        ship_name: "",
        ship_line1: "",
        ship_line2: null,
        ship_city: "",
        ship_postcode: postcodeDistrict(order.ship_country, order.ship_postcode),
        access_token: randomBytes(24).toString("base64url"),
        // "u:<id>", the cart a card order came from.
        cart_owner: null,
      })
      .where("id", "=", order.id)
      .execute();
  }
  return orders.length;
}

/** Accepted quotes stay (their order is in the accounts), blanked; the rest go. Returns the staff mails to blank. */
async function eraseQuotes(
  trx: Trx,
  userId: string,
  at: Date,
): Promise<{ deleted: number; anonymised: number; mailsErased: number }> {
  const quotes = await trx
    .selectFrom("quotes")
    .select(["id", "number", "status"])
    .where("user_id", "=", userId)
    .execute();
  if (!quotes.length) return { deleted: 0, anonymised: 0, mailsErased: 0 };
  const kept = quotes.filter((q) => q.status === "accepted").map((q) => q.id);
  const gone = quotes.filter((q) => q.status !== "accepted").map((q) => q.id);
  if (kept.length)
    await trx
      .updateTable("quotes")
      .set({ user_id: ERASED_USER_ID, email: "", message: null })
      .where("id", "in", kept)
      .execute();
  if (gone.length) {
    await trx.deleteFrom("quote_lines").where("quote_id", "in", gone).execute();
    await trx.deleteFrom("quotes").where("id", "in", gone).execute();
  }
  // The store inbox's mail about each request quoted the buyer's message (quoteRequestedStaffMail).
  const staffMails = await trx
    .selectFrom("mail_queue")
    .select(ERASABLE_MAIL_COLUMNS)
    .where(
      "subject",
      "in",
      quotes.map((q) => `Quote request ${q.number}`),
    )
    .where("body_erased_at", "is", null)
    .execute();
  let mailsErased = 0;
  for (const row of staffMails) {
    if (row.status === "sending" || row.status === "transmitting") continue;
    const cancel = row.status === "queued" ? { status: "failed" as const, reason: CANCELLED_MAIL_REASON } : {};
    if (await eraseMail(trx, row, at, cancel)) mailsErased++;
  }
  return { deleted: gone.length, anonymised: kept.length, mailsErased };
}

/** An approved application is its company's record (companies.application_id): kept, blanked. The others go. */
async function eraseTradeApplications(trx: Trx, userId: string): Promise<{ deleted: number; anonymised: number }> {
  const applications = await trx
    .selectFrom("trade_applications")
    .select(["id", "status", "country", "billing_postcode"])
    .where("user_id", "=", userId)
    .execute();
  let anonymised = 0;
  for (const a of applications.filter((a) => a.status === "approved")) {
    await trx
      .updateTable("trade_applications")
      .set({
        user_id: ERASED_USER_ID,
        phone: "",
        billing_line1: "",
        billing_line2: null,
        billing_city: "",
        billing_postcode: postcodeDistrict(a.country, a.billing_postcode),
      })
      .where("id", "=", a.id)
      .execute();
    anonymised++;
  }
  const gone = applications.filter((a) => a.status !== "approved").map((a) => a.id);
  if (gone.length) await trx.deleteFrom("trade_applications").where("id", "in", gone).execute();
  return { deleted: gone.length, anonymised };
}

async function eraseMails(trx: Trx, email: string, at: Date): Promise<number> {
  const rows = await trx
    .selectFrom("mail_queue")
    .select(ERASABLE_MAIL_COLUMNS)
    .where("body_erased_at", "is", null)
    .where((eb) =>
      eb.or([
        eb(eb.fn("lower", ["to_address"]), "=", email),
        // Contact-form relays carry the visitor as a mailbox ("Name" <address>) in reply_to.
        eb.and([eb("reply_to", "is not", null), eb(eb.fn("lower", ["reply_to"]), "like", `%${email}%`)]),
      ]),
    )
    .execute();
  let erased = 0;
  for (const row of rows) {
    const ours = addressOf(row.to_address) === email || addressOf(row.reply_to) === email;
    if (!ours || row.status === "sending" || row.status === "transmitting") continue;
    const cancel = row.status === "queued" ? { status: "failed" as const, reason: CANCELLED_MAIL_REASON } : {};
    if (await eraseMail(trx, row, at, cancel)) erased++;
  }
  return erased;
}

/** Sign-in links carry the email in their JSON value; reset tokens carry the user id. */
async function deleteVerifications(trx: Trx, userId: string, email: string): Promise<void> {
  const rows = await trx
    .selectFrom("verification")
    .select(["id", "value"])
    .where((eb) =>
      eb.or([
        eb("value", "=", userId),
        eb("value", "like", `%${userId}%`),
        eb(eb.fn("lower", ["value"]), "like", `%${email}%`),
      ]),
    )
    .execute();
  const ids = rows
    .filter((row) => {
      if (row.value === userId) return true;
      try {
        const v = JSON.parse(row.value) as {
          email?: unknown;
          userId?: unknown;
          link?: { email?: unknown; userId?: unknown };
        };
        const emails = [v.email, v.link?.email]
          .filter((e): e is string => typeof e === "string")
          .map((e) => e.trim().toLowerCase());
        return emails.includes(email) || v.userId === userId || v.link?.userId === userId;
      } catch {
        return false;
      }
    })
    .map((row) => row.id);
  if (ids.length) await trx.deleteFrom("verification").where("id", "in", ids).execute();
}

export async function eraseAccount(db: Db, userId: string, options: { now?: Date } = {}): Promise<ErasureSummary> {
  const at = options.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom("user").select(["id", "email"]).where("id", "=", userId).executeTakeFirst();
    if (!user) throw new NotFoundError("ACCOUNT_NOT_FOUND", "This account no longer exists.");
    const email = user.email.trim().toLowerCase();
    const owner = ownerForUser(userId);

    const ordersAnonymised = await anonymiseOrders(trx, userId);
    await trx.deleteFrom("cart_items").where("owner", "=", owner).execute();
    await trx.deleteFrom("wishlist_items").where("owner", "=", owner).execute();
    await trx.deleteFrom("shopper_markets").where("owner", "=", owner).execute();
    const lists = trx.selectFrom("saved_lists").select("id").where("user_id", "=", userId);
    await trx.deleteFrom("saved_list_lines").where("list_id", "in", lists).execute();
    await trx.deleteFrom("saved_lists").where("user_id", "=", userId).execute();
    await trx.deleteFrom("newsletter_subscribers").where("email", "=", email).execute();
    const contact = await trx
      .deleteFrom("contact_messages")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
      .executeTakeFirst();
    const quotes = await eraseQuotes(trx, userId, at);
    const applications = await eraseTradeApplications(trx, userId);
    const mailsErased = (await eraseMails(trx, email, at)) + quotes.mailsErased;
    await deleteVerifications(trx, userId, email);
    const sessions = await trx.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
    await trx.deleteFrom("account").where("userId", "=", userId).execute();
    await trx.deleteFrom("user").where("id", "=", userId).execute();
    return {
      ordersAnonymised,
      mailsErased,
      contactMessagesDeleted: Number(contact.numDeletedRows),
      sessionsEnded: Number(sessions.numDeletedRows),
      quotesDeleted: quotes.deleted,
      quotesAnonymised: quotes.anonymised,
      applicationsDeleted: applications.deleted,
      applicationsAnonymised: applications.anonymised,
    };
  });
}
