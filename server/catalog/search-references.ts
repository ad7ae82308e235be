import type { Db } from "../db/connection.ts";

/**
 * Categories and brands with their ids, in display order: the shop's facet lists, the search's
 * filters and the suggestions all read them here.
 *
 * Nothing in the running store writes them: only the seed does, into empty tables (a separate
 * process, usually before the first start, possibly beside a running one). So an answer is kept
 * for a minute per process, which also bounds how long a change made outside the store (an
 * operator's SQL) takes to show; and an empty answer — the catalog not seeded yet — is not kept,
 * so the lists appear with the first request after the seed.
 */
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
  const entry = { at: Date.now(), value };
  const forget = () => {
    if (refCache.get(db) === entry) refCache.delete(db);
  };
  value.then((refs) => (refs.categories.length === 0 || refs.brands.length === 0 ? forget() : undefined), forget);
  refCache.set(db, entry);
  return value;
}

/** Drops this process's cached reference data (tests and benchmarks, through clearSearchCaches). */
export function forgetReferences(db: Db): void {
  refCache.delete(db);
}
