import type { SortKey } from "./catalog-types.ts";
import { parseDollarsToCents } from "./money.ts";
import { CONTROL_OR_INVISIBLE_ALL } from "./control-characters.ts";
import { MAX_QUERY_LENGTH } from "./search-limits.ts";

export const SORT_OPTIONS: { value: SortKey; label: string }[] = [
  { value: "relevance", label: "Relevance" },
  { value: "price-asc", label: "Price: low to high" },
  { value: "price-desc", label: "Price: high to low" },
  { value: "newest", label: "Newest" },
  { value: "discount", label: "Biggest discount" },
  { value: "name", label: "Name" },
];

export interface ShopQuery {
  q: string;
  categories: string[];
  brands: string[];
  min: string;
  max: string;
  minCents?: number;
  maxCents?: number;
  inStockOnly: boolean;
  onSaleOnly: boolean;
  sort: SortKey;
  page: number;
  /** Messages about price inputs that could not be used. */
  priceErrors: string[];
}

const slugPattern = /^[a-z0-9-]{1,60}$/;

/**
 * Search text as the shop and the search read it (browser and server alike): control characters,
 * bidi marks and invalid UTF-16 removed, spaces collapsed, at most MAX_QUERY_LENGTH characters.
 */
export function cleanQueryText(value: string | null | undefined): string {
  return (value ?? "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(CONTROL_OR_INVISIBLE_ALL, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_QUERY_LENGTH)
    .trim();
}

/** Reads the shop's URL state. Never throws: unusable values are dropped or reported. */
export function parseShopQuery(params: URLSearchParams): ShopQuery {
  const q = cleanQueryText(params.get("q"));
  const slugs = (name: string) => [...new Set(params.getAll(name).filter((s) => slugPattern.test(s)))].slice(0, 20);
  const min = cleanQueryText(params.get("min")).slice(0, 12);
  const max = cleanQueryText(params.get("max")).slice(0, 12);
  const priceErrors: string[] = [];
  let minCents: number | undefined;
  let maxCents: number | undefined;
  if (min) {
    const cents = parseDollarsToCents(min);
    if (cents == null)
      priceErrors.push(min.startsWith("-") ? "Min price can't be negative." : "Min price must be a number.");
    else minCents = cents;
  }
  if (max) {
    const cents = parseDollarsToCents(max);
    if (cents == null)
      priceErrors.push(max.startsWith("-") ? "Max price can't be negative." : "Max price must be a number.");
    else maxCents = cents;
  }
  if (minCents != null && maxCents != null && minCents > maxCents) {
    priceErrors.push("Min price can't be more than Max price.");
    minCents = maxCents = undefined;
  }
  const sortParam = params.get("sort") as SortKey | null;
  const known = SORT_OPTIONS.some((o) => o.value === sortParam) && (sortParam !== "relevance" || q !== "");
  const sort = known ? (sortParam as SortKey) : q ? "relevance" : "newest";
  const pageNumber = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    q,
    categories: slugs("category"),
    brands: slugs("brand"),
    min,
    max,
    minCents,
    maxCents,
    inStockOnly: params.get("inStock") === "1",
    onSaleOnly: params.get("onSale") === "1",
    sort,
    page: Number.isFinite(pageNumber) && pageNumber > 0 ? Math.min(pageNumber, 100_000) : 1,
    priceErrors,
  };
}

/** The parts of the shop's state that a link can change. */
export type ShopState = Pick<
  ShopQuery,
  "q" | "categories" | "brands" | "min" | "max" | "inStockOnly" | "onSaleOnly" | "sort" | "page"
>;

/** Builds a /shop URL from the current query with some values replaced. */
export function shopHref(query: ShopState, changes: Partial<ShopState> = {}): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  for (const c of next.categories) params.append("category", c);
  for (const b of next.brands) params.append("brand", b);
  if (next.min) params.set("min", next.min);
  if (next.max) params.set("max", next.max);
  if (next.inStockOnly) params.set("inStock", "1");
  if (next.onSaleOnly) params.set("onSale", "1");
  if (next.sort && next.sort !== (next.q ? "relevance" : "newest") && (next.sort !== "relevance" || next.q))
    params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  const s = params.toString();
  return s ? `/shop?${s}` : "/shop";
}

/** True when any filter (not the words or the sort) narrows the results. */
export function hasFilters(query: ShopState): boolean {
  return (
    query.categories.length > 0 ||
    query.brands.length > 0 ||
    Boolean(query.min) ||
    Boolean(query.max) ||
    query.inStockOnly ||
    query.onSaleOnly
  );
}

/** The same words and sort with every filter removed. */
export function withoutFilters(query: ShopState): ShopState {
  return { ...query, categories: [], brands: [], min: "", max: "", inStockOnly: false, onSaleOnly: false, page: 1 };
}

/**
 * Checks a price range the way the server does, for instant feedback in the browser: the same
 * messages as parseShopQuery. Empty fields are fine.
 */
export function priceRangeErrors(min: string, max: string): { min?: string; max?: string; range?: string } {
  const out: { min?: string; max?: string; range?: string } = {};
  const parse = (value: string, label: "Min" | "Max") => {
    const v = value.trim();
    if (!v) return undefined;
    const cents = parseDollarsToCents(v);
    if (cents == null) {
      out[label === "Min" ? "min" : "max"] = v.startsWith("-")
        ? `${label} price can't be negative.`
        : `${label} price must be a number.`;
    }
    return cents ?? undefined;
  };
  const minCents = parse(min, "Min");
  const maxCents = parse(max, "Max");
  if (minCents != null && maxCents != null && minCents > maxCents)
    out.range = "Min price can't be more than Max price.";
  return out;
}

/** The shop's own title: its search words, else its page number past the first. */
export function shopTitle(q: string, page: number): string {
  return q ? `Search results for “${q}”` : page > 1 ? `Shop — page ${page}` : "Shop";
}
