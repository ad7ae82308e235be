import type { Db } from "../db/connection.ts";
import type { Suggestions } from "./search-types.ts";
import { readCatalogVersion } from "./version.ts";

/** Suggestions are reused for at most this long (the reply already lets a browser keep them 60 s). */
export const SUGGESTION_CACHE_MS = 30_000;
/** Distinct queries held per process (about 2 KB each). */
export const SUGGESTION_CACHE_ENTRIES = 5_000;

interface Entry {
  version: number;
  storedAt: number;
  value: Promise<Suggestions>;
}

const caches = new WeakMap<Db, Map<string, Entry>>();

/**
 * Suggestions for `key` from this process's cache, or from `compute`. An entry holds only while
 * the catalog version is the one it was computed at: every change to a title, price, stock or
 * image bumps the version in its own transaction, so no one is shown a suggestion the catalog no
 * longer supports. People typing ask for the same few thousand prefixes over and over.
 */
export async function cachedSuggestions(
  db: Db,
  key: string,
  compute: () => Promise<Suggestions>,
): Promise<Suggestions> {
  let version: number;
  try {
    version = await readCatalogVersion(db);
  } catch {
    return compute();
  }
  let entries = caches.get(db);
  if (!entries) caches.set(db, (entries = new Map<string, Entry>()));
  const hit = entries.get(key);
  if (hit && hit.version === version && Date.now() - hit.storedAt < SUGGESTION_CACHE_MS) return hit.value;
  if (hit) entries.delete(key);
  else if (entries.size >= SUGGESTION_CACHE_ENTRIES) entries.delete(entries.keys().next().value as string);
  const value = compute();
  entries.set(key, { version, storedAt: Date.now(), value });
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}

/** Drops this process's cached suggestions (tests and benchmarks). */
export function clearSuggestionCache(db: Db): void {
  caches.delete(db);
}
