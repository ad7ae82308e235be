import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchProducts } from "../../server/catalog/search.ts";
import { up as repairSearchSchema } from "../../server/db/migrations/028_search_schema_repair.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import type { Db, DbKind } from "../../server/db/connection.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

/** Undo migration 004's work, as in a database that applied it while it was an empty placeholder. */
async function dropSearchObjects(db: Db, kind: string) {
  const statements =
    kind === "sqlite"
      ? [
          "DROP TRIGGER products_search_insert",
          "DROP TRIGGER products_search_delete",
          "DROP TRIGGER products_search_update_text",
          "DROP TRIGGER products_search_update_facts",
          "DROP TRIGGER brands_search_rename",
          "DROP TRIGGER categories_search_rename",
          "DROP TABLE products_fts",
          "DROP VIEW products_search_source",
          "DROP TABLE search_products",
          "DROP TABLE search_terms",
          "DROP TABLE search_term_trigrams",
        ]
      : [
          "DROP TRIGGER products_search_insert ON products",
          "DROP TRIGGER products_search_update ON products",
          "DROP TRIGGER brands_search_rename ON brands",
          "DROP TRIGGER categories_search_rename ON categories",
          "DROP TABLE search_products, search_terms",
          "DROP FUNCTION search_products_after_insert(), search_products_after_update(), search_products_after_rename()",
          "DROP FUNCTION search_document(text, text, text, text), search_head(text, text, text), search_fold(text)",
          "DROP TEXT SEARCH CONFIGURATION search_words",
        ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** An earlier shape of migration 004's work (before the facet index / the `head` vector). */
async function outdateSearchObjects(db: Db, kind: string) {
  if (kind === "sqlite") await sql`DROP INDEX search_products_facets_idx`.execute(db);
  else await sql`ALTER TABLE search_products DROP COLUMN head`.execute(db);
}

/** A database migrated up to 021, before the match index of migration 022 (SQLite only). */
async function dropMatchIndex(db: Db) {
  await sql`DROP INDEX search_products_match_idx`.execute(db);
}

/**
 * The store upgraded to the code with migration 028 (the search schema's repair): it runs now.
 * Its own `up`, not the migrator: later migrations are already recorded as applied.
 */
async function upgradeToRepair(db: Db, kind: DbKind) {
  await repairSearchSchema(db, kind);
}

const QUERIES = [{ q: "drill" }, { q: "hamer" }, { q: "saw", categories: ["hand"] }, {}];
// Without tables: damaged before the seed, repaired by the migration before the seed runs.
// Earlier shape: damaged after the seed (its triggers would not fit an earlier table), so the
// migration finds products to index.
const CASES = dialects.flatMap((kind) => [
  { kind, state: "without its tables", damage: dropSearchObjects, afterSeed: false },
  { kind, state: "with an earlier shape of them", damage: outdateSearchObjects, afterSeed: true },
  ...(kind === "sqlite"
    ? [{ kind, state: "but not migration 022's match index", damage: dropMatchIndex, afterSeed: true }]
    : []),
]);

describe.each(CASES)("a database that recorded migration 004 $state, on $kind", ({ kind, damage, afterSeed }) => {
  let expected: unknown[];
  let broken: TestDb;

  beforeAll(async () => {
    // One database at a time: Kysely's migrator looks for its own tables in every PostgreSQL schema.
    const healthy = await freshDb(kind);
    try {
      await seedCatalog(healthy.db, { products: 300 });
      expected = [];
      for (const query of QUERIES) expected.push(await searchProducts(healthy.db, query));
    } finally {
      await healthy.drop();
    }
    broken = await freshDb(kind);
    if (!afterSeed) {
      await damage(broken.db, kind);
      await upgradeToRepair(broken.db, kind);
    }
    await seedCatalog(broken.db, { products: 300 });
    if (afterSeed) {
      await damage(broken.db, kind);
      await upgradeToRepair(broken.db, kind);
    }
  }, 120_000);
  afterAll(async () => {
    await broken?.drop();
  });

  it("gets the current search tables, indexes its products, and then searches like any other", async () => {
    const actual = [];
    for (const query of QUERIES) actual.push(await searchProducts(broken.db, query));
    expect(actual).toEqual(expected);
    expect((await searchProducts(broken.db, { q: "drill" })).total).toBeGreaterThan(0);
  });
});
