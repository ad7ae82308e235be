import type { Db } from "../db/connection.ts";

/** The people and object types the audit log's filters offer: those that appear in the log. */
export async function auditFilterChoices(
  db: Db,
): Promise<{ actors: { actor_id: string; actor_name: string }[]; types: string[] }> {
  const [actors, types] = await Promise.all([
    db.selectFrom("audit_log").select(["actor_id", "actor_name"]).distinct().orderBy("actor_name").limit(200).execute(),
    db.selectFrom("audit_log").select("object_type").distinct().orderBy("object_type").limit(50).execute(),
  ]);
  return { actors, types: types.map((t) => t.object_type) };
}
