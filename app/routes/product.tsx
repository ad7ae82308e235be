import { data } from "react-router";
import type { Route } from "./+types/product";
import { ProductPage, type ProductData } from "../components/catalog/ProductPage.tsx";
import { centsToDecimalString } from "../lib/money.ts";
import { seo, siteUrlFrom } from "../lib/seo.ts";
import { getProductDetail } from "../../server/catalog/catalog.ts";
import { getDb } from "../../server/db/connection.ts";
import { getSessionInfo } from "../../server/auth/session.ts";
import { isProductId } from "../../server/catalog/product-rows.ts";
import { buyerPriceRules, productVolumeBreaks } from "../../server/trade/prices.ts";
import { tradeRuleFor } from "../lib/pricing.ts";
import { islandScript } from "../../server/http/islands.ts";
import { islandLoaderData, islandPageData } from "../islands/island-scripts.tsx";

export async function loader({ params, request }: Route.LoaderArgs) {
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : NaN;
  const db = getDb();
  // Volume breaks are everyone's (cacheable); a trade price only for a signed-in buyer, whose
  // session cookie keeps the page out of the anonymous page cache.
  const [product, breaks, rules] = await Promise.all([
    getProductDetail(db, id),
    isProductId(id) ? productVolumeBreaks(db, id) : [],
    getSessionInfo(request).then((session) => (session ? buyerPriceRules(db, session.userId) : null)),
  ]);
  if (!product) throw data("Product not found", { status: 404 });
  const page: ProductData = { product, volumeBreaks: breaks, trade: tradeRuleFor(rules, product.id, product.categoryId) };
  // In a production build the page hydrates as an island, without React Router's client (root.tsx).
  return islandLoaderData(request, page, islandScript("product"));
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { product } = islandPageData(loaderData);
  const origin = siteUrlFrom(matches);
  return [
    ...seo({
      title: product.title,
      description: product.description.slice(0, 155),
      path: `/shop/${product.id}`,
      matches,
      image: product.images[0],
      type: "product",
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
          url: `${origin}/shop/${product.id}`,
          price: centsToDecimalString(product.salePriceCents),
          priceCurrency: "USD",
          availability: product.stockQuantity > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
          itemCondition: "https://schema.org/NewCondition",
        },
      },
    },
  ];
}

export default function Product({ loaderData }: Route.ComponentProps) {
  return <ProductPage loaderData={islandPageData(loaderData)} />;
}
