import { Link } from "react-router";
import { ProductImage } from "../catalog/ProductImage.tsx";
import type { FeaturedProduct } from "../../lib/catalog-types.ts";
import { AddToCartButton, WishlistToggle } from "../cart/ShopForms.tsx";
import { PriceWithBadge } from "../catalog/Price.tsx";
import { HeadedCarousel } from "./Sections.tsx";

export function FeaturedCarousel({ products }: { products: FeaturedProduct[] }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-12">
      <HeadedCarousel
        headingId="featured-heading"
        title="Featured Products"
        label="Featured products"
        slideLabel="Product"
        items={products}
        itemKey={(p) => p.id}
        autoplayMs={7000}
        renderItem={(product, i) => (
          <article className="grid items-center gap-8 rounded-xl border border-slate-200 p-6 md:grid-cols-2">
            <ProductImage product={product} size={600} loading="lazy" className="mx-auto h-72 w-72 object-contain" />
            <div>
              <p className="text-sm font-semibold text-brand-800">{product.categoryName}</p>
              <h3 className="mt-1 text-2xl font-bold text-ink">
                <Link to={`/shop/${product.id}`} className="hover:underline">
                  {product.title}
                </Link>
              </h3>
              <p className="mt-3 line-clamp-3 text-slate-700">{product.description}</p>
              <ul className="mt-3 list-disc pl-5 text-sm text-slate-700">
                {product.features.slice(0, 3).map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              <PriceWithBadge product={product} className="mt-4 flex items-center gap-3" />
              <p className="mt-1 text-sm text-slate-700">
                {product.stockQuantity > 0 ? `In Stock (${product.stockQuantity})` : "Stock out"}
              </p>
              <div className="mt-5 flex flex-wrap gap-3">
                <AddToCartButton product={product} className="btn-primary" aria-describedby={`featured-title-${i}`}>
                  Add to cart
                </AddToCartButton>
                <WishlistToggle
                  productId={product.id}
                  button={() => ({
                    className: "btn-outline",
                    "aria-describedby": `featured-title-${i}`,
                    children: "Add to Wishlist",
                  })}
                />
              </div>
              <span id={`featured-title-${i}`} hidden>
                {product.title}
              </span>
            </div>
          </article>
        )}
      />
    </div>
  );
}
