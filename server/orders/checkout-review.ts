import { formatMoney } from "../../app/lib/money.ts";
import { PROP65_WARNING } from "../../app/lib/product-tax.ts";
import { usStateName } from "../../app/lib/us-states.ts";
import { ConflictError } from "../errors.ts";

/** The sales tax the order would be charged at the address posted. */
interface TaxToConfirm {
  postcode: string;
  state: string;
  lines: { label: string; taxCents: number }[];
  taxCents: number;
  totalCents: number;
}

/** What a shopper must see before the order is placed: the sales tax, and California's warning. */
export interface CheckoutReview {
  /** Null when no sales tax is added. */
  tax: TaxToConfirm | null;
  /** For a California address: the warning, and the products in the order that need it. */
  prop65: { warning: string; products: string[] } | null;
}

function reviewMessage(review: CheckoutReview): string {
  const parts: string[] = [];
  const { tax, prop65 } = review;
  if (tax)
    parts.push(
      `Sales tax of ${formatMoney(tax.taxCents)} applies to delivery to ZIP code ${tax.postcode} (${usStateName(tax.state)}), so your total is ${formatMoney(tax.totalCents)}.`,
    );
  if (prop65)
    parts.push(
      `${prop65.products.length === 1 ? "A product" : "Products"} in your order need${prop65.products.length === 1 ? "s" : ""} a California Proposition 65 warning: read it below.`,
    );
  parts.push("Check the order summary, then place your order again.");
  return parts.join(" ");
}

/**
 * Something the page had not shown (a sales tax figure, or a Proposition 65 warning for a
 * California address): the order is not placed, and the checkout shows it so the shopper can
 * place the order knowing it.
 */
export class CheckoutReviewError extends ConflictError {
  readonly review: CheckoutReview;
  constructor(review: CheckoutReview) {
    super("CHECKOUT_REVIEW", reviewMessage(review));
    this.review = review;
  }
}

/**
 * What a checkout must show before placing this order, or null when the page showed it all:
 * a sales tax figure other than the one shown, or a warning not yet shown for California.
 */
export function unseenReview(
  shown: { shownTaxCents?: number; prop65Shown?: boolean },
  order: {
    postcode: string;
    state: string | null;
    taxCents: number;
    taxLines: { label: string; taxCents: number }[];
    totalCents: number;
    prop65Products: string[];
  },
): CheckoutReview | null {
  const warned = order.state === "CA" ? order.prop65Products : [];
  const taxUnseen = order.taxCents > 0 && order.taxCents !== shown.shownTaxCents;
  const warningUnseen = warned.length > 0 && !shown.prop65Shown;
  if (!taxUnseen && !warningUnseen) return null;
  return {
    tax:
      order.taxCents > 0
        ? {
            postcode: order.postcode,
            state: order.state!,
            lines: order.taxLines,
            taxCents: order.taxCents,
            totalCents: order.totalCents,
          }
        : null,
    prop65: warned.length ? { warning: PROP65_WARNING, products: warned } : null,
  };
}
