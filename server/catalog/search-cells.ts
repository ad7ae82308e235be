import { sql } from "kysely";
import { dbKind, type Db } from "../db/connection.ts";
import { sharedFreshRead } from "../db/shared-read.ts";

/**
 * Each process's map from product id to its facet cell (category and brand), for the
 * products on sale (decision 0023). A broad word matches tens of thousands of products; counting
 * them per (category, brand) in SQL looks every match up in search_products and sorts them all
 * (55 ms for "drill" at 1,000,000 products). Here FTS5 gives the matching ids as one string and
 * the counting is an array look-up per id (8–9 ms for the whole search). PostgreSQL's lists of
 * products per word (search-postings.ts) are counted through the same map.
 *
 * The map is as current as the database: each use reads `search_cells_version`, which triggers move
 * whenever a product joins or leaves search_products or changes category or brand (migrations 023, 024),
 * in any process. A changed version reloads the map, once, for the next search.
 */

/** Product ids above this would make the map too large for a process: such catalogs count in SQL. */
const MAX_PRODUCT_ID = 20_000_000;

export interface CellMap {
  version: number;
  /** By product id: 0 for a product not on sale (or no product), else 1 + its cell's index in `cells`. */
  cellOf: Int32Array;
  cells: { category_id: number; brand_id: number }[];
}

const maps = new WeakMap<Db, { version: number; map: Promise<CellMap | null> }>();

interface SearchVersions {
  /** What the map of cells was built at. */
  cells: number;
  /** PostgreSQL: what the lists of products per word were read at (migration 025); null on SQLite. */
  words: number | null;
}

/** Searches at the same time share this read, as they share the catalog version's (shared-read.ts). */
const searchVersions = /* @__PURE__ */ sharedFreshRead(async (db: Db): Promise<SearchVersions | null> => {
  try {
    const row = (
      await (
        dbKind(db) === "postgres"
          ? sql<{
              version: number;
              words_version: number;
            }>`SELECT version, words_version FROM search_cells_version WHERE id = 1`
          : sql<{
              version: number;
              words_version: null;
            }>`SELECT version, NULL AS words_version FROM search_cells_version WHERE id = 1`
      ).execute(db)
    ).rows[0];
    return row
      ? { cells: Number(row.version), words: row.words_version == null ? null : Number(row.words_version) }
      : null;
  } catch {
    return null; // before migration 023 (SQLite), 025 (PostgreSQL)
  }
});

/** Every product on sale, as three JSON arrays in the same order (PostgreSQL's `json_agg` of none is null). */
interface ListedCells {
  top: number | null;
  ids: string | null;
  categories: string | null;
  brands: string | null;
}

async function loadCellMap(db: Db, version: number): Promise<CellMap | null> {
  const { rows } = await (
    dbKind(db) === "postgres"
      ? sql<ListedCells>`
        SELECT max(product_id) AS top, json_agg(product_id)::text AS ids,
               json_agg(category_id)::text AS categories, json_agg(brand_id)::text AS brands
        FROM search_products`
      : sql<ListedCells>`
        SELECT max(product_id) AS top, json_group_array(product_id) AS ids,
               json_group_array(category_id) AS categories, json_group_array(brand_id) AS brands
        FROM search_products`
  ).execute(db);
  const row = rows[0];
  const top = Number(row?.top ?? 0);
  if (!row || top > MAX_PRODUCT_ID) return null;
  const ids = JSON.parse(row.ids ?? "[]") as number[];
  const categories = JSON.parse(row.categories ?? "[]") as number[];
  const brands = JSON.parse(row.brands ?? "[]") as number[];
  const cellOf = new Int32Array(top + 1);
  const cells: CellMap["cells"] = [];
  const index = new Map<number, Map<number, number>>();
  for (let i = 0; i < ids.length; i++) {
    const category = categories[i];
    const brand = brands[i];
    let byBrand = index.get(category);
    if (!byBrand) index.set(category, (byBrand = new Map<number, number>()));
    let cell = byBrand.get(brand);
    if (cell === undefined) {
      cells.push({ category_id: category, brand_id: brand });
      byBrand.set(brand, (cell = cells.length));
    }
    cellOf[ids[i]] = cell;
  }
  return { version, cellOf, cells };
}

/** The map as of the database's current version, or null when this database counts in SQL. */
export async function currentCellMap(db: Db): Promise<CellMap | null> {
  return (await currentSearchIndex(db)).map;
}

/**
 * The map, and the version of the lists of products per word read in the same round trip (null on
 * SQLite).
 */
export async function currentSearchIndex(db: Db): Promise<{ map: CellMap | null; wordsVersion: number | null }> {
  if (db.isTransaction) return { map: null, wordsVersion: null };
  const versions = await searchVersions(db);
  if (versions == null) return { map: null, wordsVersion: null };
  const held = maps.get(db);
  if (held?.version === versions.cells) return { map: await held.map, wordsVersion: versions.words };
  const map = loadCellMap(db, versions.cells);
  maps.set(db, { version: versions.cells, map });
  map.catch(() => maps.delete(db));
  return { map: await map, wordsVersion: versions.words };
}

/** Drops this process's map (tests). */
export function forgetCellMap(db: Db): void {
  maps.delete(db);
}

export interface Cell {
  category_id: number;
  brand_id: number;
  n: number;
}

/**
 * Counts per (category, brand) of the products on sale among `ids`: FTS5 rowids (archived products
 * included) as SQLite's `group_concat` writes them, "12,40,41". Read digit by digit, without an
 * array of 60,000 numbers or strings in between.
 */
export function countCells(map: CellMap, ids: string): Cell[] {
  const { cellOf, cells } = map;
  const counts = new Int32Array(cells.length + 1);
  let id = 0;
  for (let i = 0; i <= ids.length; i++) {
    const code = i < ids.length ? ids.charCodeAt(i) : 44;
    if (code >= 48 && code <= 57) id = id * 10 + (code - 48);
    else {
      // A product not on sale counts in slot 0; one newer than the map is left out (the next search reloads it).
      if (id < cellOf.length) counts[cellOf[id]]++;
      id = 0;
    }
  }
  return cells.flatMap((cell, i) => (counts[i + 1] ? [{ ...cell, n: counts[i + 1] }] : []));
}
