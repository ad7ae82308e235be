import { CompiledQuery, type Compilable } from "kysely";
import type { Db } from "./connection.ts";

/**
 * A query of one value that Kysely builds and compiles once per database handle; every later call
 * only binds its value to the same SQL. For the reads of an uncached product page, where building
 * and compiling a query cost Kysely about as long as SQLite takes to run it. The SQL must not
 * depend on the value (no branches on it): only the first call's SQL is kept.
 */
export function compiledOnce<Value, Row>(build: (db: Db, value: Value) => Compilable<Row>): (db: Db, value: Value) => Promise<Row[]> {
  const texts = new WeakMap<Db, string>();
  return async (db, value) => {
    let text = texts.get(db);
    if (text === undefined) {
      const compiled = build(db, value).compile();
      if (compiled.parameters.length !== 1 || !Object.is(compiled.parameters[0], value)) {
        throw new Error(`compiledOnce needs a query whose only parameter is its value: ${compiled.sql}`);
      }
      text = compiled.sql;
      texts.set(db, text);
    }
    const result = await db.executeQuery(CompiledQuery.raw(text, [value]) as CompiledQuery<Row>);
    return result.rows;
  };
}
