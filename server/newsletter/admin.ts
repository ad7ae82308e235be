/**
 * Newsletter subscribers in the back office: counts per status, a filtered and searched list, and
 * the CSV export (read in id batches, never the whole table at once). Addresses are stored
 * lower-case (normalizeEmail), so the search is a plain "contains" on email. The status filter
 * wants an index on newsletter_subscribers (status, id).
 */
import { stringify } from "csv-stringify/sync";
import type { Db } from "../db/connection.ts";
import type { NewsletterStatus, NewsletterSubscriberRow } from "../db/schema.ts";
import { likeContains, normalizeSearch } from "../customers/list.ts";
import { sql, type SqlBool } from "kysely";
import { NEWSLETTER_STATUSES as STATUS_NAMES } from "../../app/lib/admin/message-constants.ts";

const NEWSLETTER_STATUSES: readonly NewsletterStatus[] = STATUS_NAMES;
const SUBSCRIBERS_PER_PAGE = 50;
const MAX_SUBSCRIBER_PAGE = 200;
const EXPORT_BATCH = 1000;

export type SubscriberRow = Pick<
  NewsletterSubscriberRow,
  "id" | "email" | "status" | "created_at" | "confirmed_at" | "unsubscribed_at"
>;

export interface SubscriberQuery {
  status?: NewsletterStatus | null;
  q?: string;
  page?: number;
}

export function parseNewsletterStatus(raw: unknown): NewsletterStatus | null {
  return typeof raw === "string" && (NEWSLETTER_STATUSES as readonly string[]).includes(raw)
    ? (raw as NewsletterStatus)
    : null;
}

export async function countSubscribersByStatus(db: Db): Promise<Record<NewsletterStatus, number>> {
  const rows = await db
    .selectFrom("newsletter_subscribers")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  const out: Record<NewsletterStatus, number> = { pending: 0, confirmed: 0, unsubscribed: 0 };
  for (const r of rows) if (r.status in out) out[r.status] = Number(r.n);
  return out;
}

function filtered(db: Db, query: SubscriberQuery) {
  let select = db
    .selectFrom("newsletter_subscribers")
    .select(["id", "email", "status", "created_at", "confirmed_at", "unsubscribed_at"]);
  if (query.status) select = select.where("status", "=", query.status);
  const q = normalizeSearch(query.q);
  if (q) select = select.where(sql<SqlBool>`lower(email) like ${likeContains(q)} escape '\\'`);
  return select;
}

/** Newest first, LIMIT/OFFSET with a cap. */
export async function listSubscribers(
  db: Db,
  query: SubscriberQuery = {},
): Promise<{ rows: SubscriberRow[]; page: number; hasNext: boolean }> {
  const page = Math.min(Math.max(Math.trunc(query.page ?? 1) || 1, 1), MAX_SUBSCRIBER_PAGE);
  const rows = await filtered(db, query)
    .orderBy("id", "desc")
    .limit(SUBSCRIBERS_PER_PAGE + 1)
    .offset((page - 1) * SUBSCRIBERS_PER_PAGE)
    .execute();
  return {
    rows: rows.slice(0, SUBSCRIBERS_PER_PAGE).map((r) => ({ ...r, id: Number(r.id) })),
    page,
    hasNext: rows.length > SUBSCRIBERS_PER_PAGE && page < MAX_SUBSCRIBER_PAGE,
  };
}

/** A cell a spreadsheet would run as a formula (=, +, -, @ first) gets a leading apostrophe (OWASP CSV injection). */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const EXPORT_COLUMNS = ["email", "status", "subscribed_at", "confirmed_at", "unsubscribed_at"] as const;

/** The export as CSV text chunks: a header line, then one chunk per batch of subscribers (oldest first). */
export async function* subscribersCsv(
  db: Db,
  query: Pick<SubscriberQuery, "status" | "q"> = {},
): AsyncGenerator<string> {
  yield stringify([[...EXPORT_COLUMNS]]);
  let afterId = 0;
  for (;;) {
    const rows = await filtered(db, query).where("id", ">", afterId).orderBy("id").limit(EXPORT_BATCH).execute();
    if (rows.length === 0) return;
    yield stringify(
      rows.map((r) => [
        spreadsheetSafe(r.email),
        r.status,
        r.created_at,
        r.confirmed_at ?? "",
        r.unsubscribed_at ?? "",
      ]),
    );
    afterId = Number(rows.at(-1)!.id);
    if (rows.length < EXPORT_BATCH) return;
  }
}
