export interface CartLine {
  productId: number;
  color: string;
  title: string;
  imageUrl: string;
  quantity: number;
  /** Current unit price (after any discount), from the database. */
  unitPriceCents: number;
  /** What the unit price was when the shopper added the line. */
  seenPriceCents: number;
  stockQuantity: number;
  lineTotalCents: number;
  /** Why the line needs the shopper's attention, if it does. */
  notice: string | null;
}

export interface CartView {
  lines: CartLine[];
  totalQuantity: number;
  totalCents: number;
}

export interface WishlistLine {
  productId: number;
  title: string;
  imageUrl: string;
  color: string;
  stockQuantity: number;
  unitPriceCents: number;
  totalPriceCents: number;
}
