import { priceListToJson, type Visitor } from "../../app/lib/visitor.ts";
import { cartCount } from "../cart/cart.ts";
import type { Db } from "../db/connection.ts";
import { buyerPriceRules } from "../trade/prices.ts";
import { wishlistProductIds } from "../wishlist/wishlist.ts";
import { resolveShopper } from "./identity.ts";
import { marketProposal, shopperMarket } from "./market.ts";

/** The one visitor's own header data: who they are, their cart count, wishlist and trade price list. */
export async function readVisitor(db: Db, request: Request): Promise<Visitor> {
  const [shopper, market] = await Promise.all([resolveShopper(request), shopperMarket(db, request)]);
  const offer = market.chosen ? null : marketProposal(request);
  const marketOffer = offer !== market.market ? offer : null;
  if (!shopper.owner)
    return { user: null, cartCount: 0, wishlistIds: [], priceList: null, marketProposal: marketOffer };
  const userId = shopper.session?.userId ?? null;
  const [count, wishlistIds, rules] = await Promise.all([
    cartCount(db, shopper.owner),
    wishlistProductIds(db, shopper.owner),
    buyerPriceRules(db, userId),
  ]);
  return {
    user: shopper.session?.user ?? null,
    cartCount: count,
    wishlistIds,
    priceList: rules ? priceListToJson(rules) : null,
    marketProposal: marketOffer,
  };
}
