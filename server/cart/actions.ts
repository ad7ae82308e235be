import { parseProductId, parseQuantity } from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import { DomainError } from "../errors.ts";
import { addToCart, removeFromCart, setCartQuantity } from "./cart.ts";

export type CartIntent = "add" | "set" | "remove";

export interface CartActionResult {
  message: string;
}

function requireProductId(form: FormData): number {
  const id = parseProductId(form.get("productId"));
  if (id == null) throw new DomainError("BAD_PRODUCT_ID", "Choose a product to add.", 400);
  return id;
}

function requireQuantity(value: FormDataEntryValue | null, fallback?: number): number {
  if ((value == null || value === "") && fallback != null) return fallback;
  const quantity = parseQuantity(value);
  if (quantity == null) throw new DomainError("BAD_QUANTITY", "Quantity must be a whole number of at least 1.", 400);
  return quantity;
}

function color(form: FormData): string {
  const value = form.get("color");
  return typeof value === "string" ? value.slice(0, 40) : "";
}

/**
 * Applies one cart form post. Only ids, colors and quantities are read: any price a client
 * sends is ignored, because prices always come from the database.
 */
export async function applyCartAction(db: Db, owner: string, form: FormData): Promise<CartActionResult> {
  const intent = String(form.get("intent") ?? "add") as CartIntent;
  const productId = requireProductId(form);
  switch (intent) {
    case "add": {
      const result = await addToCart(db, owner, { productId, quantity: requireQuantity(form.get("quantity"), 1), color: color(form) || null });
      return { message: result.capped ? `${result.title}: your cart now has ${result.quantity}, all we have in stock.` : `${result.title} added to your cart.` };
    }
    case "set": {
      // The minus and plus buttons send the quantity they lead to, so repeated clicks stay consistent.
      await setCartQuantity(db, owner, { productId, color: color(form), quantity: requireQuantity(form.get("quantity")) });
      return { message: "Cart updated." };
    }
    case "remove":
      await removeFromCart(db, owner, { productId, color: color(form) });
      return { message: "Item removed from your cart." };
    default:
      throw new DomainError("BAD_INTENT", "Unknown cart action.", 400);
  }
}
