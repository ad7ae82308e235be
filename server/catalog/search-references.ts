import type { Db } from "../db/connection.ts";
import { ensureSearchSchema } from "./search-schema.ts";

// What both search and suggestions need before they start: categories and brands with their ids,
// in display order (read at most once a minute per process), and the search tables.
const REF_TTL_MS = 60_000;

export interface RefOption {
  id: number;
  name: string;
  slug: string;
}
export interface References {
  categories: RefOption[];
  brands: RefOption[];
}

const refCache = new WeakMap<Db, { at: number; value: Promise<References> }>();

export function references(db: Db): Promise<References> {
  const hit = refCache.get(db);
  if (hit && Date.now() - hit.at < REF_TTL_MS) return hit.value;
  const value = Promise.all([
    db.selectFrom("categories").select(["id", "name", "slug"]).orderBy("position").orderBy("id").execute(),
    db.selectFrom("brands").select(["id", "name", "slug"]).orderBy("position").orderBy("id").execute(),
  ]).then(([categories, brands]) => ({
    categories: categories.map((c) => ({ ...c, id: Number(c.id) })),
    brands: brands.map((b) => ({ ...b, id: Number(b.id) })),
  }));
  value.catch(() => refCache.delete(db));
  refCache.set(db, { at: Date.now(), value });
  return value;
}

/** Drops this process's cached reference data (tests and benchmarks, through clearSearchCaches). */
export function forgetReferences(db: Db): void {
  refCache.delete(db);
}

const checked = new WeakSet<Db>();

/** Makes sure the search tables exist (search-schema.ts), once per database handle, before its first search. */
export async function ensureSearchTables(db: Db): Promise<void> {
  if (checked.has(db)) return;
  await ensureSearchSchema(db);
  checked.add(db);
}
