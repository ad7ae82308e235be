import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";
import { marketListPrice, marketSalePrice } from "./market-columns.ts";
import { sql } from "kysely";
import { productImageUrl } from "../../app/lib/catalog-types.ts";
import { dbKind, type Db } from "../db/connection.ts";
import { highlight, porterStem, queryTerms, words, type TextSegment } from "./search-text.ts";
import type { SuggestionOption, Suggestions } from "./search-types.ts";
import { coverImageUrls } from "./product-images.ts";
import { resolveTerms, type ResolvedTerm } from "./search-vocabulary.ts";
import { cachedSuggestions } from "./suggestion-cache.ts";
import { ftsQuery, tsQuery } from "./search-match.ts";
import { references } from "./search-references.ts";
import { cleanQueryText } from "../../app/lib/shop-query.ts";

// Suggestions while typing: a few products, categories and brands for the search box (decision 0003),
// each answer cached per process until the catalog version moves (suggestion-cache.ts).

const SUGGEST_LIMITS = { products: 5, categories: 3, brands: 3 } as const;
type SuggestLimits = { products: number; categories: number; brands: number };

function nameMatches(name: string, terms: ResolvedTerm[]): boolean {
  const nameWords = words(name);
  return terms.every((t, i) => {
    const stems = new Set(t.alternatives.map(porterStem));
    const last = i === terms.length - 1;
    return nameWords.some((w) => stems.has(porterStem(w)) || (last && w.startsWith(t.input)));
  });
}

function nameSegments(name: string, terms: ResolvedTerm[], stems: Set<string>): TextSegment[] {
  const last = terms.at(-1)?.input;
  const extra = new Set(stems);
  // Prefix of a word in the name ("for" in "Forgecrest"): mark the whole word.
  if (last) for (const w of words(name)) if (w.startsWith(last)) extra.add(porterStem(w));
  return highlight(name, extra);
}

/** Below this many products for its rarest word, PostgreSQL collects the matches first, then sorts. */
const RARE_WORD_PRODUCTS = 3000;

async function suggestProductIds(db: Db, terms: ResolvedTerm[], limit: number, exclude: number[]): Promise<number[]> {
  if (limit <= 0) return [];
  if (dbKind(db) === "postgres") {
    const filter = sql`
      document @@ to_tsquery('search_words', ${tsQuery(terms)}) AND head @@ to_tsquery('search_words', ${tsQuery(terms, "A")})
      ${exclude.length ? sql`AND product_id NOT IN (${sql.join(exclude)})` : sql``}`;
    // Newest first: walking the primary key backwards finds five common words at once, but
    // would read the whole table for a rare one, so rare words go through the GIN index.
    const rare = Math.min(...terms.map((t) => t.docCount)) < RARE_WORD_PRODUCTS;
    const { rows } = rare
      ? await sql<{ id: number }>`
          WITH c AS MATERIALIZED (SELECT product_id FROM search_products WHERE ${filter})
          SELECT product_id AS id FROM c ORDER BY product_id DESC LIMIT ${limit}`.execute(db)
      : await sql<{ id: number }>`
          SELECT product_id AS id FROM search_products WHERE ${filter} ORDER BY product_id DESC LIMIT ${limit}`.execute(
          db,
        );
    return rows.map((r) => Number(r.id));
  }
  // (The FTS index keeps archived products; search_products holds only the products on sale.)
  // CROSS JOIN keeps the full-text match as the outer loop. Written as `rowid IN (SELECT …)`,
  // SQLite handed the IN list to FTS5 as rowid look-ups: one MATCH per product on sale, 50 s for
  // a two-letter prefix at 100,000 products.
  const { rows } = await sql<{ id: number }>`
    SELECT f.rowid AS id FROM products_fts f CROSS JOIN search_products s ON s.product_id = f.rowid
    WHERE products_fts MATCH ${ftsQuery(terms, "title")}
    ${exclude.length ? sql`AND f.rowid NOT IN (${sql.join(exclude)})` : sql``}
    ORDER BY f.rowid DESC LIMIT ${limit}`.execute(db);
  return rows.map((r) => Number(r.id));
}

/**
 * Products, categories and brands for the search box, fast enough to run on every keystroke; the
 * products' prices in `market`'s currency.
 */
export async function suggestSearch(
  db: Db,
  text: string,
  limits: SuggestLimits = SUGGEST_LIMITS,
  market: MarketId = DEFAULT_MARKET,
): Promise<Suggestions> {
  const q = cleanQueryText(text);
  const terms = queryTerms(q);
  if (terms.length === 0 || terms.join("").length < 2) return { q, options: [] };
  const key = `${market}/${limits.products}/${limits.categories}/${limits.brands}/${q}`;
  return cachedSuggestions(db, key, () => computeSuggestions(db, q, terms, limits, market));
}

async function computeSuggestions(
  db: Db,
  q: string,
  terms: string[],
  limits: SuggestLimits,
  market: MarketId,
): Promise<Suggestions> {
  const refs = await references(db);
  const resolved = await resolveTerms(db, terms, { completeLast: true });
  // A word no product uses (by the vocabulary), with nothing close to it, matches no product name.
  const noProducts = resolved.some(
    (t) => t.alternatives.length === 0 || (t.docCount === 0 && t.alternatives.length === 1),
  );
  const stems = new Set(resolved.flatMap((t) => t.alternatives.map(porterStem)));

  // Titles that contain the words as typed come first, then completions and corrections.
  // (Only when every word is known: an unknown word as typed matches nothing.)
  const exact = resolved.map((t) => ({ ...t, alternatives: [t.input], matchWords: t.inputWords }));
  const first =
    !noProducts && resolved.every((t) => t.kind === "known")
      ? await suggestProductIds(db, exact, limits.products, [])
      : [];
  const more = noProducts ? [] : await suggestProductIds(db, resolved, limits.products - first.length, first);
  const ids = [...first, ...more];
  const rows = ids.length
    ? await db
        .selectFrom("products")
        .select(["id", "title", marketListPrice(market, "products"), marketSalePrice(market, "products")])
        .where("id", "in", ids)
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const covers = await coverImageUrls(db, ids);

  const options: SuggestionOption[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) continue;
    options.push({
      type: "product",
      id: `suggest-product-${id}`,
      label: row.title,
      href: `/shop/${id}`,
      segments: highlight(row.title, stems),
      priceCents: row.price_cents,
      salePriceCents: row.sale_price_cents,
      imageUrl: covers.get(id)?.replace(/-600\.webp$/, "-160.webp") ?? productImageUrl(id),
    });
  }
  for (const [type, list, limit, param] of [
    ["category", refs.categories, limits.categories, "category"],
    ["brand", refs.brands, limits.brands, "brand"],
  ] as const) {
    for (const o of list.filter((o) => nameMatches(o.name, resolved)).slice(0, limit)) {
      options.push({
        type,
        id: `suggest-${type}-${o.slug}`,
        label: o.name,
        href: `/shop?${param}=${encodeURIComponent(o.slug)}`,
        segments: nameSegments(o.name, resolved, stems),
      });
    }
  }
  return { q, options };
}
