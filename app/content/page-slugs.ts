/** URL slugs of the footer's content pages; the copy itself lives in pages.ts. */
export const contentPageSlugs = [
  "refund-policy",
  "terms-and-conditions",
  "terms-of-service",
  "privacy-policy",
  "shipping-information",
  "returns-and-exchanges",
  "career",
  "services",
  "order",
  "deliveries",
] as const;
