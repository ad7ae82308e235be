import { Link } from "react-router";
import type { Route } from "./+types/home";
import { ProductGrid } from "../components/catalog/ProductCard.tsx";
import { FeaturedCarousel } from "../components/home/FeaturedCarousel.tsx";
import { HeroCarousel } from "../components/home/HeroCarousel.tsx";
import { NewsletterForm } from "../components/home/NewsletterForm.tsx";
import { BenefitsStrip, BrandStrip, CategoryTiles, PromotionsSection, SectionHeading, TestimonialsCarousel } from "../components/home/Sections.tsx";
import { benefits, categoryTiles, heroSlides, offerCards, promoBanners } from "../content/home.ts";
import { testimonials } from "../content/testimonials.ts";
import { seo, siteUrlFrom } from "../lib/seo.ts";
import { STORE_ADDRESS, STORE_NAME, STORE_PHONE } from "../lib/site.ts";
import { listBestProducts, listFacets, listFeaturedProducts } from "../../server/catalog/catalog.ts";
import { getDb } from "../../server/db/connection.ts";

export async function loader() {
  const db = getDb();
  const [featured, best, facets] = await Promise.all([listFeaturedProducts(db), listBestProducts(db, 10), listFacets(db)]);
  // The fixed copy travels as loader data, so it is not shipped again inside the page's JavaScript.
  return { featured, best, brands: facets.brands, copy: { heroSlides, benefits, categoryTiles, promoBanners, offerCards, testimonials } };
}

export function meta({ matches }: Route.MetaArgs) {
  const origin = siteUrlFrom(matches);
  return [
    ...seo({
      title: STORE_NAME,
      description: "Wholesale-priced power tools, hand tools, safety, electrical, automotive, gardening and construction equipment for the UK and the US.",
      path: "/",
      matches,
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
  const { copy } = loaderData;
  return (
    <>
      <h1 className="sr-only">{STORE_NAME}: wholesale-priced tools for the UK and the US</h1>
      <HeroCarousel heroSlides={copy.heroSlides} />
      <BenefitsStrip benefits={copy.benefits} />
      <CategoryTiles categoryTiles={copy.categoryTiles} />
      <PromotionsSection promoBanners={copy.promoBanners} offerCards={copy.offerCards} />
      <TestimonialsCarousel testimonials={copy.testimonials} />
      <FeaturedCarousel products={loaderData.featured} />
      <section aria-labelledby="best-heading" className="mx-auto max-w-7xl px-4 py-12">
        <SectionHeading
          id="best-heading"
          title="Best Products"
          action={
            <Link to="/shop" className="font-semibold text-brand-800 hover:underline">
              Show All
            </Link>
          }
        />
        <ProductGrid products={loaderData.best} />
      </section>
      <BrandStrip brands={loaderData.brands} />
      <NewsletterForm />
    </>
  );
}
