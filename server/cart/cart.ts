import { formatCount } from "../../app/lib/numbers.ts";
import { sql } from "kysely";
import { cardImage, coverImageUrls } from "../catalog/product-images.ts";
import type { CartLine, CartView } from "../../app/lib/cart-types.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { MAX_LINE_QUANTITY, MAX_ORDER_QUANTITY, QUANTITY_LIMIT_MESSAGES } from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError, InvalidError, NotFoundError, OutOfStockError } from "../errors.ts";
import { userOfOwner } from "../trade/prices.ts";
import { lineProductColumns, priceLinesForBuyer } from "./priced-lines.ts";
import { DEFAULT_MARKET, MARKETS, type MarketId } from "../../app/lib/markets.ts";
import { marketSalePrice, salePriceIn } from "../catalog/market-columns.ts";

const now = () => new Date().toISOString();

async function productForCart(db: Db, productId: number) {
  const product = await db
    .selectFrom("products")
    .select(["id", "title", "colors", "stock_quantity", "sale_price_cents", "uk_sale_price_pence"])
    .where("id", "=", productId)
    .where("archived_at", "is", null)
    .executeTakeFirst();
  if (!product) throw new NotFoundError("UNKNOWN_PRODUCT", "That product doesn't exist.");
  return product;
}

function chosenColor(colorsJson: string, requested: string | null | undefined): string {
  const colors = JSON.parse(colorsJson) as string[];
  if (!requested) return colors[0] ?? "";
  if (!colors.includes(requested))
    throw new InvalidError("UNKNOWN_COLOR", "That color isn't available for this product.");
  return requested;
}

/** The quantity after adding, never above `limit`, computed by the database in one statement. */
function cappedSum(limit: number) {
  return sql<number>`case when cart_items.quantity + excluded.quantity > ${limit} then ${limit} else cart_items.quantity + excluded.quantity end`;
}

/** Units in the owner's other cart lines (all but this product in this color). */
async function otherUnits(db: Db, owner: string, productId: number, color: string): Promise<number> {
  const row = await db
    .selectFrom("cart_items")
    .select((eb) => eb.fn.sum<number>("quantity").as("n"))
    .where("owner", "=", owner)
    .where((eb) => eb.or([eb("product_id", "!=", productId), eb("color", "!=", color)]))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export type CapReason = "stock" | "line" | "order";

/**
 * Adds to the cart. One atomic upsert, so simultaneous adds all count; the line's quantity never
 * exceeds the stock, MAX_LINE_QUANTITY, or what keeps the cart within MAX_ORDER_QUANTITY units.
 * Returns the line's new quantity, and which bound it reached, if any.
 */
export async function addToCart(
  db: Db,
  owner: string,
  input: { productId: number; quantity: number; color?: string | null },
  market: MarketId = DEFAULT_MARKET,
) {
  const product = await productForCart(db, input.productId);
  const seenPrice = salePriceIn(product, market);
  if (product.stock_quantity < 1) throw new OutOfStockError("OUT_OF_STOCK", `${product.title} is out of stock.`);
  const color = chosenColor(product.colors, input.color);
  const room = MAX_ORDER_QUANTITY - (await otherUnits(db, owner, product.id, color));
  if (room < 1)
    throw new ConflictError(
      "ORDER_LIMIT",
      `Your cart already holds ${formatCount(MAX_ORDER_QUANTITY)} units, the most a single order can take.`,
    );
  const bounds: [CapReason, number][] = [
    ["stock", product.stock_quantity],
    ["line", MAX_LINE_QUANTITY],
    ["order", room],
  ];
  const limit = Math.min(...bounds.map(([, n]) => n));
  const limitedBy = bounds.find(([, n]) => n === limit)![0];
  const row = await db
    .insertInto("cart_items")
    .values({
      owner,
      product_id: product.id,
      color,
      quantity: Math.min(input.quantity, limit),
      seen_price_cents: seenPrice,
      seen_market: market,
      created_at: now(),
      updated_at: now(),
    })
    .onConflict((oc) =>
      oc.columns(["owner", "product_id", "color"]).doUpdateSet({
        quantity: cappedSum(limit),
        seen_price_cents: seenPrice,
        seen_market: market,
        updated_at: now(),
      }),
    )
    .returning("quantity")
    .executeTakeFirstOrThrow();
  const quantity = Number(row.quantity);
  const capped = quantity === limit && input.quantity > 0;
  return { quantity, capped, cappedBy: capped ? limitedBy : null, title: product.title, stock: product.stock_quantity };
}

/** Sets a line's quantity: a whole number from 1 to the stock available, within the order caps. */
export async function setCartQuantity(
  db: Db,
  owner: string,
  input: { productId: number; color: string; quantity: number },
) {
  if (input.quantity > MAX_LINE_QUANTITY) throw new InvalidError("QUANTITY_LIMIT", QUANTITY_LIMIT_MESSAGES.line);
  const product = await productForCart(db, input.productId);
  if (input.quantity > product.stock_quantity) {
    throw new OutOfStockError("NOT_ENOUGH_STOCK", `Only ${product.stock_quantity} of ${product.title} in stock.`);
  }
  if ((await otherUnits(db, owner, input.productId, input.color)) + input.quantity > MAX_ORDER_QUANTITY) {
    throw new ConflictError("ORDER_LIMIT", QUANTITY_LIMIT_MESSAGES.order);
  }
  const result = await db
    .updateTable("cart_items")
    .set({ quantity: input.quantity, updated_at: now() })
    .where("owner", "=", owner)
    .where("product_id", "=", input.productId)
    .where("color", "=", input.color)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new NotFoundError("NOT_IN_CART", "That item isn't in your cart.");
}

export async function removeFromCart(db: Db, owner: string, input: { productId: number; color: string }) {
  await db
    .deleteFrom("cart_items")
    .where("owner", "=", owner)
    .where("product_id", "=", input.productId)
    .where("color", "=", input.color)
    .execute();
}

export const NO_LONGER_SOLD = "No longer sold — remove it to check out.";

function noticeFor(
  row: {
    quantity: number;
    stock_quantity: number;
    sale_price_cents: number;
    seen_price_cents: number;
    seen_market: MarketId;
    archived_at: string | null;
  },
  market: MarketId,
): string | null {
  if (row.archived_at) return NO_LONGER_SOLD;
  if (row.stock_quantity === 0) return "Out of stock — remove it to check out.";
  if (row.quantity > row.stock_quantity)
    return `Only ${row.stock_quantity} left in stock — lower the quantity to check out.`;
  // A price seen in another market (before a sign-in brought the account's market) is not compared.
  if (row.seen_market === market && row.sale_price_cents !== row.seen_price_cents) {
    const { currency } = MARKETS[market];
    return `Price changed from ${formatMoney(row.seen_price_cents, currency)} to ${formatMoney(row.sale_price_cents, currency)} since you added it.`;
  }
  return null;
}

/** The cart with today's prices (the market's) and stock from the database. */
export async function getCart(db: Db, owner: string, market: MarketId = DEFAULT_MARKET): Promise<CartView> {
  if (!owner) return { lines: [], totalQuantity: 0, totalCents: 0 };
  const rows = await db
    .selectFrom("cart_items as ci")
    .innerJoin("products as p", "p.id", "ci.product_id")
    .select([
      "ci.product_id",
      "ci.color",
      "ci.quantity",
      "ci.seen_price_cents",
      "ci.seen_market",
      ...lineProductColumns(market),
    ])
    .where("ci.owner", "=", owner)
    .orderBy("ci.created_at")
    .orderBy("ci.product_id")
    .execute();
  const [covers, priced] = await Promise.all([
    coverImageUrls(
      db,
      rows.map((r) => r.product_id),
    ),
    priceLinesForBuyer(db, userOfOwner(owner), rows),
  ]);
  const lines: CartLine[] = priced.map(({ row, unit, volumeBreaks, trade }) => ({
    productId: row.product_id,
    color: row.color,
    title: row.title,
    imageUrl: cardImage(covers, row.product_id),
    quantity: row.quantity,
    unitPriceCents: unit.unitCents,
    listPriceCents: row.sale_price_cents,
    priceSource: unit.source,
    volumeBreaks: volumeBreaks ?? [],
    trade,
    seenPriceCents: row.seen_price_cents,
    // An archived product can't be bought: the cart shows it as having none to sell.
    stockQuantity: row.archived_at ? 0 : row.stock_quantity,
    lineTotalCents: unit.unitCents * row.quantity,
    notice: noticeFor(row, market),
  }));
  return {
    lines,
    totalQuantity: lines.reduce((n, l) => n + l.quantity, 0),
    totalCents: lines.reduce((n, l) => n + l.lineTotalCents, 0),
  };
}

/**
 * Marks the current prices (the market's) as seen, so a flagged price change stops being
 * flagged: also when the cart changes market, which the cart page says instead.
 */
export async function acknowledgePrices(db: Db, owner: string, market: MarketId = DEFAULT_MARKET) {
  const rows = await db
    .selectFrom("cart_items as ci")
    .innerJoin("products as p", "p.id", "ci.product_id")
    .select(["ci.product_id", "ci.color", marketSalePrice(market)])
    .where("ci.owner", "=", owner)
    .execute();
  for (const row of rows) {
    await db
      .updateTable("cart_items")
      .set({ seen_price_cents: row.sale_price_cents, seen_market: market })
      .where("owner", "=", owner)
      .where("product_id", "=", row.product_id)
      .where("color", "=", row.color)
      .execute();
  }
}

export async function cartCount(db: Db, owner: string): Promise<number> {
  if (!owner) return 0;
  const row = await db
    .selectFrom("cart_items")
    .select((eb) => eb.fn.sum<number>("quantity").as("n"))
    .where("owner", "=", owner)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** At sign-in: the guest's lines join the account's; quantities are summed and capped by stock. */
export async function mergeCarts(db: Db, fromOwner: string, toOwner: string) {
  if (!fromOwner || fromOwner === toOwner) return;
  await db.transaction().execute(async (trx) => {
    const guestLines = await trx
      .selectFrom("cart_items as ci")
      .innerJoin("products as p", "p.id", "ci.product_id")
      .select(["ci.product_id", "ci.color", "ci.quantity", "ci.seen_price_cents", "ci.seen_market", "p.stock_quantity"])
      .where("ci.owner", "=", fromOwner)
      .execute();
    for (const line of guestLines) {
      const limit = Math.max(1, Math.min(line.stock_quantity, MAX_LINE_QUANTITY));
      await trx
        .insertInto("cart_items")
        .values({
          owner: toOwner,
          product_id: line.product_id,
          color: line.color,
          quantity: Math.min(line.quantity, limit),
          seen_price_cents: line.seen_price_cents,
          seen_market: line.seen_market,
          created_at: now(),
          updated_at: now(),
        })
        .onConflict((oc) =>
          oc.columns(["owner", "product_id", "color"]).doUpdateSet({ quantity: cappedSum(limit), updated_at: now() }),
        )
        .execute();
    }
    await trx.deleteFrom("cart_items").where("owner", "=", fromOwner).execute();
  });
}
