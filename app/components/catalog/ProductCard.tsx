import { Link } from "react-router";
import type { ProductSummary } from "../../lib/catalog-types.ts";
import { AddToCartForm, WishlistToggle } from "../cart/ShopForms.tsx";
import { CartIcon, HeartIcon } from "../ui/icons.tsx";
import { DiscountBadge, FiveStars, Price } from "./Price.tsx";
import { formatMoney } from "../../lib/money.ts";

/**
 * A product in a grid. The hover/focus buttons post to the cart and wishlist; their behaviour
 * arrives with the shopping issue, and until then they are real controls with accessible names.
 */
export function ProductCard({
  product,
  eager = false,
  title,
  extract,
  yourPriceCents,
}: {
  product: ProductSummary;
  /** A signed-in trade buyer's own price, when below the list price. */
  yourPriceCents?: number;
  eager?: boolean;
  /** The title as shown, e.g. with search matches highlighted; the plain title by default. */
  title?: React.ReactNode;
  /** A short extract under the title (the search shows where the description matched). */
  extract?: React.ReactNode;
}) {
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-within:shadow-md">
      <div className="relative aspect-square bg-slate-50">
        <img
          src={product.imageUrl}
          alt={product.title}
          width={600}
          height={600}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="h-full w-full object-contain"
        />
        <div className="absolute top-2 left-2">
          <DiscountBadge percent={product.discountPercent} />
        </div>
        <div className="absolute top-2 right-2 z-10 flex flex-col gap-2 opacity-100 transition-opacity sm:opacity-0 sm:group-hover:opacity-100 sm:group-focus-within:opacity-100">
          <AddToCartForm productId={product.id}>
            <button type="submit" aria-label="Add to cart" title="Add to cart" disabled={product.stockQuantity === 0} className="rounded-full bg-white p-2 text-ink shadow hover:bg-brand-100 disabled:opacity-50">
              <CartIcon width={18} height={18} />
            </button>
          </AddToCartForm>
          <WishlistToggle
            productId={product.id}
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
          <Link to={`/shop/${product.id}`} className="after:absolute after:inset-0 after:content-['']">
            {title ?? product.title}
          </Link>
        </h3>
        {extract ? <p className="line-clamp-3 text-xs text-slate-700">{extract}</p> : null}
        <FiveStars />
        <div className="mt-auto">
          <Price priceCents={product.priceCents} salePriceCents={product.salePriceCents} discountPercent={product.discountPercent} />
          {yourPriceCents != null ? (
            <p className="text-sm font-semibold text-green-800" data-testid="your-price">
              Your price {formatMoney(yourPriceCents)}
            </p>
          ) : null}
        </div>
      </div>
    </article>
  );
}

export function ProductGrid({ products, eagerCount = 0 }: { products: ProductSummary[]; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-5">
      {products.map((product, i) => (
        <li key={product.id} className="flex">
          <ProductCard product={product} eager={i < eagerCount} />
        </li>
      ))}
    </ul>
  );
}
