/** Shapes the search hands to screens (types only, safe to import from components). */
import type { ProductSummary, SortKey } from "../../app/lib/catalog-types.ts";
import type { TextSegment } from "./search-text.ts";
import type { MarketId } from "../../app/lib/markets.ts";

export type { TextSegment };

/** What the shop lists: filters, order and page. */
export interface ProductQuery {
  /** Category and brand slugs (several = any of them). */
  categories?: string[];
  brands?: string[];
  /** Bounds on the discounted price, in cents, inclusive. */
  minCents?: number;
  maxCents?: number;
  inStockOnly?: boolean;
  onSaleOnly?: boolean;
  sort?: SortKey;
  /** 1-based; a page past the end gives the last page. */
  page?: number;
  perPage?: number;
}

export interface SearchQuery extends ProductQuery {
  /** Free text; capped and cleaned by the search itself as well. */
  q?: string;
  /** The market whose prices the hits show and the price filter and sort use (default the US). */
  market?: MarketId;
}

export interface SearchHit extends ProductSummary {
  /** The product's category: what a trade buyer's price rules key on (server/trade/prices.ts). */
  categoryId: number;
  categoryName: string;
  /** The title split into plain and matching parts. */
  titleSegments: TextSegment[];
  /** A piece of the description around a match, when the title itself does not match every word. */
  snippet: TextSegment[] | null;
}

export interface FacetCount {
  name: string;
  slug: string;
  /** Products that match the query and every other filter, if this option were chosen too. */
  count: number;
}

export interface SearchResult {
  /** The cleaned query text. */
  q: string;
  /** The words that took part (after stop words and the length caps). */
  terms: string[];
  items: SearchHit[];
  total: number;
  page: number;
  pageCount: number;
  perPage: number;
  sort: SortKey;
  facets: { categories: FacetCount[]; brands: FacetCount[] };
  /** A corrected query when some words were not in the catalog's vocabulary. */
  didYouMean: string | null;
  /** Words the search corrected or completed (for "showing results for"). */
  adjusted: { input: string; used: string[] }[];
}

export type SuggestionType = "product" | "category" | "brand";

export interface SuggestionOption {
  type: SuggestionType;
  /** Stable id for aria-activedescendant. */
  id: string;
  label: string;
  href: string;
  segments: TextSegment[];
  /** Products only. */
  priceCents?: number;
  salePriceCents?: number;
  imageUrl?: string;
}

export interface Suggestions {
  q: string;
  options: SuggestionOption[];
}
