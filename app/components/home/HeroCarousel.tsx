import { Link } from "react-router";
import type { HeroSlide } from "../../content/types.ts";
import { HERO_AUTOPLAY_MS, HERO_TRANSITION_MS } from "../../lib/site.ts";
import { Carousel } from "../ui/Carousel.tsx";
import { ContentImg } from "../ui/ContentImg.tsx";

export function HeroCarousel({ heroSlides }: { heroSlides: HeroSlide[] }) {
  return (
    <Carousel
      label="Featured offers"
      items={heroSlides}
      itemKey={(s) => s.id}
      autoplayMs={HERO_AUTOPLAY_MS}
      transitionMs={HERO_TRANSITION_MS}
      className="bg-ink"
      controlsClassName="absolute right-4 bottom-4 z-10"
      renderItem={(slide, i) => (
        <div className="mx-auto grid max-w-7xl items-center gap-6 px-4 py-10 md:grid-cols-2 md:py-16">
          <div className="text-white">
            <p className="font-semibold text-brand-400">{slide.eyebrow}</p>
            <h2 className="mt-2 text-3xl font-black md:text-5xl">{slide.title}</h2>
            <p className="mt-4 max-w-prose text-slate-200">{slide.text}</p>
            <Link to="/shop" className="btn-accent mt-6">
              {slide.ctaLabel}
            </Link>
          </div>
          <ContentImg
            image={slide.image}
            fetchPriority={i === 0 ? "high" : "low"}
            loading={i === 0 ? "eager" : "lazy"}
            className="mx-auto h-auto max-h-80 w-full object-contain"
          />
        </div>
      )}
    />
  );
}
