/** Why a product's stock moved: the stock ledger's reason column (server/db/schema.ts, server/inventory/stock.ts). */
export const STOCK_REASONS = [
  "order",
  "order_released",
  "cancellation",
  "return",
  "adjustment",
  "import",
  "received",
  "count_correction",
  "damaged",
] as const;
export type StockReason = (typeof STOCK_REASONS)[number];
