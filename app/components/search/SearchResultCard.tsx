import { Link } from "react-router";
import type { SearchHit } from "../../../server/catalog/search-types.ts";
import { AddToCartForm, WishlistToggle } from "../cart/ShopForms.tsx";
import { DiscountBadge, FiveStars, Price } from "../catalog/Price.tsx";
import { CartIcon, HeartIcon } from "../ui/icons.tsx";
import { Highlight } from "./Highlight.tsx";

/**
 * A product in the shop's results: the catalog card (components/catalog/ProductCard.tsx) with the
 * words that matched the search highlighted in the title and, when the match is in the
 * description, a short extract. Keep the two in step (or let ProductCard take a title node).
 */
export function SearchResultCard({ hit, eager = false }: { hit: SearchHit; eager?: boolean }) {
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-within:shadow-md">
      <div className="relative aspect-square bg-slate-50">
        <img
          src={hit.imageUrl}
          alt={hit.title}
          width={600}
          height={600}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="h-full w-full object-contain"
        />
        <div className="absolute top-2 left-2">
          <DiscountBadge percent={hit.discountPercent} />
        </div>
        <div className="absolute top-2 right-2 z-10 flex flex-col gap-2 opacity-100 transition-opacity sm:opacity-0 sm:group-hover:opacity-100 sm:group-focus-within:opacity-100">
          <AddToCartForm productId={hit.id}>
            <button type="submit" aria-label="Add to cart" title="Add to cart" disabled={hit.stockQuantity === 0} className="rounded-full bg-white p-2 text-ink shadow hover:bg-brand-100 disabled:opacity-50">
              <CartIcon width={18} height={18} />
            </button>
          </AddToCartForm>
          <WishlistToggle
            productId={hit.id}
            renderButton={(pressed) => (
              <button type="submit" aria-label="Add to wishlist" aria-pressed={pressed} title={pressed ? "In your wishlist" : "Add to wishlist"} className={`rounded-full p-2 shadow hover:bg-brand-100 ${pressed ? "bg-brand-500 text-ink" : "bg-white text-ink"}`}>
                <HeartIcon width={18} height={18} fill={pressed ? "currentColor" : "none"} />
              </button>
            )}
          />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="line-clamp-2 text-sm font-semibold text-ink">
          <Link to={`/shop/${hit.id}`} className="after:absolute after:inset-0 after:content-['']">
            <Highlight segments={hit.titleSegments} />
          </Link>
        </h3>
        {hit.snippet ? (
          <p className="line-clamp-3 text-xs text-slate-700">
            <Highlight segments={hit.snippet} />
          </p>
        ) : null}
        <FiveStars />
        <div className="mt-auto">
          <Price priceCents={hit.priceCents} salePriceCents={hit.salePriceCents} discountPercent={hit.discountPercent} />
        </div>
      </div>
    </article>
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
