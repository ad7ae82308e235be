import type { Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import { dbKind, type Db, type DbKind } from "./connection.ts";
import * as catalog from "./migrations/001_catalog.ts";

type DialectMigration = { up(db: Kysely<any>, kind: DbKind): Promise<void> };

/** Ordered list: append new migrations, never reorder or edit shipped ones. */
const migrations: Record<string, DialectMigration> = {
  "001_catalog": catalog,
};

function staticProvider(kind: DbKind): MigrationProvider {
  return {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, m] of Object.entries(migrations)) out[name] = { up: (db) => m.up(db, kind) };
      return out;
    },
  };
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: staticProvider(dbKind(db)) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}
