import { escapeHtml } from "../../lib/html-escape.ts";
import { formatMoney } from "../../lib/money.ts";
import { isDiscounted } from "../../lib/pricing.ts";

interface PriceProps {
  priceCents: number;
  salePriceCents: number;
  discountPercent: number | null;
  size?: "md" | "lg";
}

/** A price's element: its class and its inner HTML (the sale and original prices when discounted). */
function priceParts({ priceCents, salePriceCents, discountPercent, size = "md" }: PriceProps): { className: string; inner: string } {
  const big = `${size === "lg" ? "text-3xl" : "text-lg"} font-bold text-ink`;
  if (!isDiscounted(discountPercent)) return { className: big, inner: escapeHtml(formatMoney(priceCents)) };
  return {
    className: "inline-flex flex-wrap items-baseline gap-2",
    inner:
      `<span class="${big}"><span class="sr-only">Sale price </span>${escapeHtml(formatMoney(salePriceCents))}</span>` +
      `<s class="text-sm text-slate-600"><span class="sr-only">Original price </span>${escapeHtml(formatMoney(priceCents))}</s>`,
  };
}

export function Price(props: PriceProps) {
  const { className, inner } = priceParts(props);
  return <span className={className} dangerouslySetInnerHTML={{ __html: inner }} />;
}

/** The same price as HTML, for markup built as a string (the product card, card-html.ts). */
export function priceHtml(props: PriceProps): string {
  const { className, inner } = priceParts(props);
  return `<span class="${className}">${inner}</span>`;
}

const DISCOUNT_BADGE_CLASS = "rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white";

export function DiscountBadge({ percent }: { percent: number | null }) {
  if (!isDiscounted(percent)) return null;
  return <span className={DISCOUNT_BADGE_CLASS}>{`-${percent}%`}</span>;
}

export function discountBadgeHtml(percent: number | null): string {
  return isDiscounted(percent) ? `<span class="${DISCOUNT_BADGE_CLASS}">-${Number(percent)}%</span>` : "";
}

export const FIVE_STARS_SRC = "/images/five-stars.svg";
const FIVE_STARS = { src: FIVE_STARS_SRC, alt: "Rated 5 out of 5", width: 80, height: 16, className: "h-4 w-20" };

/** The spec's five stars on every card: one small image instead of five inline SVGs. */
export function FiveStars() {
  return <img {...FIVE_STARS} />;
}

export const FIVE_STARS_HTML = `<img src="${FIVE_STARS.src}" alt="${FIVE_STARS.alt}" width="${FIVE_STARS.width}" height="${FIVE_STARS.height}" class="${FIVE_STARS.className}"/>`;
