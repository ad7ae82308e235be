import { useCallback, useEffect, useState } from "react";
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from "./icons.tsx";
import { useMediaQuery } from "../../lib/media-query.ts";

export interface CarouselProps<T> {
  label: string;
  items: T[];
  renderItem: (item: T, index: number, active: boolean) => React.ReactNode;
  itemKey: (item: T) => string | number;
  /** Autoplay interval; 0 turns autoplay off. */
  autoplayMs?: number;
  transitionMs?: number;
  /** Accessible name of one slide, e.g. "Slide" → "Slide 2 of 4". */
  slideLabel?: string;
  className?: string;
  controlsClassName?: string;
}

/**
 * An accessible carousel (WAI-ARIA APG pattern): it loops, autoplays when asked, stops while
 * hovered or focused, has a pause/play button (WCAG 2.2.2), and does not autoplay under
 * prefers-reduced-motion.
 */
export function Carousel<T>({
  label,
  items,
  renderItem,
  itemKey,
  autoplayMs = 0,
  transitionMs = 500,
  slideLabel = "Slide",
  className = "",
  controlsClassName = "",
}: CarouselProps<T>) {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const reducedMotion = useMediaQuery("(prefers-reduced-motion: reduce)");
  // From the label: stable across renders and readable in the page's markup.
  const trackId = `${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-track`;
  const count = items.length;

  const go = useCallback((next: number) => setIndex(((next % count) + count) % count), [count]);
  const autoplaying = autoplayMs > 0 && count > 1 && !paused && !reducedMotion;
  const running = autoplaying && !hovered && !focused;

  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), autoplayMs);
    return () => window.clearInterval(timer);
  }, [running, autoplayMs, count]);

  if (count === 0) return null;

  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      className={`relative ${className}`}
      data-autoplay={running ? "running" : "stopped"}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setFocused(false);
      }}
    >
      <div className={`flex items-center gap-2 ${controlsClassName}`}>
        {autoplayMs > 0 && count > 1 ? (
          <button
            type="button"
            className="rounded-full bg-white/90 p-2 text-ink shadow hover:bg-white"
            aria-label={paused ? `Play ${label}` : `Pause ${label}`}
            onClick={() => setPaused((p) => !p)}
          >
            {paused ? <PlayIcon width={16} height={16} /> : <PauseIcon width={16} height={16} />}
          </button>
        ) : null}
        {count > 1 ? (
          <>
            <button
              type="button"
              className="rounded-full bg-white/90 p-2 text-ink shadow hover:bg-white"
              aria-controls={trackId}
              aria-label={`Previous ${slideLabel.toLowerCase()}`}
              onClick={() => go(index - 1)}
            >
              <ChevronLeftIcon width={16} height={16} />
            </button>
            <button
              type="button"
              className="rounded-full bg-white/90 p-2 text-ink shadow hover:bg-white"
              aria-controls={trackId}
              aria-label={`Next ${slideLabel.toLowerCase()}`}
              onClick={() => go(index + 1)}
            >
              <ChevronRightIcon width={16} height={16} />
            </button>
          </>
        ) : null}
      </div>
      <div className="overflow-hidden">
        <div
          id={trackId}
          aria-live={running ? "off" : "polite"}
          className="flex"
          style={{ transform: `translateX(-${index * 100}%)`, transition: `transform ${transitionMs}ms ease-in-out` }}
        >
          {items.map((item, i) => (
            <div
              key={itemKey(item)}
              role="group"
              aria-roledescription="slide"
              aria-label={`${slideLabel} ${i + 1} of ${count}`}
              aria-hidden={i !== index}
              inert={i !== index}
              className="w-full shrink-0"
            >
              {renderItem(item, i, i === index)}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
