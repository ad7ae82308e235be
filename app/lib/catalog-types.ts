/** Shapes the catalog hands to screens. Money is integer cents. */

export interface ProductSummary {
  id: number;
  slug: string;
  title: string;
  priceCents: number;
  discountPercent: number | null;
  salePriceCents: number;
  imageUrl: string;
  stockQuantity: number;
  brandName: string;
}

export interface FeaturedProduct extends ProductSummary {
  description: string;
  features: string[];
  categoryName: string;
}

/** A product's specifications and return policy, as the product page lists them. */
export interface ProductSpecs {
  model: string;
  material: string;
  weightGrams: number;
  countryOfOrigin: string;
  manufacturer: string;
  returnPolicy: string;
}

export interface ProductDetail extends FeaturedProduct, ProductSpecs {
  sku: string;
  images: string[];
  colors: string[];
  brandSlug: string;
  categorySlug: string;
  categoryId: number;
}

export interface FacetOption {
  name: string;
  slug: string;
}

export type SortKey = "relevance" | "price-asc" | "price-desc" | "newest" | "discount" | "name";

export interface ProductPage {
  items: ProductSummary[];
  total: number;
  page: number;
  pageCount: number;
}

export function productImageUrl(id: number, n = 1): string {
  return `/images/products/${id}/${n}.svg`;
}
