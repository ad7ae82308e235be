import { parse } from "csv-parse/sync";
import { diffFields, writeAudit } from "../audit/audit.ts";
import { assertCan, type StaffActor } from "../catalog/staff-actor.ts";
import { sql, type Selectable } from "kysely";
import { US_STATE_NAMES, type UsStateCode } from "../../app/lib/us-states.ts";
import { committedReaderOf } from "../db/committed-read.ts";
import { sharedFreshRead } from "../db/shared-read.ts";
import { compiledOnce } from "../db/compiled-once.ts";
import type { Db } from "../db/connection.ts";
import type { TaxUsStateTable } from "../db/schema.ts";
import { ConflictError, InvalidError } from "../errors.ts";
import { formatRate, parseRatePercent } from "../../app/lib/tax.ts";
import { shownState } from "../../app/lib/tax-table-form.ts";
import { CONTROL_IN_LINE } from "../../app/lib/control-characters.ts";
import type { UsTaxTables } from "./order-tax.ts";

/**
 * The US sales-tax table as staff keep it (issue 51): each state's rate, whether it taxes
 * delivery and whether the store collects there, and the local rates of ZIP codes from a CSV.
 * Every change is checked whole before anything is written, written in one transaction and
 * audited.
 */

export interface UsStateSetting {
  code: string;
  name: string;
  ratePpm: number;
  shippingTaxable: boolean;
  collect: boolean;
  version: number;
}

function settingOf(r: Selectable<TaxUsStateTable>): UsStateSetting {
  return {
    code: r.code,
    name: r.name,
    ratePpm: Number(r.rate_ppm),
    shippingTaxable: Number(r.shipping_taxable) === 1,
    collect: Number(r.collect) === 1,
    version: Number(r.version),
  };
}

export async function listUsStates(db: Db): Promise<UsStateSetting[]> {
  const rows = await db.selectFrom("tax_us_states").selectAll().orderBy("name").execute();
  return rows.map(settingOf);
}

/** One ZIP code's local rates. */
const localRow = /* @__PURE__ */ compiledOnce((db: Db, zip: string) =>
  db.selectFrom("tax_us_local_rates").select(["zip", "region", "rate_ppm"]).where("zip", "=", zip),
);

const COLLECTING_SQL =
  'select "code", "name", "rate_ppm", "shipping_taxable", "collect", "version" from "tax_us_states" where "collect" = 1';
/** Through the handle (PostgreSQL, a transaction): checkouts that ask at once share a round trip. */
const sharedCollectingRead = /* @__PURE__ */ sharedFreshRead(
  async (db: Db) => (await sql<Selectable<TaxUsStateTable>>`${sql.raw(COLLECTING_SQL)}`.execute(db)).rows,
);

/**
 * The states where the store collects, as committed now: read on every US checkout, so on a
 * SQLite file without Kysely's queue (the committed read the catalog version uses), elsewhere
 * shared by the checkouts that ask at the same time.
 */
async function collectingStates(db: Db): Promise<UsStateSetting[]> {
  const read = committedReaderOf(db);
  const rows = read ? (read(COLLECTING_SQL) as Selectable<TaxUsStateTable>[]) : await sharedCollectingRead(db);
  return rows.map(settingOf);
}

/**
 * The tables `usTaxBasis` needs for one delivery ZIP code. With `state` (the checkout's case) only
 * what decides that order is read: the states where the store collects (the delivery state, when
 * it isn't one, stands in by its name, which is all `usTaxBasis` reads of it) and the ZIP code's
 * local rates only where the store collects. Without it, every state's row and the local rates.
 */
export async function readUsTaxTables(db: Db, zip: string, state?: UsStateCode): Promise<UsTaxTables> {
  const zip5 = zip.trim().slice(0, 5);
  let states: UsStateSetting[];
  if (state) {
    const own = (await collectingStates(db)).find((s) => s.code === state);
    states = [
      own ?? {
        code: state,
        name: US_STATE_NAMES[state],
        ratePpm: 0,
        shippingTaxable: false,
        collect: false,
        version: 0,
      },
    ];
  } else states = await listUsStates(db);
  const nexus = new Set(states.filter((s) => s.collect).map((s) => s.code));
  const local = !state || nexus.size ? await localRow(db, zip5) : [];
  return {
    states: new Map(states.map((s) => [s.code, s])),
    nexus,
    local: new Map(local.map((l) => [l.zip, { zip: l.zip, region: l.region, ratePpm: Number(l.rate_ppm) }])),
  };
}

/** A state's row as the form sends it back. */
export interface UsStateInput {
  code: string;
  rate: string;
  shippingTaxable: boolean;
  collect: boolean;
  /** The row's version when the form was shown. */
  version: number;
  /**
   * The row as the form showed it (`shownState`), or null: a row sent back as shown was not
   * touched, and is left alone even when someone else has changed it since.
   */
  shown: string | null;
}

/** The highest state rate accepted: no state's own rate is near it. */
const MAX_STATE_RATE_PPM = 150_000;
const RATE_HINT = `a rate from 0 to ${formatRate(MAX_STATE_RATE_PPM)}, like 7.25`;

export interface FieldProblem {
  code: string;
  message: string;
}

/** Thrown with every row's problem, so the form can show each beside its field. */
export class UsStatesInvalidError extends InvalidError {
  readonly problems: FieldProblem[];
  constructor(problems: FieldProblem[]) {
    super(
      "TAX_STATES_INVALID",
      `Check the ${problems.length === 1 ? "rate" : "rates"} marked below; nothing was saved.`,
    );
    this.problems = problems;
  }
}

/**
 * Saves the states whose rate, delivery rule or collection the form changed: all of them or none.
 * A row the form changed that someone else saved since the form was shown is refused, with
 * nothing saved; rows the form left as shown are not written, whatever happened to them since.
 */
export async function saveUsStates(
  db: Db,
  actor: StaffActor,
  inputs: readonly UsStateInput[],
  now = new Date(),
): Promise<{ changed: string[] }> {
  assertCan(actor, { tax: ["update"] });
  const problems: FieldProblem[] = [];
  const parsed = inputs.map((input) => {
    const ratePpm = parseRatePercent(input.rate);
    if (ratePpm === null || ratePpm > MAX_STATE_RATE_PPM)
      problems.push({ code: input.code, message: `Enter ${RATE_HINT}` });
    return { ...input, ratePpm: ratePpm ?? 0 };
  });
  if (new Set(inputs.map((i) => i.code)).size !== inputs.length)
    throw new InvalidError("TAX_STATES_INVALID", "A state appears twice in the form.");
  return db.transaction().execute(async (trx) => {
    const current = new Map((await listUsStates(trx)).map((s) => [s.code, s]));
    const unknown = inputs.find((i) => !current.has(i.code));
    if (unknown)
      throw new InvalidError("UNKNOWN_STATE", "The form names a state the tax table doesn't have. Reload the page.");
    if (problems.length) throw new UsStatesInvalidError(problems);
    const changed: string[] = [];
    for (const row of parsed) {
      const before = current.get(row.code)!;
      const next = { ratePpm: row.ratePpm, shippingTaxable: row.shippingTaxable, collect: row.collect };
      if (row.shown !== null && row.shown === shownState(next)) continue;
      const diff = diffFields(
        { ratePpm: before.ratePpm, shippingTaxable: before.shippingTaxable, collect: before.collect },
        next,
      );
      if (Object.keys(diff.after).length === 0) continue;
      const updated = await trx
        .updateTable("tax_us_states")
        .set({
          rate_ppm: row.ratePpm,
          shipping_taxable: row.shippingTaxable ? 1 : 0,
          collect: row.collect ? 1 : 0,
          version: before.version + 1,
          updated_at: now.toISOString(),
        })
        .where("code", "=", row.code)
        .where("version", "=", row.version)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1)
        throw new ConflictError(
          "TAX_STATES_STALE",
          `Someone else changed ${before.name} since you opened this page. Nothing was saved; the table below is as it is now.`,
        );
      await writeAudit(
        trx,
        actor,
        { action: "tax.state.update", objectType: "tax_us_state", objectId: row.code, ...diff },
        now,
      );
      changed.push(before.name);
    }
    return { changed };
  });
}

/** The most rows one import may hold (the US has about 42,000 ZIP codes). */
const MAX_LOCAL_RATE_ROWS = 50_000;
/** The highest combined local rate accepted. */
const MAX_LOCAL_RATE_PPM = 100_000;
const LOCAL_RATE_COLUMNS = ["zip", "state", "region", "rate"] as const;
const SHOWN_PROBLEMS = 20;

/** Thrown with the file's problems by line, so staff can mend the file. */
export class LocalRatesInvalidError extends InvalidError {
  readonly problems: { line: number; message: string }[];
  constructor(problems: { line: number; message: string }[], total: number) {
    super(
      "TAX_LOCAL_RATES_INVALID",
      `The file has ${total === 1 ? "a problem" : `${total} problems`}; nothing was imported.${total > problems.length ? ` The first ${problems.length} are listed.` : ""}`,
    );
    this.problems = problems;
  }
}

/**
 * Imports local rates by ZIP code from a CSV with the columns zip, state, region and rate (the
 * combined local rate in percent, e.g. 2.25): each ZIP code in the file gets its new rate, the
 * others keep theirs. Every row is checked first; one bad row imports nothing.
 */
export async function importLocalRates(
  db: Db,
  actor: StaffActor,
  csv: string,
  now = new Date(),
): Promise<{ imported: number }> {
  assertCan(actor, { tax: ["update"] });
  let records: string[][];
  try {
    const options = { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true };
    records = parse(csv, options);
  } catch {
    throw new LocalRatesInvalidError([{ line: 1, message: "The file isn't valid CSV." }], 1);
  }
  const [header, ...rows] = records;
  if (!header || header.map((h) => h.toLowerCase()).join(",") !== LOCAL_RATE_COLUMNS.join(","))
    throw new LocalRatesInvalidError(
      [{ line: 1, message: `The first line must be the header ${LOCAL_RATE_COLUMNS.join(",")}.` }],
      1,
    );
  if (rows.length === 0)
    throw new LocalRatesInvalidError([{ line: 2, message: "The file has no rates under its header." }], 1);
  if (rows.length > MAX_LOCAL_RATE_ROWS)
    throw new LocalRatesInvalidError(
      [{ line: MAX_LOCAL_RATE_ROWS + 2, message: `A file may hold at most ${MAX_LOCAL_RATE_ROWS} rates.` }],
      1,
    );

  const states = new Set((await listUsStates(db)).map((s) => s.code));
  const problems: { line: number; message: string }[] = [];
  const seen = new Set<string>();
  const values = rows.map((row, i) => {
    const line = i + 2;
    const [zip = "", state = "", region = "", rate = ""] = row;
    const ratePpm = parseRatePercent(rate);
    const problem =
      row.length !== LOCAL_RATE_COLUMNS.length
        ? `Expected ${LOCAL_RATE_COLUMNS.length} values, found ${row.length}.`
        : !/^\d{5}$/.test(zip)
          ? "The ZIP code must be 5 digits."
          : seen.has(zip)
            ? `ZIP code ${zip} appears twice.`
            : !states.has(state.toUpperCase())
              ? "The state must be a two-letter US state code, like CA."
              : region.length === 0 || region.length > 100 || CONTROL_IN_LINE.test(region)
                ? "The region must be a name of 1 to 100 characters."
                : ratePpm === null || ratePpm > MAX_LOCAL_RATE_PPM
                  ? `The rate must be a percent from 0 to ${formatRate(MAX_LOCAL_RATE_PPM)}, like 2.25.`
                  : null;
    if (problem) problems.push({ line, message: problem });
    seen.add(zip);
    return { zip, state: state.toUpperCase(), region, rate_ppm: ratePpm ?? 0, imported_at: now.toISOString() };
  });
  if (problems.length) throw new LocalRatesInvalidError(problems.slice(0, SHOWN_PROBLEMS), problems.length);

  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < values.length; i += 500)
      await trx
        .insertInto("tax_us_local_rates")
        .values(values.slice(i, i + 500))
        .onConflict((oc) =>
          oc.column("zip").doUpdateSet((eb) => ({
            state: eb.ref("excluded.state"),
            region: eb.ref("excluded.region"),
            rate_ppm: eb.ref("excluded.rate_ppm"),
            imported_at: eb.ref("excluded.imported_at"),
          })),
        )
        .execute();
    await writeAudit(
      trx,
      actor,
      {
        action: "tax.local-rates.import",
        objectType: "tax_us_local_rates",
        objectId: "us",
        after: { rows: values.length },
      },
      now,
    );
  });
  return { imported: values.length };
}

export interface LocalRatesSummary {
  count: number;
  lastImportedAt: string | null;
}

export async function localRatesSummary(db: Db): Promise<LocalRatesSummary> {
  const row = await db
    .selectFrom("tax_us_local_rates")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.max("imported_at").as("last")])
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), lastImportedAt: row.last ?? null };
}
