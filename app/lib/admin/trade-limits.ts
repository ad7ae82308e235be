/** The price-list and company-terms limits the forms show and server/trade/ enforces (one place for both). */
export const PRICE_LIST_NAME_MAX = 80;
export const SKU_MAX = 64;
export const PERCENT_OFF_MIN = 1;
export const PERCENT_OFF_MAX = 90;
/** The highest fixed unit price a rule may set ($1,000,000). */
export const FIXED_PRICE_MAX_CENTS = 100_000_000;
/** The highest credit limit staff may give ($10,000,000). */
export const MAX_CREDIT_LIMIT_CENTS = 1_000_000_000;
