/**
 * "Order again": a past order's lines back into the signed-in customer's cart, at today's prices
 * (the cart prices every line with the one price rule), saying which lines changed price or
 * could not be added in full.
 */
import { formatCount } from "../../app/lib/numbers.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { MAX_LINE_QUANTITY, MAX_ORDER_QUANTITY } from "../../app/lib/order-rules.ts";
import { addLinesToCart, type AddedLine } from "../cart/add-lines.ts";
import { getCart } from "../cart/cart.ts";
import { DEFAULT_MARKET, MARKETS, type MarketId } from "../../app/lib/markets.ts";
import type { Currency } from "../../app/lib/money.ts";
import type { Db } from "../db/connection.ts";
import { NotFoundError } from "../errors.ts";
import { ownOrderId } from "./own-order.ts";
import { ownerForUser } from "../shopper/guest.ts";

type ReorderStatus = "added" | "price-changed" | "partly-added" | "out-of-stock" | "no-longer-sold";

export interface ReorderedLine {
  title: string;
  color: string;
  ordered: number;
  added: number;
  /** The unit price on the past order. */
  paidUnitCents: number;
  /** The unit price the cart now charges for the line; null when it isn't in the cart. */
  todayUnitCents: number | null;
  status: ReorderStatus;
  /** What the customer reads beside the line: "added", "price changed from $4.00 to $4.50", … */
  reason: string;
}

export interface ReorderResult {
  number: string;
  lines: ReorderedLine[];
  /** Lines of the order that are now in the cart (in full or in part). */
  inCart: number;
  /** "3 of 4 lines are in your cart at today's prices." */
  summary: string;
}

interface OrderedLine {
  productId: number;
  title: string;
  color: string;
  quantity: number;
  paidUnitCents: number;
  /** The order's currency (the paid price's). */
  currency: Currency;
}

interface ProductNow {
  archived: boolean;
  colors: string[];
}

const CAP_REASONS = {
  stock: "stock",
  line: `at most ${MAX_LINE_QUANTITY} of one item per order`,
  order: `at most ${formatCount(MAX_ORDER_QUANTITY)} units per order`,
} as const;

const keyOf = (productId: number, color: string) => `${productId}:${color}`;

async function linesOfOwnOrder(db: Db, userId: string, number: string): Promise<OrderedLine[]> {
  const order = await ownOrderId(db, userId, number);
  if (!order) throw new NotFoundError("ORDER_NOT_FOUND", "That order doesn't exist.");
  const rows = await db
    .selectFrom("order_lines as l")
    .innerJoin("orders as o", "o.id", "l.order_id")
    .select(["l.product_id", "l.title", "l.color", "l.quantity", "l.unit_price_cents", "o.currency"])
    .where("l.order_id", "=", order.id)
    .orderBy("l.id")
    .execute();
  return rows.map((r) => ({
    productId: r.product_id,
    title: r.title,
    color: r.color,
    quantity: r.quantity,
    paidUnitCents: r.unit_price_cents,
    currency: r.currency,
  }));
}

async function productsNow(db: Db, productIds: number[]): Promise<Map<number, ProductNow>> {
  if (!productIds.length) return new Map();
  const rows = await db
    .selectFrom("products")
    .select(["id", "archived_at", "colors"])
    .where("id", "in", [...new Set(productIds)])
    .execute();
  return new Map(
    rows.map((r) => [r.id, { archived: r.archived_at != null, colors: JSON.parse(r.colors) as string[] }]),
  );
}

/** Still sold in this color: a product without colors has its lines in color "". */
function stillSold(product: ProductNow | undefined, color: string): boolean {
  if (!product || product.archived) return false;
  return product.colors.includes(color) || (product.colors.length === 0 && color === "");
}

function priceChange(line: OrderedLine, todayUnitCents: number | null, currency: Currency): string | null {
  if (todayUnitCents == null) return null;
  if (currency !== line.currency) return `now ${formatMoney(todayUnitCents, currency)} in your market's currency`;
  if (todayUnitCents === line.paidUnitCents) return null;
  return `price changed from ${formatMoney(line.paidUnitCents, currency)} to ${formatMoney(todayUnitCents, currency)}`;
}

function shortfall(result: AddedLine): string | null {
  if (result.cappedBy == null || result.cappedBy === "gone") return null;
  if (result.added > 0) return `only ${result.added} added (${CAP_REASONS[result.cappedBy]})`;
  if (result.cappedBy === "stock") return `none added (all ${result.inCart} in stock are already in your cart)`;
  return `none added (${CAP_REASONS[result.cappedBy]}, and your cart already holds that many)`;
}

/** `result` is undefined for a line that was not offered to the cart (not sold any more). */
function outcome(
  line: OrderedLine,
  result: AddedLine | undefined,
  todayUnitCents: number | null,
  currency: Currency,
): ReorderedLine {
  const base = { title: line.title, color: line.color, ordered: line.quantity, paidUnitCents: line.paidUnitCents };
  if (!result) return { ...base, added: 0, todayUnitCents: null, status: "no-longer-sold", reason: "no longer sold" };
  if (result.cappedBy === "gone")
    return { ...base, added: 0, todayUnitCents: null, status: "out-of-stock", reason: "out of stock" };
  const short = shortfall(result);
  const changed = priceChange(line, todayUnitCents, currency);
  const status: ReorderStatus = short ? "partly-added" : changed ? "price-changed" : "added";
  return {
    ...base,
    added: result.added,
    todayUnitCents,
    status,
    reason: [short, changed].filter(Boolean).join("; ") || "added",
  };
}

/**
 * Adds the lines of one of this user's orders (any status) to their cart, within the cart's caps;
 * lines of archived or sold-out products, or of a color no longer offered, are not added. Another
 * user's order, or no such order, is a 404 and changes nothing.
 */
export async function orderAgain(
  db: Db,
  userId: string,
  number: string,
  market: MarketId = DEFAULT_MARKET,
): Promise<ReorderResult> {
  const ordered = await linesOfOwnOrder(db, userId, number);
  const products = await productsNow(
    db,
    ordered.map((l) => l.productId),
  );
  const owner = ownerForUser(userId);
  const addable = ordered.filter((l) => stillSold(products.get(l.productId), l.color));
  const added = await addLinesToCart(
    db,
    owner,
    addable.map(({ productId, color, quantity }) => ({ productId, color, quantity })),
    market,
  );
  const results = new Map(addable.map((l, i) => [l, added[i]]));
  const todayPrices = new Map(
    (await getCart(db, owner, market)).lines.map((l) => [keyOf(l.productId, l.color), l.unitPriceCents]),
  );
  const lines = ordered.map((line) => {
    const result = results.get(line);
    const today = result && result.inCart > 0 ? (todayPrices.get(keyOf(line.productId, line.color)) ?? null) : null;
    return outcome(line, result, today, MARKETS[market].currency);
  });
  const inCart = lines.filter((l) => l.todayUnitCents != null).length;
  return { number, lines, inCart, summary: summaryOf(inCart, lines.length) };
}

function summaryOf(inCart: number, total: number): string {
  if (inCart === 0)
    return `None of this order's ${total === 1 ? "line" : `${total} lines`} could be added to your cart.`;
  return `${inCart} of ${total} ${total === 1 ? "line is" : "lines are"} in your cart at today's prices.`;
}
