import { data } from "react-router";
import type { Route } from "./+types/product";
import { ProductPage, type ProductData } from "../components/catalog/ProductPage.tsx";
import { centsToDecimalString } from "../lib/money.ts";
import { seo, siteUrlFrom } from "../lib/seo.ts";
import { getProductDetail } from "../../server/catalog/catalog.ts";
import { getDb } from "../../server/db/connection.ts";
import { isProductId } from "../../server/catalog/product-rows.ts";
import { productVolumeBreaks } from "../../server/trade/prices.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { pageMarketContext } from "../lib/market-context.ts";
import { MARKETS, marketOfCurrency, marketPath } from "../lib/markets.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : NaN;
  const db = getDb();
  const { market } = context.get(pageMarketContext);
  // Volume breaks are everyone's; a trade buyer's own prices come from /visitor (root.tsx).
  const [product, breaks] = await Promise.all([
    getProductDetail(db, id, market),
    isProductId(id) ? productVolumeBreaks(db, id) : [],
  ]);
  if (!product) throw data("Product not found", { status: 404 });
  const page: ProductData = { product, volumeBreaks: breaks, currency: MARKETS[market].currency };
  return page;
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { product } = loaderData;
  const origin = siteUrlFrom(matches);
  return [
    ...seo({
      title: product.title,
      description: product.description.slice(0, 155),
      path: `/shop/${product.id}`,
      matches,
      image: product.images[0],
      type: "product",
      perMarket: true,
    }),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Product",
        name: product.title,
        image: product.images.map((src) => `${origin}${src}`),
        description: product.description,
        sku: product.sku,
        mpn: product.model,
        brand: { "@type": "Brand", name: product.brandName },
        offers: {
          "@type": "Offer",
          url: `${origin}${marketPath(`/shop/${product.id}`, marketOfCurrency(loaderData.currency).id)}`,
          price: centsToDecimalString(product.salePriceCents),
          priceCurrency: loaderData.currency.toUpperCase(),
          availability: product.stockQuantity > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
          itemCondition: "https://schema.org/NewCondition",
        },
      },
    },
  ];
}

export default function Product({ loaderData }: Route.ComponentProps) {
  return <ProductPage loaderData={loaderData} />;
}
