import type { MarketId } from "../../app/lib/markets.ts";
import { marketListPrice, marketSalePrice } from "./market-columns.ts";
import { sql, type RawBuilder } from "kysely";
import type { SortKey } from "../../app/lib/catalog-types.ts";
import { PRODUCTS_PER_PAGE } from "../../app/lib/site.ts";
import { dbKind, type Db, type DbKind } from "../db/connection.ts";
import { cleanQueryText } from "../../app/lib/shop-query.ts";
import { highlight, porterStem, queryTerms, snippet, words } from "./search-text.ts";
import type { FacetCount, SearchHit, SearchQuery, SearchResult } from "./search-types.ts";
import { forgetReferences, references, type RefOption, type References } from "./search-references.ts";
import { coverKeyOfProduct, uploadedImageUrl } from "./product-images.ts";
import { toSummary } from "./summary.ts";
import { correctedQuery, resolveTerms, type ResolvedTerm } from "./search-vocabulary.ts";
import { clearSuggestionCache } from "./suggestion-cache.ts";
import { ftsQuery, matchSource, selectList, titleMatchSource } from "./search-match.ts";
import { readCatalogVersion } from "./version.ts";
import { countCells, currentCellMap, forgetCellMap, type Cell } from "./search-cells.ts";
import { forgetKeptLists, postingsPage } from "./search-postings.ts";
import { productsWithBrandAndCategory } from "./product-rows.ts";

export type { SearchQuery, SearchResult } from "./search-types.ts";

/**
 * Product search over both databases (docs/decisions/0003-search.md).
 *
 * A query is cut into words; each word becomes a set of alternatives (itself, plus prefix
 * completions or one-edit corrections from the vocabulary when the catalog does not know it).
 * A product matches when every word matches one of its alternatives in the title, brand,
 * category or description (stemmed by Porter on both databases). Relevance adds, per word,
 * 4 for a title match, 2 for brand or category, 1 for description only; ties go to the lower id
 * (the match and the score are built in search-match.ts).
 *
 * One statement finds the matches (FTS5 or a tsvector GIN index) into a materialized set, counts
 * them per (category, brand) under the price and availability filters — which gives every facet
 * count and the total — and picks the requested page from the same set.
 */

const MAX_PER_PAGE = 60;
/** Integer columns hold at most this; bigger bounds would make PostgreSQL fail. */
const MAX_CENTS = 2_147_483_647;
const MAX_PAGE = 1_000_000;
const CELLS_TTL_MS = 30_000;

// Counts per (category, brand) for browsing without a query, under no price/availability filter:
// the most common /shop request. Short-lived, per process.
// Also dropped when the catalog version moves (a product archived or recategorised in any process).
const cellsCache = new WeakMap<Db, { at: number; version: number; value: Promise<Cell[]> }>();

/** Drops this process's cached counts and reference data (tests and benchmarks). */
export function clearSearchCaches(db: Db): void {
  clearSuggestionCache(db);
  forgetCellMap(db);
  forgetReferences(db);
  forgetKeptLists(db);
  cellsCache.delete(db);
}

/** Columns of search_products a statement needs, given its filters and sort (fewer columns, less work per match). */
function columnsFor(f: Filters, sort: SortKey): string[] {
  const cols = ["product_id", "category_id", "brand_id"];
  if (f.minCents != null || f.maxCents != null || sort === "price-asc" || sort === "price-desc")
    cols.push("sale_price_cents");
  if (f.onSaleOnly || sort === "discount") cols.push("discount_percent");
  if (f.inStockOnly) cols.push("stock_quantity");
  if (sort === "newest") cols.push("created_at");
  if (sort === "name") cols.push("title");
  return cols;
}

/** Every product, same columns. */
function allSource(columns: string[], market: MarketId): RawBuilder<unknown> {
  return sql`SELECT ${selectList(columns, market)}, 0 AS score FROM search_products s`;
}

// ---------------------------------------------------------------------------------------------
// Filters and sorting (on the columns of a source).

interface Filters {
  categoryIds: number[];
  brandIds: number[];
  minCents?: number;
  maxCents?: number;
  inStockOnly: boolean;
  onSaleOnly: boolean;
}

/** Filters that apply to every facet: price and availability. */
function commonConditions(f: Filters): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  if (f.minCents != null) out.push(sql`sale_price_cents >= ${f.minCents}`);
  if (f.maxCents != null) out.push(sql`sale_price_cents <= ${f.maxCents}`);
  if (f.inStockOnly) out.push(sql`stock_quantity > 0`);
  if (f.onSaleOnly) out.push(sql`discount_percent IS NOT NULL`);
  return out;
}

function groupConditions(f: Filters): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  if (f.categoryIds.length) out.push(sql`category_id IN (${sql.join(f.categoryIds)})`);
  if (f.brandIds.length) out.push(sql`brand_id IN (${sql.join(f.brandIds)})`);
  return out;
}

function where(conditions: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
}

function orderBy(sort: SortKey, kind: DbKind): RawBuilder<unknown> {
  switch (sort) {
    case "relevance":
      return sql`score DESC, id ASC`;
    case "price-asc":
      return sql`sale_price_cents ASC, id ASC`;
    case "price-desc":
      return sql`sale_price_cents DESC, id ASC`;
    case "discount":
      return sql`COALESCE(discount_percent, 0) DESC, id ASC`;
    case "name":
      return kind === "postgres" ? sql`title COLLATE "C" ASC, id ASC` : sql`title ASC, id ASC`;
    default:
      return sql`created_at DESC, id ASC`;
  }
}

// ---------------------------------------------------------------------------------------------

function toInt(value: number | undefined, min: number, max: number): number | undefined {
  if (value == null || !Number.isFinite(value)) return undefined;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

function facetCounts(refs: References, cells: Cell[], f: Filters) {
  const byCategory = new Map<number, number>();
  const byBrand = new Map<number, number>();
  let total = 0;
  const catOk = (id: number) => f.categoryIds.length === 0 || f.categoryIds.includes(id);
  const brandOk = (id: number) => f.brandIds.length === 0 || f.brandIds.includes(id);
  for (const c of cells) {
    const category = Number(c.category_id);
    const brand = Number(c.brand_id);
    const n = Number(c.n);
    if (brandOk(brand)) byCategory.set(category, (byCategory.get(category) ?? 0) + n);
    if (catOk(category)) byBrand.set(brand, (byBrand.get(brand) ?? 0) + n);
    if (brandOk(brand) && catOk(category)) total += n;
  }
  const facets = {
    categories: refs.categories.map((o): FacetCount => ({
      name: o.name,
      slug: o.slug,
      count: byCategory.get(o.id) ?? 0,
    })),
    brands: refs.brands.map((o): FacetCount => ({ name: o.name, slug: o.slug, count: byBrand.get(o.id) ?? 0 })),
  };
  return { facets, total };
}

/** Counts per (category, brand) of the products a source matches, under the price/availability filters. */
async function matchCells(db: Db, source: RawBuilder<unknown>, f: Filters): Promise<Cell[]> {
  const { rows } = await sql<Cell>`
    SELECT category_id, brand_id, count(*) AS n FROM (${source}) m ${where(commonConditions(f))} GROUP BY category_id, brand_id`.execute(
    db,
  );
  return rows;
}

/**
 * SQLite without a price or availability filter: the counts from the ids FTS5 matches and this
 * process's map of products to cells (decision 0023). Null when the map can't be used.
 */
async function cellsFromMap(db: Db, terms: ResolvedTerm[], f: Filters): Promise<Cell[] | null> {
  if (commonConditions(f).length) return null;
  const map = await currentCellMap(db);
  if (!map) return null;
  const { rows } = await sql<{ ids: string | null }>`
    SELECT group_concat(rowid) AS ids FROM products_fts WHERE products_fts MATCH ${ftsQuery(terms)}`.execute(db);
  return countCells(map, rows[0]?.ids ?? "");
}

async function browseCells(db: Db, f: Filters, market: MarketId): Promise<Cell[]> {
  const common = commonConditions(f);
  // Another market's price filter reads each product's price in that market.
  if (market !== "us" && (f.minCents != null || f.maxCents != null))
    return matchCells(db, allSource(columnsFor(f, "newest"), market), f);
  const run = () =>
    sql<Cell>`
      SELECT category_id, brand_id, count(*) AS n
      FROM search_products ${dbKind(db) === "sqlite" ? sql`INDEXED BY search_products_facets_idx` : sql``}
      ${where(common)} GROUP BY category_id, brand_id`
      .execute(db)
      .then((r) => r.rows);
  if (common.length) return run();
  const version = await readCatalogVersion(db).catch(() => -1);
  const hit = cellsCache.get(db);
  if (hit && hit.version === version && Date.now() - hit.at < CELLS_TTL_MS) return hit.value;
  const value = run();
  value.catch(() => cellsCache.delete(db));
  cellsCache.set(db, { at: Date.now(), version, value });
  return value;
}

/** Searches (or, with no words, browses) the catalog: one page of products, the total and the facet counts. */
export async function searchProducts(db: Db, query: SearchQuery = {}): Promise<SearchResult> {
  const kind = dbKind(db);
  const market = query.market ?? "us";
  const refs = await references(db);
  const q = cleanQueryText(query.q);
  const terms = queryTerms(q);
  const perPage = toInt(query.perPage, 1, MAX_PER_PAGE) ?? PRODUCTS_PER_PAGE;
  const requestedPage = toInt(query.page, 1, MAX_PAGE) ?? 1;
  const pick = (options: RefOption[], slugs: string[] | undefined) =>
    options.filter((o) => slugs?.includes(o.slug)).map((o) => o.id);
  let minCents = toInt(query.minCents, 0, MAX_CENTS);
  let maxCents = toInt(query.maxCents, 0, MAX_CENTS);
  if (minCents != null && maxCents != null && minCents > maxCents) [minCents, maxCents] = [maxCents, minCents];
  const filters: Filters = {
    categoryIds: pick(refs.categories, query.categories),
    brandIds: pick(refs.brands, query.brands),
    minCents,
    maxCents,
    inStockOnly: Boolean(query.inStockOnly),
    onSaleOnly: Boolean(query.onSaleOnly),
  };
  const sort: SortKey =
    query.sort === "relevance" && terms.length === 0
      ? "newest"
      : (query.sort ?? (terms.length ? "relevance" : "newest"));
  const empty = (): SearchResult => ({
    q,
    terms,
    items: [],
    total: 0,
    page: 1,
    pageCount: 1,
    perPage,
    sort,
    facets: facetCounts(refs, [], filters).facets,
    didYouMean: null,
    adjusted: [],
  });

  // Text that has no searchable word at all ("***", "the") matches nothing.
  if (q && terms.length === 0) return empty();

  const resolved = terms.length ? await resolveTerms(db, terms) : [];
  // A word with nothing that can match it (it stems like a stop word, and nothing completes it).
  if (resolved.some((t) => t.alternatives.length === 0)) return { ...empty(), didYouMean: correctedQuery(resolved) };
  const page = async (source: RawBuilder<unknown>, materialize: boolean, pageNumber: number, cellsToo: boolean) => {
    const order = orderBy(sort, kind);
    const common = commonConditions(filters);
    const all = [...common, ...groupConditions(filters)];
    const offset = (pageNumber - 1) * perPage;
    const m = materialize ? sql`m AS MATERIALIZED (${source})` : sql`m AS (${source})`;
    if (cellsToo) {
      // Part 0: counts per (category, brand) under the price/availability filters. Part 1: the page,
      // numbered after the limit: numbered before it, every match was sorted (on disk, past work_mem,
      // at 1,000,000 products) rather than the page picked by a top-N sort.
      const { rows } = await sql<{ part: number; a: number; b: number; n: number }>`
        WITH ${m}
        SELECT 0 AS part, category_id AS a, brand_id AS b, count(*) AS n FROM m ${where(common)} GROUP BY category_id, brand_id
        UNION ALL
        SELECT 1 AS part, id AS a, row_number() OVER (ORDER BY ${order}) AS b, 0 AS n FROM (
          SELECT * FROM m ${where(all)} ORDER BY ${order} LIMIT ${perPage} OFFSET ${offset}
        ) page`.execute(db);
      const cells = rows.filter((r) => Number(r.part) === 0).map((r) => ({ category_id: r.a, brand_id: r.b, n: r.n }));
      const ids = rows
        .filter((r) => Number(r.part) === 1)
        .sort((x, y) => Number(x.b) - Number(y.b))
        .map((r) => Number(r.a));
      return { cells, ids };
    }
    const { rows } = await sql<{ id: number }>`
      WITH ${m} SELECT id FROM m ${where(all)} ORDER BY ${order} LIMIT ${perPage} OFFSET ${offset}`.execute(db);
    return { cells: null, ids: rows.map((r) => Number(r.id)) };
  };

  let cells: Cell[];
  let ids: number[];
  let source: RawBuilder<unknown>;
  let materialize: boolean;
  const columns = columnsFor(filters, sort);
  if (resolved.length) {
    source = matchSource(kind, resolved, columns, sort === "relevance" ? refs : null, market);
    materialize = true;
    if (sort === "relevance" && kind === "sqlite") {
      // The facet counts need no score. The page does, unless every product on it has every word
      // in the title: the highest score, so they come first, by id (decision 0022). (PostgreSQL
      // spends its time on the match, which a second statement would repeat: one statement there.)
      cells =
        (await cellsFromMap(db, resolved, filters)) ??
        (await matchCells(db, matchSource(kind, resolved, columns, null, market), filters));
      const total = facetCounts(refs, cells, filters).total;
      const offset = (requestedPage - 1) * perPage;
      const { rows } = await sql<{ id: number }>`
        SELECT id FROM (${titleMatchSource(resolved, market)}) m ${where([...commonConditions(filters), ...groupConditions(filters)])}
        ORDER BY id LIMIT ${perPage} OFFSET ${offset}`.execute(db);
      ids = rows.map((r) => Number(r.id));
      if (offset < total && ids.length < Math.min(perPage, total - offset))
        ids = (await page(source, true, requestedPage, false)).ids;
    } else {
      // PostgreSQL: from the lists of products per word when it can (decision 0024), else in SQL.
      const listed =
        sort === "relevance" && commonConditions(filters).length === 0
          ? await postingsPage(db, resolved, refs, filters, (requestedPage - 1) * perPage, perPage)
          : null;
      const first = listed ?? (await page(source, true, requestedPage, true));
      cells = first.cells ?? [];
      ids = first.ids;
    }
  } else {
    source = allSource(columns, market);
    materialize = false;
    [cells, { ids }] = await Promise.all([browseCells(db, filters, market), page(source, false, requestedPage, false)]);
  }

  const { facets, total } = facetCounts(refs, cells, filters);
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  let pageNumber = requestedPage;
  if (requestedPage > pageCount) {
    pageNumber = pageCount;
    ids = total > 0 ? (await page(source, materialize, pageNumber, false)).ids : [];
  }

  const stems = new Set(resolved.flatMap((t) => t.alternatives.map(porterStem)));
  const items = await loadHits(db, ids, resolved, stems, market);
  const adjusted = resolved
    .filter((t) => t.kind === "completed" || t.kind === "corrected")
    .map((t) => ({ input: t.input, used: t.alternatives.filter((w) => w !== t.input) }));
  return {
    q,
    terms,
    items,
    total,
    page: pageNumber,
    pageCount,
    perPage,
    sort,
    facets,
    didYouMean: correctedQuery(resolved),
    adjusted,
  };
}

async function loadHits(
  db: Db,
  ids: number[],
  terms: ResolvedTerm[],
  stems: Set<string>,
  market: MarketId,
): Promise<SearchHit[]> {
  if (ids.length === 0) return [];
  const rows = await productsWithBrandAndCategory(db)
    .select([
      "p.id",
      "p.slug",
      "p.title",
      "p.description",
      marketListPrice(market),
      "p.discount_percent",
      marketSalePrice(market),
      "p.stock_quantity",
      "b.name as brand_name",
      "p.category_id",
      "c.name as category_name",
      (eb) => coverKeyOfProduct(eb).as("cover_key"),
    ])
    .where("p.id", "in", ids)
    .execute();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const termStems = terms.map((t) => new Set(t.alternatives.map(porterStem)));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const titleStems = new Set(words(row.title).map(porterStem));
    const titleHasAll = termStems.every((set) => [...set].some((s) => titleStems.has(s)));
    return [
      {
        ...toSummary({ ...row, id }, row.cover_key ? uploadedImageUrl(id, row.cover_key) : undefined),
        categoryId: Number(row.category_id),
        categoryName: row.category_name,
        titleSegments: terms.length ? highlight(row.title, stems) : [{ text: row.title, match: false }],
        snippet: terms.length && !titleHasAll ? snippet(row.description, stems) : null,
      },
    ];
  });
}

/**
 * The shop search's matching as a subquery of product ids (`SELECT id …`), for lists that filter
 * and sort on their own (the back office). Words are resolved as the shop resolves them
 * (completions, one-typo corrections). Null when the text has no searchable word; "none" when a
 * word can match nothing. Only products on sale match (archived ones are not in search_products).
 */
export async function matchingProductIds(db: Db, text: string): Promise<RawBuilder<{ id: number }> | "none" | null> {
  const terms = queryTerms(cleanQueryText(text));
  if (terms.length === 0) return null;
  const resolved = await resolveTerms(db, terms);
  if (resolved.some((t) => t.alternatives.length === 0)) return "none";
  return sql<{ id: number }>`SELECT id FROM (${matchSource(dbKind(db), resolved, ["product_id"], null)}) matched`;
}
