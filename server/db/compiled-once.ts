import { CompiledQuery, type Compilable } from "kysely";
import type { Db } from "./connection.ts";

/**
 * A query of one value that Kysely builds and compiles once per database (its transactions
 * included); every later call only binds its value to the same SQL. For the reads of an uncached
 * product page and the statements of an order, where building and compiling a query cost Kysely
 * about as long as SQLite takes to run it. The SQL must not depend on the value (no branches on
 * it): only the first call's SQL is kept.
 */
export function compiledOnce<Value, Row>(
  build: (db: Db, value: Value) => Compilable<Row>,
): (db: Db, value: Value) => Promise<Row[]> {
  // Keyed by the database's adapter, which its transactions share: each transaction is a new handle.
  // A handle made with withSchema() or withPlugin() shares its base's adapter too, and would get the
  // base's SQL: the store makes none (createDb sets PostgreSQL's schema on the pool's connections).
  const texts = new WeakMap<object, string>();
  return async (db, value) => {
    const key = db.getExecutor().adapter;
    let text = texts.get(key);
    if (text === undefined) {
      const compiled = build(db, value).compile();
      if (compiled.parameters.length !== 1 || !Object.is(compiled.parameters[0], value)) {
        throw new Error(`compiledOnce needs a query whose only parameter is its value: ${compiled.sql}`);
      }
      text = compiled.sql;
      texts.set(key, text);
    }
    const result = await db.executeQuery<Row>(CompiledQuery.raw(text, [value]));
    return result.rows;
  };
}

/**
 * A statement of several values, compiled once per database from a build with placeholder values;
 * every later call binds `values`, in the order the compiled SQL lists its parameters (the order of
 * the placeholders' columns). For inserts on the order path; its SQL must not depend on the values.
 */
export function compiledStatement(
  build: (db: Db) => Compilable<unknown>,
): (db: Db, values: unknown[]) => Promise<void> {
  const texts = new WeakMap<object, { sql: string; count: number }>();
  return async (db, values) => {
    const key = db.getExecutor().adapter;
    let text = texts.get(key);
    if (text === undefined) {
      const compiled = build(db).compile();
      text = { sql: compiled.sql, count: compiled.parameters.length };
      texts.set(key, text);
    }
    if (values.length !== text.count)
      throw new Error(`compiledStatement: ${text.count} values expected, got ${values.length}: ${text.sql}`);
    await db.executeQuery(CompiledQuery.raw(text.sql, values));
  };
}
