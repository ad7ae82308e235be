import type { SortKey } from "./catalog-types.ts";
import { parseDollarsToCents } from "./money.ts";

export const SORT_OPTIONS: { value: SortKey; label: string }[] = [
  { value: "relevance", label: "Relevance" },
  { value: "price-asc", label: "Price: low to high" },
  { value: "price-desc", label: "Price: high to low" },
  { value: "newest", label: "Newest" },
  { value: "discount", label: "Biggest discount" },
  { value: "name", label: "Name" },
];

export const MAX_QUERY_LENGTH = 200;

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

function cleanText(value: string | null): string {
  return (value ?? "").replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, " ").trim().slice(0, MAX_QUERY_LENGTH);
}

/** Reads the shop's URL state. Never throws: unusable values are dropped or reported. */
export function parseShopQuery(params: URLSearchParams): ShopQuery {
  const q = cleanText(params.get("q"));
  const slugs = (name: string) => [...new Set(params.getAll(name).filter((s) => slugPattern.test(s)))].slice(0, 20);
  const min = cleanText(params.get("min")).slice(0, 12);
  const max = cleanText(params.get("max")).slice(0, 12);
  const priceErrors: string[] = [];
  let minCents: number | undefined;
  let maxCents: number | undefined;
  if (min) {
    const cents = parseDollarsToCents(min);
    if (cents == null) priceErrors.push(min.startsWith("-") ? "Min price can't be negative." : "Min price must be a number.");
    else minCents = cents;
  }
  if (max) {
    const cents = parseDollarsToCents(max);
    if (cents == null) priceErrors.push(max.startsWith("-") ? "Max price can't be negative." : "Max price must be a number.");
    else maxCents = cents;
  }
  if (minCents != null && maxCents != null && minCents > maxCents) {
    priceErrors.push("Min price can't be more than Max price.");
    minCents = maxCents = undefined;
  }
  const sortParam = params.get("sort") as SortKey | null;
  const sort = SORT_OPTIONS.some((o) => o.value === sortParam) ? (sortParam as SortKey) : q ? "relevance" : "newest";
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

/** Builds a /shop URL from the current query with some values replaced. */
export function shopHref(query: ShopQuery, changes: Partial<Pick<ShopQuery, "page" | "sort">> = {}): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  for (const c of next.categories) params.append("category", c);
  for (const b of next.brands) params.append("brand", b);
  if (next.min) params.set("min", next.min);
  if (next.max) params.set("max", next.max);
  if (next.inStockOnly) params.set("inStock", "1");
  if (next.onSaleOnly) params.set("onSale", "1");
  if (next.sort && next.sort !== (next.q ? "relevance" : "newest")) params.set("sort", next.sort);
  if (next.page > 1) params.set("page", String(next.page));
  const s = params.toString();
  return s ? `/shop?${s}` : "/shop";
}
