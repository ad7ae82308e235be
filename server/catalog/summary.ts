import type { ProductSummary } from "../../app/lib/catalog-types.ts";
import { productImageUrl } from "../../app/lib/catalog-types.ts";

/** The columns a product card needs, as the catalog queries select them. */
export type SummaryRow = {
  id: number;
  slug: string;
  title: string;
  price_cents: number;
  discount_percent: number | null;
  sale_price_cents: number;
  stock_quantity: number;
  brand_name: string;
};

/** A product card's data from its row; `imageUrl` is its first uploaded picture, when it has one. */
export function toSummary(row: SummaryRow, imageUrl?: string): ProductSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    priceCents: row.price_cents,
    discountPercent: row.discount_percent,
    salePriceCents: row.sale_price_cents,
    stockQuantity: row.stock_quantity,
    brandName: row.brand_name,
    imageUrl: imageUrl ?? productImageUrl(row.id),
  };
}
