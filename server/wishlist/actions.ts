import { parseRowId } from "../../app/lib/order-rules.ts";
import { addToCart } from "../cart/cart.ts";
import type { Db } from "../db/connection.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";
import { InvalidError } from "../errors.ts";
import { addToWishlist, removeFromWishlist, toggleWishlist } from "./wishlist.ts";
import { formText } from "../../app/lib/form-text.ts";

/** Applies one wishlist form post: toggle, add, remove, or move to the cart. */
export async function applyWishlistAction(
  db: Db,
  owner: string,
  form: FormData,
  market: MarketId = DEFAULT_MARKET,
): Promise<{ message: string }> {
  const productId = parseRowId(form.get("productId"));
  if (productId == null) throw new InvalidError("BAD_PRODUCT_ID", "Choose a product.");
  const color = formText(form, "color").slice(0, 40) || null;
  switch (form.get("intent") ?? "toggle") {
    case "toggle":
      return {
        message: (await toggleWishlist(db, owner, productId, color))
          ? "Added to your wishlist."
          : "Removed from your wishlist.",
      };
    case "add":
      await addToWishlist(db, owner, productId, color);
      return { message: "Added to your wishlist." };
    case "remove":
      await removeFromWishlist(db, owner, productId);
      return { message: "Removed from your wishlist." };
    case "to-cart": {
      const result = await addToCart(db, owner, { productId, quantity: 1, color }, market);
      return { message: `${result.title} added to your cart.` };
    }
    default:
      throw new InvalidError("BAD_INTENT", "Unknown wishlist action.");
  }
}
