import { Link } from "react-router";
import { ProductGrid } from "../catalog/ProductGrid.tsx";
import { FeaturedCarousel } from "./FeaturedCarousel.tsx";
import { HeroCarousel } from "./HeroCarousel.tsx";
import { NewsletterForm } from "./NewsletterForm.tsx";
import {
  BenefitsStrip,
  BrandStrip,
  CategoryTiles,
  PromotionsSection,
  SectionHeading,
  TestimonialsCarousel,
} from "./Sections.tsx";
import type { FeaturedProduct, FacetOption, ProductSummary } from "../../lib/catalog-types.ts";
import type { Benefit, CategoryTile, HeroSlide, OfferCard, PromoBanner, Testimonial } from "../../content/types.ts";
import { STORE_NAME } from "../../lib/site.ts";

export interface HomeData {
  featured: FeaturedProduct[];
  best: ProductSummary[];
  brands: FacetOption[];
  copy: {
    heroSlides: HeroSlide[];
    benefits: Benefit[];
    categoryTiles: CategoryTile[];
    promoBanners: PromoBanner[];
    offerCards: OfferCard[];
    testimonials: Testimonial[];
  };
}

/** The home page's content (app/routes/home.tsx). */
export function HomePage({ loaderData }: { loaderData: HomeData }) {
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
