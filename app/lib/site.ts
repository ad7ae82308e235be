/** Store-wide constants that the spec names. */
export const STORE_NAME = "ToolHub Wholesale";
export const PRODUCTS_PER_PAGE = 15;
export const FILTER_PREVIEW_COUNT = 5;
export const WISHLIST_TITLE_MAX = 30;
export const HERO_AUTOPLAY_MS = 5000;
export const HERO_TRANSITION_MS = 1000;
export const PRODUCT_SLIDESHOW_MS = 3000;
export const ALERT_MS = 1500;
export const LOGOUT_NOTICE_MS = 3000;
export const NOT_FOUND_TEXT =
  "Sorry, the requested page isn't found. Perhaps a typo or a broken link. Redirecting back to safety.";
export const STORE_ADDRESS = {
  street: "221 Forge Lane",
  city: "Sheffield",
  postcode: "S1 2AB",
  country: "United Kingdom",
} as const;
export const STORE_EMAIL_MASKED = "sup****@toolhub.example";
export const STORE_PHONE = "+44 114 000 0000";
export const STORE_HOURS = [
  { days: "Sunday-Wednesday", hours: "9am-5pm" },
  { days: "Saturday", hours: "10am-1pm" },
  { days: "Friday", hours: "closed" },
] as const;
