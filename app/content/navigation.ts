export interface NavItem {
  label: string;
  path: string;
}

/** Header navigation, in the spec's order. */
export const headerNav: NavItem[] = [
  { label: "Home", path: "/" },
  { label: "Shop", path: "/shop" },
  { label: "About Us", path: "/about" },
  { label: "FAQ", path: "/faq" },
  { label: "Contact Us", path: "/contact" },
];

export interface FooterColumn {
  heading: string;
  links: NavItem[];
}

/**
 * The spec's footer links. The mock sent fifteen of them to "/"; each now has a real target.
 * /aboutUs and /contactUs are kept as the spec names them and answer with a 301.
 */
export const footerColumns: FooterColumn[] = [
  {
    heading: "Company",
    links: [
      { label: "Home", path: "/" },
      { label: "About Us", path: "/aboutUs" },
      { label: "Contact Us", path: "/contactUs" },
      { label: "Blogs", path: "/blogs" },
      { label: "Career", path: "/career" },
      { label: "Services", path: "/services" },
    ],
  },
  {
    heading: "Customer Care",
    links: [
      { label: "Help", path: "/faq" },
      { label: "FAQ", path: "/faq" },
      { label: "Store Map", path: "/contact" },
      { label: "Search Product", path: "/shop" },
      { label: "Wishlist", path: "/wishlist" },
    ],
  },
  {
    heading: "Orders",
    links: [
      { label: "Order", path: "/order" },
      { label: "Order Status", path: "/account/orders" },
      { label: "Deliveries", path: "/deliveries" },
      { label: "Shipping Information", path: "/shipping-information" },
      { label: "Returns & Exchanges", path: "/returns-and-exchanges" },
    ],
  },
  {
    heading: "Policies",
    links: [
      { label: "Refund Policy", path: "/refund-policy" },
      { label: "Terms & Condition", path: "/terms-and-conditions" },
      { label: "Terms of Service", path: "/terms-of-service" },
      { label: "Privacy Policy", path: "/privacy-policy" },
    ],
  },
];

/** Old paths the spec's footer uses, answered with a permanent redirect. */
export const legacyRedirects: Record<string, string> = {
  "/aboutUs": "/about",
  "/contactUs": "/contact",
};
