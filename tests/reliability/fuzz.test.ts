/**
 * Hostile input to every route, form and auth endpoint of the built store; any 5xx (or no answer)
 * fails, printed with what is needed to replay it. FUZZ_SEED replays a run (default: a fixed seed;
 * "random" for a new one), FUZZ_REQUESTS sizes it (SQLite; PostgreSQL gets half), FUZZ_CASE
 * replays one request of a seed.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fuzzSeed } from "./fuzz/prng.ts";
import { describeFailure, groupFailures, runFuzz, summarize } from "./fuzz/run.ts";
import { staffPromoter } from "./support/staff.ts";
import { startStore, storeDialects, type RunningStore } from "./support/store-server.ts";

const seed = fuzzSeed();
// Sized for `npm test`: the whole reliability suite, both databases, stays within 3 minutes.
const requested = Number(process.env.FUZZ_REQUESTS ?? 3000);
const only = process.env.FUZZ_CASE ? Number(process.env.FUZZ_CASE) : undefined;
const stores: RunningStore[] = [];
afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.stop()));
});

describe.each(storeDialects)("fuzzing the store on %s", (kind) => {
  it("answers hostile requests to every route and action without a 5xx", async () => {
    const store = await startStore({ name: "fuzz", kind });
    stores.push(store);
    const requests = kind === "sqlite" ? requested : Math.ceil(requested / 2);
    console.log(`fuzz (${kind}): FUZZ_SEED=${seed} FUZZ_REQUESTS=${requests}`);
    const db = store.database.open();
    const report = await runFuzz({
      baseUrl: store.baseUrl,
      seed,
      requests,
      only,
      log: (line) => console.log(line),
      promote: staffPromoter(db),
    }).finally(() => db.destroy());
    console.log(summarize(report));
    if (report.failures.length) {
      const file = path.join(store.dir, "fuzz-failures.txt");
      writeFileSync(file, report.failures.map((f) => describeFailure(f, seed)).join("\n\n"));
      const groups = groupFailures(report.failures);
      const shown = groups
        .slice(0, 12)
        .map((g) => `[${g.count}×] ${g.key}\n${describeFailure(g.example, seed)}`)
        .join("\n\n");
      const more = groups.length > 12 ? `\n… and ${groups.length - 12} more kinds` : "";
      expect.fail(
        `${report.failures.length} failure(s) of ${groups.length} kind(s) with FUZZ_SEED=${seed} on ${kind} (all in ${file}):\n\n${shown}${more}\n\nserver log:\n${store.logTail(30)}`,
      );
    }
    await store.stop();
  });
});
