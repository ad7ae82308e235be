import type { Route } from "./+types/home";
import { HomePage, type HomeData } from "../components/home/HomePage.tsx";
import { benefits, categoryTiles, heroSlides, offerCards, promoBanners } from "../content/home.ts";
import { testimonials } from "../content/testimonials.ts";
import { seo, siteUrlFrom } from "../lib/seo.ts";
import { STORE_ADDRESS, STORE_NAME, STORE_PHONE } from "../lib/site.ts";
import { listBestProducts, listFacets, listFeaturedProducts } from "../../server/catalog/catalog.ts";
import { getDb } from "../../server/db/connection.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { pageMarketContext } from "../lib/market-context.ts";

export async function loader({ context }: Route.LoaderArgs) {
  const db = getDb();
  const { market } = context.get(pageMarketContext);
  const [featured, best, facets] = await Promise.all([
    listFeaturedProducts(db, 4, market),
    listBestProducts(db, 10, market),
    listFacets(db),
  ]);
  // The fixed copy travels as loader data, so it is not shipped again inside the page's JavaScript.
  const home: HomeData = {
    featured,
    best,
    brands: facets.brands,
    copy: { heroSlides, benefits, categoryTiles, promoBanners, offerCards, testimonials },
  };
  return home;
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export function meta({ matches }: Route.MetaArgs) {
  const origin = siteUrlFrom(matches);
  return [
    ...seo({
      title: STORE_NAME,
      description:
        "Wholesale-priced power tools, hand tools, safety, electrical, automotive, gardening and construction equipment for the UK and the US.",
      path: "/",
      matches,
      perMarket: true,
    }),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Organization",
        name: STORE_NAME,
        url: `${origin}/`,
        logo: `${origin}/images/logo.svg`,
        telephone: STORE_PHONE,
        address: {
          "@type": "PostalAddress",
          streetAddress: STORE_ADDRESS.street,
          addressLocality: STORE_ADDRESS.city,
          postalCode: STORE_ADDRESS.postcode,
          addressCountry: "GB",
        },
      },
    },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomePage loaderData={loaderData} />;
}
