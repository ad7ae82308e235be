import { formatMoney } from "../../lib/money.ts";
import { isDiscounted } from "../../lib/pricing.ts";

export function Price({
  priceCents,
  salePriceCents,
  discountPercent,
  size = "md",
}: {
  priceCents: number;
  salePriceCents: number;
  discountPercent: number | null;
  size?: "md" | "lg";
}) {
  const big = size === "lg" ? "text-3xl" : "text-lg";
  if (!isDiscounted(discountPercent)) {
    return <span className={`${big} font-bold text-ink`}>{formatMoney(priceCents)}</span>;
  }
  return (
    <span className="inline-flex flex-wrap items-baseline gap-2">
      <span className={`${big} font-bold text-ink`}>
        <span className="sr-only">Sale price </span>
        {formatMoney(salePriceCents)}
      </span>
      <s className="text-sm text-slate-600">
        <span className="sr-only">Original price </span>
        {formatMoney(priceCents)}
      </s>
    </span>
  );
}

export function DiscountBadge({ percent }: { percent: number | null }) {
  if (!isDiscounted(percent)) return null;
  return <span className="rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white">-{percent}%</span>;
}

export function FiveStars() {
  return (
    <span className="flex text-brand-600" role="img" aria-label="Rated 5 out of 5">
      {Array.from({ length: 5 }, (_, i) => (
        <svg key={i} viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
          <path d="m12 2 3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z" />
        </svg>
      ))}
    </span>
  );
}
