/** The most lines one quick order (typed rows or a CSV) may hold. */
export const QUICK_ORDER_MAX_LINES = 500;

/** One checked line of a quick order, as the page shows it. */
export interface QuickOrderLine {
  label: string;
  sku: string;
  /** The quantity asked for (a merged duplicate adds its quantity to the first line's). */
  quantity: number | null;
  /** ok: goes to the cart; merged: counted in an earlier line; problem: `reason` says why not. */
  status: "ok" | "merged" | "problem";
  reason: string | null;
  productId: number | null;
  title: string | null;
  color: string | null;
  /** What could go to the cart instead, when the stock or the per-item cap is below the quantity. */
  available: number | null;
  /** The label of the line a duplicate was merged into. */
  mergedInto: string | null;
}

export interface QuickOrderCheck {
  lines: QuickOrderLine[];
  ok: number;
  problems: number;
  merged: number;
}
