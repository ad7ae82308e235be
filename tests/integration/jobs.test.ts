import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimJobLease, releaseJobLease } from "../../server/jobs/lease.ts";
import { runJobIfDue, type PeriodicJob } from "../../server/jobs/runner.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

describe.each(dialects)("periodic job leases (%s)", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
  });
  afterAll(() => t.drop());

  it("lets exactly one of many concurrent holders win a free lease", async () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const wins = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        claimJobLease(t.db, "race", `h${i}`, { leaseMs: 60_000, everyMs: 1000, now }),
      ),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it("refuses a held lease, and hands it over once it expired (a dead holder's work is not lost)", async () => {
    const start = new Date("2026-01-01T00:00:00Z");
    expect(await claimJobLease(t.db, "expiry", "a", { leaseMs: 10_000, everyMs: 0, now: start })).toBe(true);
    expect(
      await claimJobLease(t.db, "expiry", "b", { leaseMs: 10_000, everyMs: 0, now: new Date(start.getTime() + 5_000) }),
    ).toBe(false);
    expect(
      await claimJobLease(t.db, "expiry", "b", {
        leaseMs: 10_000,
        everyMs: 0,
        now: new Date(start.getTime() + 10_001),
      }),
    ).toBe(true);
    // The old holder's release no longer touches the lease it lost.
    await releaseJobLease(t.db, "expiry", "a");
    const row = await t.db.selectFrom("job_leases").selectAll().where("name", "=", "expiry").executeTakeFirstOrThrow();
    expect(row.locked_by).toBe("b");
  });

  it("starts a job at most once per interval across processes", async () => {
    let runs = 0;
    const job: PeriodicJob = { name: "interval", everyMs: 60_000, run: async () => void runs++ };
    const t0 = new Date("2026-01-01T00:00:00Z");
    const at = (ms: number) => () => new Date(t0.getTime() + ms);
    expect(await runJobIfDue(t.db, job, "p1", { now: at(0) })).toBe(true);
    expect(await runJobIfDue(t.db, job, "p2", { now: at(1_000) })).toBe(false);
    expect(await runJobIfDue(t.db, job, "p2", { now: at(60_000) })).toBe(true);
    expect(runs).toBe(2);
  });

  it("records a failed run and frees the lease", async () => {
    const job: PeriodicJob = {
      name: "fails",
      everyMs: 0,
      run: async () => {
        throw new Error("boom");
      },
    };
    expect(await runJobIfDue(t.db, job, "p1")).toBe(true);
    const row = await t.db.selectFrom("job_leases").selectAll().where("name", "=", "fails").executeTakeFirstOrThrow();
    expect(row.last_error).toBe("boom");
    expect(row.locked_by).toBeNull();
  });
});
