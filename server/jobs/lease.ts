import type { Db } from "../db/connection.ts";

const iso = (d: Date) => d.toISOString();

/**
 * Claims the named job's lease for `holder` when it is free and the job's last start is at least
 * `everyMs` ago, so that across every app process the job starts at most once per interval and
 * never runs twice at the same time. True when this holder won.
 */
export async function claimJobLease(
  db: Db,
  name: string,
  holder: string,
  options: { leaseMs: number; everyMs: number; now?: Date },
): Promise<boolean> {
  const now = options.now ?? new Date();
  await db
    .insertInto("job_leases")
    .values({ name })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const result = await db
    .updateTable("job_leases")
    .set({ locked_by: holder, locked_until: iso(new Date(now.getTime() + options.leaseMs)), last_started_at: iso(now) })
    .where("name", "=", name)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", iso(now))]))
    .where((eb) =>
      eb.or([
        eb("last_started_at", "is", null),
        eb("last_started_at", "<=", iso(new Date(now.getTime() - options.everyMs))),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives the lease back (only if `holder` still has it) and records how the run ended. */
export async function releaseJobLease(
  db: Db,
  name: string,
  holder: string,
  outcome: { error?: string; now?: Date } = {},
): Promise<void> {
  await db
    .updateTable("job_leases")
    .set({
      locked_by: null,
      locked_until: null,
      last_finished_at: iso(outcome.now ?? new Date()),
      last_error: outcome.error?.slice(0, 500) ?? null,
    })
    .where("name", "=", name)
    .where("locked_by", "=", holder)
    .execute();
}
