/**
 * Quotes, the back office's side: the list (requests waiting first) and pricing one: a unit price
 * per line (never above list), the last valid day, an optional note; the buyer is mailed. A quote
 * not yet accepted may be priced again (a form made from an older version is refused).
 */
import { parseQuotedPrice, parseValidUntil, QUOTE_MESSAGE_MAX, type StaffQuoteFilter } from "../../app/lib/quotes.ts";
import { writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import { ConflictError, InvalidError, NotFoundError } from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { quoteReadyMail } from "./mails.ts";
import { loadQuote, quoteListItem } from "./quotes.ts";
import { CONTROL_IN_TEXT } from "../../app/lib/control-characters.ts";

export async function listQuotesForStaff(db: Db, filter: StaffQuoteFilter, now = new Date()) {
  let query = db
    .selectFrom("quotes as q")
    .leftJoin("companies as c", "c.organization_id", "q.organization_id")
    .select((eb) => [
      "q.number",
      "q.status",
      "q.valid_until",
      "q.created_at",
      "q.email",
      "c.name as company_name",
      eb
        .selectFrom("quote_lines as l")
        .select((l) => l.fn.countAll<number>().as("n"))
        .whereRef("l.quote_id", "=", "q.id")
        .as("line_count"),
    ]);
  const iso = now.toISOString();
  if (filter === "expired") query = query.where("q.status", "=", "quoted").where("q.valid_until", "<", iso);
  else if (filter === "quoted") query = query.where("q.status", "=", "quoted").where("q.valid_until", ">=", iso);
  else if (filter !== "all") query = query.where("q.status", "=", filter);
  const rows = await query
    .orderBy("q.created_at", filter === "requested" ? "asc" : "desc")
    .orderBy("q.id")
    .limit(200)
    .execute();
  return rows.map((r) => ({
    ...quoteListItem(r, now),
    email: r.email,
    companyName: r.company_name,
    lineCount: Number(r.line_count ?? 0),
  }));
}

export async function countQuoteRequests(db: Db): Promise<number> {
  const row = await db
    .selectFrom("quotes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "requested")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A refusal naming the fields to fix (the page shows each next to its field). */
export class QuoteInputError extends InvalidError {
  readonly fields: Record<string, string>;
  constructor(fields: Record<string, string>) {
    super("QUOTE_INPUT", "Please correct the highlighted fields.");
    this.fields = fields;
  }
}

/** Prices a requested (or re-prices a quoted, not yet accepted) quote and mails the buyer. */
export async function sendQuote(
  db: Db,
  staff: AuditActor,
  number: string,
  form: Record<string, string>,
  options: { siteUrl: string; now?: Date },
): Promise<string> {
  const now = options.now ?? new Date();
  const quote = await loadQuote(db, number, now);
  if (!quote) throw new NotFoundError("QUOTE_NOT_FOUND", "There is no quote with that number.");
  if (quote.state === "accepted" || quote.state === "declined")
    throw new ConflictError(
      "QUOTE_CLOSED",
      `Quote ${number} was ${quote.state} by the buyer; it can't be priced again.`,
    );
  const version = /^\d{1,10}$/.test(form.version ?? "") ? Number(form.version) : -1;
  if (version !== quote.version)
    throw new ConflictError(
      "STALE_QUOTE",
      "This quote changed since you opened it. Reload the page to see it as it is now.",
    );

  const fields: Record<string, string> = {};
  const prices = new Map<number, number>();
  for (const line of quote.lines) {
    const parsed = parseQuotedPrice(String(form[`price-${line.id}`] ?? ""), line.listPriceCents);
    if ("error" in parsed) fields[`price-${line.id}`] = parsed.error;
    else prices.set(line.id, parsed.cents);
  }
  const valid = parseValidUntil(String(form.validUntil ?? ""), now);
  if ("error" in valid) fields.validUntil = valid.error;
  const note = String(form.note ?? "").trim();
  if (note.length > QUOTE_MESSAGE_MAX) fields.note = `Keep the note to ${QUOTE_MESSAGE_MAX} characters or fewer.`;
  else if (CONTROL_IN_TEXT.test(note)) fields.note = "The note contains characters that aren't allowed.";
  if (Object.keys(fields).length > 0 || "error" in valid) throw new QuoteInputError(fields);

  await withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable("quotes")
        .set({
          status: "quoted",
          valid_until: valid.iso,
          staff_note: note || null,
          quoted_at: now.toISOString(),
          quoted_by: staff.userId,
          version: quote.version + 1,
        })
        .where("id", "=", quote.id)
        .where("version", "=", quote.version)
        .where("status", "in", ["requested", "quoted"])
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1)
        throw new ConflictError(
          "STALE_QUOTE",
          "This quote changed since you opened it. Reload the page to see it as it is now.",
        );
      for (const line of quote.lines)
        await trx
          .updateTable("quote_lines")
          .set({ quoted_unit_cents: prices.get(line.id)! })
          .where("id", "=", line.id)
          .execute();
      const totalCents = quote.lines.reduce((n, l) => n + prices.get(l.id)! * l.quantity, 0);
      await writeAudit(
        trx,
        staff,
        {
          action: "quote.send",
          objectType: "quote",
          objectId: number,
          before: {
            status: quote.status,
            validUntil: quote.valid_until,
            prices: quote.lines.map((l) => l.quotedUnitCents),
          },
          after: {
            status: "quoted",
            validUntil: valid.iso,
            prices: quote.lines.map((l) => prices.get(l.id)),
            totalCents,
          },
        },
        now,
      );
      await enqueueMail(
        trx,
        quoteReadyMail({
          to: quote.email,
          number,
          lines: quote.lines.map((l) => ({
            title: l.title,
            color: l.color,
            quantity: l.quantity,
            quotedUnitCents: prices.get(l.id)!,
          })),
          totalCents,
          validUntil: valid.iso,
          note: note || null,
          link: `${options.siteUrl}/account/quotes/${number}`,
        }),
      );
    }),
  );
  return `Quote ${number} is sent to the buyer.`;
}
