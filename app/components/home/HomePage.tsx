import { Link } from "react-router";
import { ProductGrid } from "../catalog/ProductGrid.tsx";
import { FeaturedCarousel } from "./FeaturedCarousel.tsx";
import { HeroCarousel } from "./HeroCarousel.tsx";
import { NewsletterForm } from "./NewsletterForm.tsx";
import { BenefitsStrip, BrandStrip, CategoryTiles, PromotionsSection, SectionHeading, TestimonialsCarousel } from "./Sections.tsx";
import type { FeaturedProduct, FacetOption, ProductSummary } from "../../lib/catalog-types.ts";
import type { Benefit, CategoryTile, HeroSlide, OfferCard, PromoBanner, Testimonial } from "../../content/types.ts";
import { STORE_NAME } from "../../lib/site.ts";
import { Static } from "../../islands/static.tsx";

export interface HomeData {
  featured: FeaturedProduct[];
  best: ProductSummary[];
  brands: FacetOption[];
  copy: { heroSlides: HeroSlide[]; benefits: Benefit[]; categoryTiles: CategoryTile[]; promoBanners: PromoBanner[]; offerCards: OfferCard[]; testimonials: Testimonial[] };
}

/**
 * The home page's content. The route (app/routes/home.tsx) renders it on the server; in the browser
 * the home island (app/islands/home.tsx) hydrates it without React Router's client.
 */
export function HomePage({ loaderData }: { loaderData: HomeData }) {
  const { copy } = loaderData;
  return (
    <>
      <h1 className="sr-only">{STORE_NAME}: wholesale-priced tools for the UK and the US</h1>
      <HeroCarousel heroSlides={copy.heroSlides} />
      <Static as="section">
        <BenefitsStrip benefits={copy.benefits} />
      </Static>
      <Static as="section">
        <CategoryTiles categoryTiles={copy.categoryTiles} />
      </Static>
      <Static as="section">
        <PromotionsSection promoBanners={copy.promoBanners} offerCards={copy.offerCards} />
      </Static>
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
      <Static as="section">
        <BrandStrip brands={loaderData.brands} />
      </Static>
      <NewsletterForm />
    </>
  );
}
