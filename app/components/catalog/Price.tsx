import { useMoney } from "../ui/Money.tsx";
import { isDiscounted } from "../../lib/pricing.ts";

interface PriceProps {
  priceCents: number;
  salePriceCents: number;
  discountPercent: number | null;
  size?: "md" | "lg";
}

export function Price({ priceCents, salePriceCents, discountPercent, size = "md" }: PriceProps) {
  const money = useMoney();
  const big = `${size === "lg" ? "text-3xl" : "text-lg"} font-bold text-ink`;
  if (!isDiscounted(discountPercent)) return <span className={big}>{money(priceCents)}</span>;
  return (
    <span className="inline-flex flex-wrap items-baseline gap-2">
      <span className={big}>
        <span className="sr-only">Sale price </span>
        {money(salePriceCents)}
      </span>
      <s className="text-sm text-slate-600">
        <span className="sr-only">Original price </span>
        {money(priceCents)}
      </s>
    </span>
  );
}

const DISCOUNT_BADGE_CLASS = "rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white";

/** The large price with its discount badge beside it (`className` lays the row out). */
export function PriceWithBadge({ product, className }: { product: Omit<PriceProps, "size">; className: string }) {
  return (
    <div className={className}>
      <Price
        priceCents={product.priceCents}
        salePriceCents={product.salePriceCents}
        discountPercent={product.discountPercent}
        size="lg"
      />
      <DiscountBadge percent={product.discountPercent} />
    </div>
  );
}

export function DiscountBadge({ percent }: { percent: number | null }) {
  if (!isDiscounted(percent)) return null;
  return <span className={DISCOUNT_BADGE_CLASS}>{`-${percent}%`}</span>;
}

const FIVE_STARS_SRC = "/images/five-stars.svg";

/** The spec's five stars on every card: one small image instead of five inline SVGs. */
export function FiveStars() {
  return <img src={FIVE_STARS_SRC} alt="Rated 5 out of 5" width={80} height={16} className="h-4 w-20" />;
}
