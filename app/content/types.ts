/** Types for the spec's fixed copy. Components render these; they never hard-code copy. */

export interface ContentImage {
  /** Path under /images/content/… (a static SVG in public/images/content). */
  src: string;
  alt: string;
  width: number;
  height: number;
}

export interface HeroSlide {
  id: string;
  /** Small line above the title, e.g. "Up to 20% off". */
  eyebrow: string;
  title: string;
  text: string;
  discountPercent: 20 | 22 | 25;
  /** The spec's button label, always "Shop By Category", linking to /shop. */
  ctaLabel: "Shop By Category";
  image: ContentImage;
}

export interface Benefit {
  id: "free-shipping" | "support" | "money-back" | "member-discount";
  title: string;
  text: string;
}

export interface CategoryTile {
  /** One of Automotive, Gardening, Hand, Electrical, Safety, Construction. */
  name: string;
  /** Slug of the seeded category the Browse button filters by. */
  categorySlug: string;
  text: string;
  image: ContentImage;
}

export interface PromoBanner {
  id: string;
  eyebrow: string;
  title: string;
  text: string;
  ctaLabel: "Shop Now";
  image: ContentImage;
}

export interface OfferCard {
  id: string;
  title: string;
  /** e.g. "15% off", "Up to 25% off", "From $50.00", "15% flat off". */
  badge: string;
  text: string;
  image: ContentImage;
}

export interface Testimonial {
  clientReview: string;
  userName: string;
  /** The reviewer's role and company or town, e.g. "Site manager, Leeds". */
  userProfile: string;
  starRating?: number;
}

interface FaqQuestion {
  question: string;
  answer: string;
}

export interface FaqCategory {
  id:
    | "ordering-process"
    | "product-information"
    | "shipping-and-delivery"
    | "returns-and-refunds"
    | "account-and-support";
  name:
    | "Ordering Process"
    | "Product Information"
    | "Shipping and Delivery"
    | "Returns and Refunds"
    | "Account and Support";
  questions: FaqQuestion[];
}

interface ImpactStat {
  label: "Years in Business" | "Customers Served" | "Countries Reached" | "Products Offered";
  value: "3+" | "10,000+" | "2" | "500+";
}

export interface AboutContent {
  aboutUs: string[];
  ourStory: string[];
  ourMission: string[];
  stats: ImpactStat[];
  /** Client names for the logo row; logos are generated SVGs under /images/content/clients/. */
  clients: { name: string; logo: ContentImage }[];
}

export interface ContentSection {
  heading: string;
  paragraphs: string[];
  /** Optional bullet list shown after the paragraphs. */
  bullets?: string[];
}

export interface ContentPage {
  /** URL path without the leading slash, e.g. "refund-policy". */
  slug: string;
  title: string;
  /** One sentence for the meta description (≤ 160 characters). */
  description: string;
  /** ISO date the page was last updated. */
  updated: string;
  sections: ContentSection[];
}

export interface BlogPost extends ContentPage {
  author: string;
  /** ISO date. */
  publishedAt: string;
  /** Short teaser for the blog index. */
  excerpt: string;
}
