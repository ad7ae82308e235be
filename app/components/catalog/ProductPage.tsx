import { preload } from "react-dom";
import { FIVE_STARS_SRC } from "./Price.tsx";
import { productDetailsHtml, productSummaryHtml } from "./product-html.ts";
import { QuantityPrice } from "./QuantityPrice.tsx";
import { AddToCartForm, WishlistButton } from "../cart/ShopForms.tsx";
import { Carousel } from "../ui/Carousel.tsx";
import { PRODUCT_SLIDESHOW_MS } from "../../lib/site.ts";
import type { ProductDetail } from "../../lib/catalog-types.ts";
import type { TradeRule, VolumeBreak } from "../../lib/pricing.ts";

export interface ProductData {
  product: ProductDetail;
  volumeBreaks: VolumeBreak[];
  trade: TradeRule | null;
}

/**
 * A product's page content. The route (app/routes/product.tsx) renders it on the server; in the
 * browser the product island (app/islands/product.tsx) hydrates it without React Router's client.
 */
export function ProductPage({ loaderData }: { loaderData: ProductData }) {
  const { product, volumeBreaks, trade } = loaderData;
  const inStock = product.stockQuantity > 0;
  // React preloads the images it renders that load at once; it does not see the summary's stars.
  preload(FIVE_STARS_SRC, { as: "image" });
  return (
    <div className="mx-auto grid max-w-7xl gap-10 px-4 py-8 lg:grid-cols-2">
      <Carousel
        label="Product images"
        slideLabel="Image"
        items={product.images}
        itemKey={(src) => src}
        autoplayMs={PRODUCT_SLIDESHOW_MS}
        transitionMs={500}
        controlsClassName="absolute right-3 bottom-3 z-10"
        className="self-start rounded-xl border border-slate-200 bg-slate-50"
        renderItem={(src, i) => (
          <img src={src} srcSet={src.endsWith("-600.webp") ? `${src} 1x, ${src.replace(/-600\.webp$/, "-1200.webp")} 2x` : undefined} alt={`${product.title}, view ${i + 1}`} width={600} height={600} loading={i === 0 ? "eager" : "lazy"} fetchPriority={i === 0 ? "high" : "auto"} className="mx-auto aspect-square w-full object-contain" />
        )}
      />
      <div>
        <div dangerouslySetInnerHTML={{ __html: productSummaryHtml(product) }} />
        <AddToCartForm productId={product.id} className="mt-6 space-y-4">
          <fieldset>
            <legend className="mb-2 font-semibold text-ink">Color</legend>
            <div className="flex flex-wrap gap-2">
              {product.colors.map((color, i) => (
                <label key={color} className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm has-checked:border-ink has-checked:bg-slate-100">
                  <input type="radio" name="color" value={color} defaultChecked={i === 0} className="accent-ink" />
                  {color}
                </label>
              ))}
            </div>
          </fieldset>
          <QuantityPrice listCents={product.salePriceCents} volumeBreaks={volumeBreaks} trade={trade} stockQuantity={product.stockQuantity} />
          <button type="submit" className="btn-primary" disabled={!inStock}>
            Add to cart
          </button>
          {/* In the same form, so the chosen color goes to the wishlist too. */}
          <div>
            <WishlistButton productId={product.id} className="btn-outline">
              Add to Wishlist
            </WishlistButton>
          </div>
        </AddToCartForm>
        <div dangerouslySetInnerHTML={{ __html: productDetailsHtml(product) }} />
      </div>
    </div>
  );
}
