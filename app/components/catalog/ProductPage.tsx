import { useMemo } from "react";
import { FiveStars, PriceWithBadge } from "./Price.tsx";
import { QuantityPrice } from "./QuantityPrice.tsx";
import { AddToCartForm, WishlistButton } from "../cart/ShopForms.tsx";
import { Carousel } from "../ui/Carousel.tsx";
import { PRODUCT_SLIDESHOW_MS } from "../../lib/site.ts";
import type { ProductDetail } from "../../lib/catalog-types.ts";
import type { Currency } from "../../lib/money.ts";
import { tradeRuleFor, type VolumeBreak } from "../../lib/pricing.ts";
import { priceListFromJson, useVisitor } from "../../lib/visitor.ts";

export interface ProductData {
  product: ProductDetail;
  volumeBreaks: VolumeBreak[];
  /** The currency of the page's market, which its prices are in. */
  currency: Currency;
}

/** A product's page content (app/routes/product.tsx); a signed-in trade buyer's prices come from their price list, read in the browser. */
export function ProductPage({ loaderData }: { loaderData: ProductData }) {
  const { product, volumeBreaks } = loaderData;
  const { priceList } = useVisitor();
  const trade = useMemo(
    () => tradeRuleFor(priceListFromJson(priceList), product.id, product.categoryId),
    [priceList, product.id, product.categoryId],
  );
  const inStock = product.stockQuantity > 0;
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
          <img
            src={src}
            srcSet={src.endsWith("-600.webp") ? `${src} 1x, ${src.replace(/-600\.webp$/, "-1200.webp")} 2x` : undefined}
            alt={`${product.title}, view ${i + 1}`}
            width={600}
            height={600}
            loading={i === 0 ? "eager" : "lazy"}
            fetchPriority={i === 0 ? "high" : "auto"}
            className="mx-auto aspect-square w-full object-contain"
          />
        )}
      />
      <div>
        <ProductSummary product={product} />
        <AddToCartForm productId={product.id} className="mt-6 space-y-4">
          <fieldset>
            <legend className="mb-2 font-semibold text-ink">Color</legend>
            <div className="flex flex-wrap gap-2">
              {product.colors.map((color, i) => (
                <label
                  key={color}
                  className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm has-checked:border-ink has-checked:bg-slate-100"
                >
                  <input type="radio" name="color" value={color} defaultChecked={i === 0} className="accent-ink" />
                  {color}
                </label>
              ))}
            </div>
          </fieldset>
          <QuantityPrice
            listCents={product.salePriceCents}
            volumeBreaks={volumeBreaks}
            trade={trade}
            stockQuantity={product.stockQuantity}
          />
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
        <ProductDetails product={product} />
      </div>
    </div>
  );
}

/** Category, title, stars, price and discount, and whether it is in stock. */
function ProductSummary({ product }: { product: ProductDetail }) {
  const inStock = product.stockQuantity > 0;
  return (
    <>
      <p className="text-sm font-semibold text-brand-800">{product.categoryName}</p>
      <h1 className="mt-1 text-3xl font-bold text-ink">{product.title}</h1>
      <div className="mt-2">
        <FiveStars />
      </div>
      <PriceWithBadge product={product} className="mt-4 flex flex-wrap items-center gap-3" />
      <p className="text-sm text-slate-700">Tax included</p>
      <p className={`mt-3 font-semibold ${inStock ? "text-green-800" : "text-red-700"}`} data-testid="stock">
        {inStock ? `In Stock (${product.stockQuantity})` : "Stock out"}
      </p>
    </>
  );
}

/** The description, the features, the specifications table and the return policy. */
function ProductDetails({ product }: { product: ProductDetail }) {
  const specs: [string, string][] = [
    ["Brand", product.brandName],
    ["Model", product.model],
    ["Material", product.material],
    ["Weight (gm)", String(product.weightGrams)],
    ["Country of origin", product.countryOfOrigin],
    ["Manufacturer", product.manufacturer],
  ];
  return (
    <>
      <h2 className="mt-8 text-lg font-semibold text-ink">Description</h2>
      <p className="mt-2 leading-relaxed text-slate-700">{product.description}</p>
      {product.features.length ? (
        <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
          {product.features.map((feature, i) => (
            <li key={i}>{feature}</li>
          ))}
        </ul>
      ) : null}
      <table className="mt-6 w-full text-left text-sm">
        <caption className="sr-only">Specifications</caption>
        <tbody>
          {specs.map(([label, value]) => (
            <tr key={label} className="border-b border-slate-200">
              <th scope="row" className="w-48 py-2 font-semibold text-ink">
                {label}
              </th>
              <td className="py-2 text-slate-700">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-6 rounded-md bg-brand-50 p-3 text-sm text-slate-800">
        <strong>Return policy:</strong> {product.returnPolicy}
      </p>
    </>
  );
}
