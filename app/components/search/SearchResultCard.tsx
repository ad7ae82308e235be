import type { SearchHit } from "../../../server/catalog/search-types.ts";
import { ProductCard } from "../catalog/ProductCard.tsx";
import { Highlight } from "./Highlight.tsx";

/** A product in the shop's results: the catalog card, with the words that matched highlighted. */
export function SearchResultCard({ hit, eager = false }: { hit: SearchHit; eager?: boolean }) {
  return (
    <ProductCard
      product={hit}
      eager={eager}
      title={<Highlight segments={hit.titleSegments} />}
      extract={hit.snippet ? <Highlight segments={hit.snippet} /> : undefined}
    />
  );
}

export function SearchResultGrid({ hits, eagerCount = 0 }: { hits: SearchHit[]; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-5">
      {hits.map((hit, i) => (
        <li key={hit.id} className="flex">
          <SearchResultCard hit={hit} eager={i < eagerCount} />
        </li>
      ))}
    </ul>
  );
}
