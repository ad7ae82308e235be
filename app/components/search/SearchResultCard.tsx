import type { SearchHit } from "../../../server/catalog/search-types.ts";
import { ProductCard } from "../catalog/ProductCard.tsx";
import { Highlight } from "./Highlight.tsx";

/** A product in the shop's results: the catalog card, with the words that matched highlighted. */
export function SearchResultCard({ hit, eager = false, yourPriceCents }: { hit: SearchHit; eager?: boolean; yourPriceCents?: number }) {
  return (
    <ProductCard
      product={hit}
      eager={eager}
      yourPriceCents={yourPriceCents}
      title={<Highlight segments={hit.titleSegments} />}
      extract={hit.snippet ? <Highlight segments={hit.snippet} /> : undefined}
    />
  );
}

export function SearchResultGrid({ hits, eagerCount = 0, yourPrices = {} }: { hits: SearchHit[]; eagerCount?: number; yourPrices?: Record<number, number> }) {
  return (
    <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-5">
      {hits.map((hit, i) => (
        <li key={hit.id} className="flex">
          <SearchResultCard hit={hit} eager={i < eagerCount} yourPriceCents={yourPrices[hit.id]} />
        </li>
      ))}
    </ul>
  );
}
