import { randomBytes } from "node:crypto";
import { summarizeOrder } from "../../app/lib/order-rules.ts";
import { getCart } from "../cart/cart.ts";
import type { Db } from "../db/connection.ts";

/** What the checkout page shows: the cart at today's prices and the summary for each country. */
export async function checkoutPreview(db: Db, owner: string, isMember: boolean) {
  const cart = await getCart(db, owner);
  const priced = cart.lines.map((l) => ({ unitPriceCents: l.unitPriceCents, quantity: l.quantity }));
  return {
    cart,
    summaries: {
      US: summarizeOrder(priced, { isMember, country: "US" }),
      GB: summarizeOrder(priced, { isMember, country: "GB" }),
    },
    checkoutToken: randomBytes(18).toString("base64url"),
  };
}
