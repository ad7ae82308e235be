import {
  MAX_LINE_QUANTITY,
  parseRowId,
  parseWholeQuantity,
  QUANTITY_LIMIT_MESSAGES,
} from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import { InvalidError } from "../errors.ts";
import { addToCart, removeFromCart, setCartQuantity, type CapReason } from "./cart.ts";
import { formText } from "../../app/lib/form-text.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";

type CartIntent = "add" | "set" | "remove";

export interface CartActionResult {
  message: string;
}

function requireProductId(form: FormData): number {
  const id = parseRowId(form.get("productId"));
  if (id == null) throw new InvalidError("BAD_PRODUCT_ID", "Choose a product to add.");
  return id;
}

/** A whole number of at least 1; it may still be above the caps, which the caller applies. */
function requireQuantity(value: FormDataEntryValue | null, fallback?: number): number {
  if ((value == null || value === "") && fallback != null) return fallback;
  const quantity = parseWholeQuantity(value);
  if (quantity == null) throw new InvalidError("BAD_QUANTITY", "Quantity must be a whole number of at least 1.");
  return quantity;
}

function capMessage(result: { title: string; quantity: number; cappedBy: CapReason | null }): string {
  switch (result.cappedBy) {
    case "stock":
      return `${result.title}: your cart now has ${result.quantity}, all we have in stock.`;
    case "line":
      return `${result.title}: your cart now has ${result.quantity}, the most of one item a single order can take.`;
    case "order":
      return `${result.title}: your cart now has ${result.quantity}. ${QUANTITY_LIMIT_MESSAGES.order}`;
    default:
      return `${result.title} added to your cart.`;
  }
}

function color(form: FormData): string {
  const value = form.get("color");
  // No color has a NUL in it, and PostgreSQL refuses one in any text (a 500).
  if (typeof value === "string" && value.includes("\u0000"))
    throw new InvalidError("UNKNOWN_COLOR", "That color isn't available for this product.");
  return typeof value === "string" ? value.slice(0, 40) : "";
}

/**
 * Applies one cart form post. Only ids, colors and quantities are read: any price a client
 * sends is ignored, because prices always come from the database.
 */
export async function applyCartAction(
  db: Db,
  owner: string,
  form: FormData,
  market: MarketId = DEFAULT_MARKET,
): Promise<CartActionResult> {
  const intent = (formText(form, "intent") || "add") as CartIntent;
  const productId = requireProductId(form);
  switch (intent) {
    case "add": {
      // More than one line may hold is clamped to the cap (and said so), like more than the stock.
      const quantity = Math.min(requireQuantity(form.get("quantity"), 1), MAX_LINE_QUANTITY + 1);
      return {
        message: capMessage(await addToCart(db, owner, { productId, quantity, color: color(form) || null }, market)),
      };
    }
    case "set": {
      // The minus and plus buttons send the quantity they lead to, so repeated clicks stay consistent.
      const quantity = requireQuantity(form.get("quantity"));
      if (quantity > MAX_LINE_QUANTITY) throw new InvalidError("QUANTITY_LIMIT", QUANTITY_LIMIT_MESSAGES.line);
      await setCartQuantity(db, owner, { productId, color: color(form), quantity });
      return { message: "Cart updated." };
    }
    case "remove":
      await removeFromCart(db, owner, { productId, color: color(form) });
      return { message: "Item removed from your cart." };
    default:
      throw new InvalidError("BAD_INTENT", "Unknown cart action.");
  }
}
