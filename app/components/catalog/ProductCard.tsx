import { Link } from "react-router";
import { ProductImage } from "./ProductImage.tsx";
import type { ProductSummary } from "../../lib/catalog-types.ts";
import { Money } from "../ui/Money.tsx";
import type { TextSegment } from "../../../server/catalog/search-types.ts";
import { AddToCartButton, WishlistToggle } from "../cart/ShopForms.tsx";
import { Highlight } from "../search/Highlight.tsx";
import { CartIcon, HeartIcon } from "../ui/icons.tsx";
import { DiscountBadge, FiveStars, Price } from "./Price.tsx";

export interface CardProduct extends Pick<
  ProductSummary,
  "id" | "title" | "priceCents" | "discountPercent" | "salePriceCents" | "imageUrl" | "stockQuantity"
> {
  /** What a trade buyer's category rules key on (absent: only their product and default rules apply). */
  categoryId?: number;
  /** The title with the words a search matched; the plain title when absent. */
  titleSegments?: readonly TextSegment[];
  /** A short extract under the title (where a search matched the description). */
  snippet?: readonly TextSegment[] | null;
}

const CARD_KEYS = [
  "id",
  "title",
  "priceCents",
  "discountPercent",
  "salePriceCents",
  "imageUrl",
  "stockQuantity",
  "categoryId",
  "titleSegments",
  "snippet",
] as const satisfies readonly (keyof CardProduct)[];

/** Only what a card shows: what a page's data needs to carry to the browser for its cards. */
export function cardFields(product: CardProduct): CardProduct {
  return Object.fromEntries(CARD_KEYS.map((key) => [key, product[key]])) as unknown as CardProduct;
}

/** A product in a grid: its link, price and stars, and forms that add it to the cart or the wishlist (with or without JavaScript). */
export function ProductCard({
  product,
  eager,
  yourPriceCents,
}: {
  product: CardProduct;
  eager: boolean;
  yourPriceCents: number | null;
}) {
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-within:shadow-md">
      <div className="relative aspect-square bg-slate-50">
        <ProductImage
          product={product}
          size={600}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="h-full w-full object-contain"
        />
        <div className="absolute top-2 left-2">
          <DiscountBadge percent={product.discountPercent} />
        </div>
        <div className="absolute top-2 right-2 z-10 flex flex-col gap-2 opacity-100 transition-opacity sm:opacity-0 sm:group-hover:opacity-100 sm:group-focus-within:opacity-100">
          <AddToCartButton
            product={product}
            aria-label="Add to cart"
            title="Add to cart"
            className="rounded-full bg-white p-2 text-ink shadow hover:bg-brand-100 disabled:opacity-50"
          >
            <CartIcon width={18} height={18} />
          </AddToCartButton>
          <WishlistToggle
            productId={product.id}
            button={(pressed) => ({
              "aria-label": "Add to wishlist",
              title: pressed ? "In your wishlist" : "Add to wishlist",
              className: `rounded-full p-2 shadow hover:bg-brand-100 ${pressed ? "bg-brand-500 text-ink" : "bg-white text-ink"}`,
              children: <HeartIcon width={18} height={18} fill={pressed ? "currentColor" : "none"} />,
            })}
          />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="line-clamp-2 text-sm font-semibold text-ink">
          <Link to={`/shop/${product.id}`} className="after:absolute after:inset-0 after:content-['']">
            {product.titleSegments ? <Highlight segments={product.titleSegments} /> : product.title}
          </Link>
        </h3>
        {product.snippet ? (
          <p className="line-clamp-3 text-xs text-slate-700">
            <Highlight segments={product.snippet} />
          </p>
        ) : null}
        <FiveStars />
        <div className="mt-auto">
          <Price
            priceCents={product.priceCents}
            salePriceCents={product.salePriceCents}
            discountPercent={product.discountPercent}
          />
          {yourPriceCents != null ? (
            <p className="text-sm font-semibold text-green-800" data-testid="your-price">
              Your price <Money minor={yourPriceCents} />
            </p>
          ) : null}
        </div>
      </div>
    </article>
  );
}
