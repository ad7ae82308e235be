/**
 * The back office's audit log: every change staff make is one audit_log row, written with the
 * caller's transaction handle so the change and its record commit or roll back together.
 * Only the fields that changed are kept in `before` and `after` (diffFields).
 */
import type { Kysely, Transaction } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";

/** Who acted: the staff member's user id and display name (a name, never a full email address). */
export interface AuditActor {
  userId: string;
  name: string;
}

export interface AuditEntry {
  action: string;
  objectType: string;
  objectId: string | number;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

type Handle = Transaction<Database> | Kysely<Database>;

/** Writes one audit row; call it inside the transaction that makes the change. */
export async function writeAudit(trx: Handle, actor: AuditActor, entry: AuditEntry, now = new Date()): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      created_at: now.toISOString(),
      actor_id: actor.userId,
      actor_name: actor.name.slice(0, 200) || actor.userId,
      action: entry.action,
      object_type: entry.objectType,
      object_id: String(entry.objectId),
      before: entry.before == null ? null : JSON.stringify(entry.before),
      after: entry.after == null ? null : JSON.stringify(entry.after),
    })
    .execute();
}

/** The fields whose values differ between two versions of an object, as { before, after }. */
export function diffFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

export interface AuditFilter {
  actorId?: string;
  objectType?: string;
  objectId?: string;
  /** Rows older than this id (keyset pagination, newest first). */
  beforeId?: number;
  limit?: number;
}

export async function listAudit(db: Db, filter: AuditFilter = {}) {
  const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
  let query = db
    .selectFrom("audit_log")
    .selectAll()
    .orderBy("id", "desc")
    .limit(limit + 1);
  if (filter.actorId) query = query.where("actor_id", "=", filter.actorId);
  if (filter.objectType) query = query.where("object_type", "=", filter.objectType);
  if (filter.objectId) query = query.where("object_id", "=", filter.objectId);
  if (filter.beforeId) query = query.where("id", "<", filter.beforeId);
  const rows = await query.execute();
  return { rows: rows.slice(0, limit), nextBeforeId: rows.length > limit ? rows[limit - 1].id : null };
}
