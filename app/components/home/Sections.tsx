import { Link } from "react-router";
import type { Benefit, CategoryTile, OfferCard, PromoBanner, Testimonial } from "../../content/types.ts";
import type { FacetOption } from "../../lib/catalog-types.ts";
import { Carousel, type CarouselProps } from "../ui/Carousel.tsx";
import { ContentImg } from "../ui/ContentImg.tsx";
import { HeadsetIcon, ShieldIcon, TagIcon, TruckIcon } from "../ui/icons.tsx";
import { FiveStars } from "../catalog/Price.tsx";

const benefitIcons = {
  "free-shipping": TruckIcon,
  support: HeadsetIcon,
  "money-back": ShieldIcon,
  "member-discount": TagIcon,
} as const;

export function SectionHeading({ id, title, action }: { id: string; title: string; action?: React.ReactNode }) {
  return (
    <div className="mb-6 flex items-end justify-between gap-4">
      <h2 id={id} className="text-2xl font-bold text-ink">
        {title}
      </h2>
      {action}
    </div>
  );
}

/** A section's heading over a carousel whose controls sit above the slides, on the right. */
export function HeadedCarousel<T>({
  headingId,
  title,
  ...carousel
}: { headingId: string; title: string } & CarouselProps<T>) {
  return (
    <>
      <SectionHeading id={headingId} title={title} />
      <Carousel transitionMs={600} controlsClassName="mb-4 justify-end" {...carousel} />
    </>
  );
}

export function BenefitsStrip({ benefits }: { benefits: Benefit[] }) {
  return (
    <section aria-label="Why shop with us" className="border-b border-slate-200 bg-slate-50">
      <ul className="mx-auto grid max-w-7xl gap-4 px-4 py-6 sm:grid-cols-2 lg:grid-cols-4">
        {benefits.map((b) => {
          const Icon = benefitIcons[b.id];
          return (
            <li key={b.id} className="flex items-center gap-3">
              <span className="rounded-full bg-brand-100 p-3 text-brand-800">
                <Icon />
              </span>
              <span>
                <span className="block font-semibold text-ink">{b.title}</span>
                <span className="block text-sm text-slate-700">{b.text}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function CategoryTiles({ categoryTiles }: { categoryTiles: CategoryTile[] }) {
  return (
    <section aria-labelledby="categories-heading" className="mx-auto max-w-7xl px-4 py-12">
      <SectionHeading id="categories-heading" title="Shop by Category" />
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-3 lg:grid-cols-6">
        {categoryTiles.map((tile) => (
          <li key={tile.name} className="flex flex-col items-center rounded-lg border border-slate-200 p-4 text-center">
            <ContentImg image={tile.image} className="h-24 w-auto" />
            <h3 className="mt-3 font-semibold text-ink">{tile.name}</h3>
            <p className="mt-1 text-xs text-slate-700">{tile.text}</p>
            <Link
              to={`/shop?category=${tile.categorySlug}`}
              className="btn-outline mt-3"
              aria-label={`Browse ${tile.name}`}
            >
              Browse
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PromotionsSection({
  promoBanners,
  offerCards,
}: {
  promoBanners: PromoBanner[];
  offerCards: OfferCard[];
}) {
  return (
    <section aria-labelledby="offers-heading" className="mx-auto max-w-7xl px-4 py-12">
      <SectionHeading id="offers-heading" title="Offers of the Week" />
      <div className="grid gap-4 md:grid-cols-2">
        {promoBanners.map((banner) => (
          <article key={banner.id} className="flex items-center gap-4 rounded-xl bg-ink p-6 text-white">
            <div className="flex-1">
              <p className="text-sm font-semibold text-brand-400">{banner.eyebrow}</p>
              <h3 className="mt-1 text-2xl font-bold">{banner.title}</h3>
              <p className="mt-2 text-sm text-slate-200">{banner.text}</p>
              <Link to="/shop" className="btn-accent mt-4" aria-label={`${banner.ctaLabel}: ${banner.title}`}>
                {banner.ctaLabel}
              </Link>
            </div>
            <ContentImg image={banner.image} className="h-32 w-auto" />
          </article>
        ))}
      </div>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {offerCards.map((offer) => (
          <li key={offer.id} className="relative rounded-xl border border-slate-200 bg-brand-50 p-5">
            <span className="rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white">{offer.badge}</span>
            <h3 className="mt-3 font-bold text-ink">
              <Link to="/shop" className="after:absolute after:inset-0 after:content-['']">
                {offer.title}
              </Link>
            </h3>
            <p className="mt-1 text-sm text-slate-700">{offer.text}</p>
            <ContentImg image={offer.image} className="mt-3 h-24 w-auto" />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TestimonialsCarousel({ testimonials }: { testimonials: Testimonial[] }) {
  return (
    <section aria-labelledby="testimonials-heading" className="bg-slate-50 py-12">
      <div className="mx-auto max-w-3xl px-4">
        <HeadedCarousel
          headingId="testimonials-heading"
          title="What Our Customers Say"
          label="Customer testimonials"
          slideLabel="Testimonial"
          items={testimonials}
          itemKey={(t) => t.userName}
          autoplayMs={6000}
          renderItem={(t) => (
            <figure className="rounded-xl bg-white p-6 shadow-sm">
              <FiveStars />
              <blockquote className="mt-3 text-lg text-slate-800">“{t.clientReview}”</blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold text-ink">{t.userName}</span>
                <span className="text-slate-700"> — {t.userProfile}</span>
              </figcaption>
            </figure>
          )}
        />
      </div>
    </section>
  );
}

export function BrandStrip({ brands }: { brands: FacetOption[] }) {
  const list = (copy: boolean) => (
    <ul className="flex shrink-0 items-center gap-8 pr-8" aria-hidden={copy || undefined} inert={copy || undefined}>
      {brands.map((brand) => (
        <li key={brand.slug}>
          <Link to={`/shop?brand=${brand.slug}`} className="block rounded">
            <img src={`/images/brands/${brand.slug}.svg`} alt={brand.name} width={160} height={60} loading="lazy" />
          </Link>
        </li>
      ))}
    </ul>
  );
  return (
    <section aria-labelledby="brands-heading" className="mx-auto max-w-7xl px-4 py-12">
      <SectionHeading id="brands-heading" title="Our Brands" />
      <div className="brand-strip overflow-hidden">
        <input type="checkbox" id="brand-strip-pause" className="peer sr-only" />
        <label htmlFor="brand-strip-pause" className="btn-outline mb-3 cursor-pointer text-xs">
          Pause brand scrolling
        </label>
        <div className="brand-track flex w-max">
          {list(false)}
          {list(true)}
        </div>
      </div>
    </section>
  );
}
