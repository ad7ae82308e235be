import pg from "pg";

/**
 * A pg client that runs the store's parameterized statements, and its SELECTs without parameters,
 * as named prepared statements, so PostgreSQL parses and analyses each statement text once per
 * connection instead of on every call, and, under its default plan_cache_mode, plans a statement
 * once its generic plan proves as good as planning for each call's values. For order placement
 * that halves PostgreSQL's CPU per statement. The catalog version, read for nearly every page,
 * took 0.19 ms to plan and 0.04 ms to run as a simple query.
 *
 * Left unnamed, so planned anew for each call's values as before: statements on the search
 * tables, whose best plan depends on how common a word or a facet is (generic plans made the
 * search two to four times slower); other statements without parameters (BEGIN, COMMIT, DDL …); `SELECT *`
 * and `RETURNING *` (a migration that adds a column would change a cached statement's result type
 * under a running process: PostgreSQL refuses to run it then); and anything past
 * MAX_PER_CONNECTION distinct statements on one connection (IN lists of every length would
 * otherwise pile up). PG_PREPARED_STATEMENTS=off turns it off, for a pooler in transaction mode
 * that does not carry prepared statements. Figures: docs/benchmarks.md, issue 15.
 */
const MAX_PER_CONNECTION = 300;
const MAX_NAMES = 5000;
/** `select *`, `select "t".*`, `, "t".*` or `returning *`: a result shape that follows the table's columns. */
const ALL_COLUMNS = /(?:\bselect\s+(?:distinct\s+)?|,\s*|\breturning\s+)(?:"?\w+"?\.)?\*/i;
/** The search's tables and text-search configuration: plans that depend on the words asked for. */
const PLANNED_PER_CALL = /\bsearch_(?:products|terms|term_trigrams|words)\b|@@/i;

/** A statement that only reads: worth preparing even without parameters. */
const SELECT = /^\s*select\s/i;

/** Each statement text's name, or null for a text that stays unnamed: decided once per text. */
const names = new Map<string, string | null>();
let lastName = 0;

function nameFor(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = staysUnnamed(text) ? null : `s${(++lastName).toString(36)}`;
    names.set(text, name);
  }
  return name;
}

function staysUnnamed(text: string): boolean {
  return ALL_COLUMNS.test(text) || PLANNED_PER_CALL.test(text);
}

function hasValues(values: unknown): values is unknown[] {
  return Array.isArray(values) && values.length > 0;
}

/** The name a statement runs under, or null when it runs unnamed. */
function statementName(text: string, values: unknown): string | null {
  return hasValues(values) || SELECT.test(text) ? nameFor(text) : null;
}

export function worthPreparing(text: string, values: unknown): boolean {
  return statementName(text, values) !== null;
}

export class PreparingClient extends pg.Client {
  #prepared = 0;

  // pg's query() has many overloads; this one only looks at (text, values) without a callback.
  /* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- the override must accept every overload pg declares */
  override query(...args: any[]): any {
    const [text, values, callback] = args;
    const name = typeof text === "string" && callback === undefined ? statementName(text, values) : null;
    if (name) {
      const parsed = (this as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection
        ?.parsedStatements;
      const known = parsed?.[name] === text;
      if (known || this.#prepared < MAX_PER_CONNECTION) {
        if (!known) this.#prepared++;
        return super.query({ name, text, values });
      }
    }
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
  /* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument */
}
