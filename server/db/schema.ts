import type { Generated, Insertable, Selectable } from "kysely";

export interface CategoryTable {
  id: Generated<number>;
  name: string;
  slug: string;
  position: number;
}

export interface BrandTable {
  id: Generated<number>;
  name: string;
  slug: string;
  position: number;
}

export interface ProductTable {
  id: Generated<number>;
  slug: string;
  sku: string;
  title: string;
  description: string;
  /** JSON array of strings. */
  features: string;
  price_cents: number;
  /** Whole percent (1–90), or null when the product is not discounted. */
  discount_percent: number | null;
  /** Price after discount, kept in step with price_cents and discount_percent (see app/lib/pricing). */
  sale_price_cents: number;
  /** JSON array of color names. */
  colors: string;
  stock_quantity: number;
  brand_id: number;
  category_id: number;
  model: string;
  material: string;
  weight_grams: number;
  country_of_origin: string;
  manufacturer: string;
  return_policy: string;
  /** Number of generated images (1–4), served at /images/products/:id/:n.svg. */
  image_count: number;
  /** 1–5, spec shows five stars on every card; kept for a future review system. */
  rating: number;
  featured: number;
  created_at: string;
}

export interface Database {
  categories: CategoryTable;
  brands: BrandTable;
  products: ProductTable;
}

export type CategoryRow = Selectable<CategoryTable>;
export type BrandRow = Selectable<BrandTable>;
export type ProductRow = Selectable<ProductTable>;
export type NewProduct = Insertable<ProductTable>;
