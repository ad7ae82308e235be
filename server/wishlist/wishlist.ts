import { cardImage, coverImageUrls } from "../catalog/product-images.ts";
import type { WishlistLine } from "../../app/lib/cart-types.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";
import { marketListPrice, marketSalePrice } from "../catalog/market-columns.ts";
import type { Db } from "../db/connection.ts";
import { NotFoundError } from "../errors.ts";

async function requireProduct(db: Db, productId: number) {
  const product = await db
    .selectFrom("products")
    .select(["id", "colors"])
    .where("id", "=", productId)
    .executeTakeFirst();
  if (!product) throw new NotFoundError("UNKNOWN_PRODUCT", "That product doesn't exist.");
  return product;
}

export async function addToWishlist(db: Db, owner: string, productId: number, color?: string | null) {
  const product = await requireProduct(db, productId);
  const colors = JSON.parse(product.colors) as string[];
  const chosen = color && colors.includes(color) ? color : (colors[0] ?? "");
  await db
    .insertInto("wishlist_items")
    .values({ owner, product_id: productId, color: chosen, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(["owner", "product_id"]).doUpdateSet({ color: chosen }))
    .execute();
}

export async function removeFromWishlist(db: Db, owner: string, productId: number) {
  await db.deleteFrom("wishlist_items").where("owner", "=", owner).where("product_id", "=", productId).execute();
}

/** Adds when absent, removes when present; returns whether it is in the wishlist afterwards. */
export async function toggleWishlist(
  db: Db,
  owner: string,
  productId: number,
  color?: string | null,
): Promise<boolean> {
  const present = await db
    .selectFrom("wishlist_items")
    .select("product_id")
    .where("owner", "=", owner)
    .where("product_id", "=", productId)
    .executeTakeFirst();
  if (present) {
    await removeFromWishlist(db, owner, productId);
    return false;
  }
  await addToWishlist(db, owner, productId, color);
  return true;
}

export async function wishlistProductIds(db: Db, owner: string): Promise<number[]> {
  if (!owner) return [];
  const rows = await db
    .selectFrom("wishlist_items")
    .select("product_id")
    .where("owner", "=", owner)
    .orderBy("created_at")
    .execute();
  return rows.map((r) => r.product_id);
}

/** The wishlist with its products' prices in the shopper's market. */
export async function getWishlist(db: Db, owner: string, market: MarketId = DEFAULT_MARKET): Promise<WishlistLine[]> {
  if (!owner) return [];
  const rows = await db
    .selectFrom("wishlist_items as w")
    .innerJoin("products as p", "p.id", "w.product_id")
    .select([
      "p.id",
      "p.title",
      "p.stock_quantity",
      marketListPrice(market),
      marketSalePrice(market),
      "p.archived_at",
      "w.color",
    ])
    .where("w.owner", "=", owner)
    .orderBy("w.created_at")
    .orderBy("p.id")
    .execute();
  const covers = await coverImageUrls(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    productId: r.id,
    title: r.title,
    imageUrl: cardImage(covers, r.id),
    color: r.color,
    // Archived: shown as not in stock, so it can't go to the cart from here.
    stockQuantity: r.archived_at ? 0 : r.stock_quantity,
    unitPriceCents: r.price_cents,
    totalPriceCents: r.sale_price_cents,
  }));
}

export async function mergeWishlists(db: Db, fromOwner: string, toOwner: string) {
  if (!fromOwner || fromOwner === toOwner) return;
  await db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom("wishlist_items").selectAll().where("owner", "=", fromOwner).execute();
    for (const row of rows) {
      await trx
        .insertInto("wishlist_items")
        .values({ ...row, owner: toOwner })
        .onConflict((oc) => oc.columns(["owner", "product_id"]).doNothing())
        .execute();
    }
    await trx.deleteFrom("wishlist_items").where("owner", "=", fromOwner).execute();
  });
}
