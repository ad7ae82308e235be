/**
 * Saved lists and the cart: the whole list into the cart (server/cart/add-lines.ts: one
 * transaction, never above the stock or the order caps), saying which lines could not go in and
 * why, with the amount there is to offer instead; and the cart saved as a new list.
 */
import { MAX_LINE_QUANTITY, MAX_ORDER_QUANTITY } from "../../app/lib/order-rules.ts";
import { countText, formatCount } from "../../app/lib/numbers.ts";
import { addLinesToCart, CAP_REASONS, cappedAddText, type AddedLine, type LineToAdd } from "../cart/add-lines.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";
import type { Db } from "../db/connection.ts";
import { InvalidError, NotFoundError } from "../errors.ts";
import { ownerForUser } from "../shopper/guest.ts";
import { SAVED_LIST_MAX_LINES } from "./saved-list-rules.ts";
import { createListWithLines, listLineRows, visibleList } from "./saved-lists.ts";

export interface ListCartLine {
  productId: number;
  color: string;
  title: string;
  sku: string;
  /** The quantity on the list. */
  quantity: number;
  /** Units this add put in the cart. */
  added: number;
  status: "added" | "partly-added" | "not-added";
  reason: string;
  /** What could go to the cart instead (the stock, or one order's cap), when the line is above it. */
  available: number | null;
}

export interface ListCartResult {
  ok: boolean;
  message: string;
  lines: ListCartLine[];
  addedLines: number;
  addedUnits: number;
}

interface ListLine {
  productId: number;
  color: string;
  quantity: number;
  title: string;
  sku: string;
  stock: number;
  archived: boolean;
  colors: string[];
}

/** A saved list's lines say the order's cap in units too. */
const LIST_CAP_REASONS = { ...CAP_REASONS, order: `${CAP_REASONS.order} (${formatCount(MAX_ORDER_QUANTITY)})` };

async function linesOf(db: Db, listId: number): Promise<ListLine[]> {
  const rows = await listLineRows(db, listId).select("p.colors").execute();
  return rows.map((r) => ({
    productId: r.product_id,
    color: r.color,
    quantity: r.quantity,
    title: r.title,
    sku: r.sku,
    stock: r.stock_quantity,
    archived: r.archived_at != null,
    colors: JSON.parse(r.colors) as string[],
  }));
}

/** Why a line can't go to the cart as it is, before trying: null when it can. */
function problemOf(line: ListLine): { reason: string; available: number | null } | null {
  const inColor = line.colors.includes(line.color) || (line.colors.length === 0 && line.color === "");
  if (line.archived) return { reason: "No longer sold.", available: null };
  if (!inColor) return { reason: `No longer sold in ${line.color}.`, available: null };
  if (line.stock < 1) return { reason: "Out of stock.", available: null };
  const cap = Math.min(line.stock, MAX_LINE_QUANTITY);
  if (line.quantity > line.stock && line.stock <= MAX_LINE_QUANTITY)
    return { reason: `Only ${line.stock} in stock.`, available: cap };
  if (line.quantity > MAX_LINE_QUANTITY)
    return { reason: `At most ${MAX_LINE_QUANTITY} of one item fit in a single order.`, available: cap };
  return null;
}

function outcome(line: ListLine, result: AddedLine): ListCartLine {
  const base = {
    productId: line.productId,
    color: line.color,
    title: line.title,
    sku: line.sku,
    quantity: line.quantity,
    added: result.added,
    available: null,
  };
  if (!result.cappedBy || result.added >= result.quantity)
    return {
      ...base,
      status: "added",
      reason: result.quantity < line.quantity ? `${result.added} added instead of ${line.quantity}.` : "Added.",
    };
  return {
    ...base,
    status: result.added > 0 ? "partly-added" : "not-added",
    reason: cappedAddText(result.added, LIST_CAP_REASONS[result.cappedBy]),
  };
}

function summary(lines: ListCartLine[]): string {
  const inCart = lines.filter((l) => l.added > 0);
  const units = inCart.reduce((n, l) => n + l.added, 0);
  const left = lines.length - inCart.filter((l) => l.status === "added").length;
  if (!inCart.length) return "Nothing was added to your cart: see why below.";
  return `${countText(inCart.length, "line")} (${countText(units, "unit")}) added to your cart.${left ? ` ${countText(left, "line")} not added in full: see why below.` : ""}`;
}

async function addToCart(
  db: Db,
  userId: string,
  lines: ListLine[],
  chosen: { line: ListLine; quantity: number }[],
  problems: Map<ListLine, ListCartLine>,
  market: MarketId,
): Promise<ListCartResult> {
  const toAdd: LineToAdd[] = chosen.map(({ line, quantity }) => ({
    productId: line.productId,
    color: line.color,
    quantity,
  }));
  const added = await addLinesToCart(db, ownerForUser(userId), toAdd, market);
  const results = new Map(chosen.map(({ line }, i) => [line, outcome(line, added[i])]));
  const report = lines.map((line) => results.get(line) ?? problems.get(line)!);
  const addedUnits = report.reduce((n, l) => n + l.added, 0);
  const addedLines = report.filter((l) => l.added > 0).length;
  return { ok: addedLines > 0, message: summary(report), lines: report, addedLines, addedUnits };
}

/**
 * Puts every line of a list this user may see (their own, or one shared with their company) into
 * their cart in one transaction. A line above the stock or one order's cap is not added; it is
 * reported with the amount that could go in instead (addAvailableToCart takes that offer).
 */
export async function addListToCart(
  db: Db,
  userId: string,
  listId: number,
  market: MarketId = DEFAULT_MARKET,
): Promise<ListCartResult> {
  await visibleList(db, userId, listId);
  const lines = await linesOf(db, listId);
  if (!lines.length) throw new InvalidError("LIST_EMPTY", "This list is empty: add products to it first.");
  const problems = new Map<ListLine, ListCartLine>();
  const chosen: { line: ListLine; quantity: number }[] = [];
  for (const line of lines) {
    const problem = problemOf(line);
    if (problem)
      problems.set(line, {
        productId: line.productId,
        color: line.color,
        title: line.title,
        sku: line.sku,
        quantity: line.quantity,
        added: 0,
        status: "not-added",
        ...problem,
      });
    else chosen.push({ line, quantity: line.quantity });
  }
  return addToCart(db, userId, lines, chosen, problems, market);
}

/** One line of the list into the cart with as many as there are (the offer of a short line). */
export async function addAvailableToCart(
  db: Db,
  userId: string,
  listId: number,
  key: { productId: number; color: string },
  market: MarketId = DEFAULT_MARKET,
): Promise<ListCartResult> {
  await visibleList(db, userId, listId);
  const line = (await linesOf(db, listId)).find((l) => l.productId === key.productId && l.color === key.color);
  if (!line) throw new NotFoundError("LINE_NOT_FOUND", "That product is no longer on this list.");
  const problem = problemOf(line);
  if (problem && problem.available == null) {
    return {
      ok: false,
      message: `${line.title}: ${problem.reason}`,
      lines: [{ ...line, added: 0, status: "not-added", ...problem }],
      addedLines: 0,
      addedUnits: 0,
    };
  }
  // What there is now; the cart's own caps (what it already holds, one order) apply on top.
  return addToCart(
    db,
    userId,
    [line],
    [{ line, quantity: Math.min(line.quantity, line.stock, MAX_LINE_QUANTITY) }],
    new Map(),
    market,
  );
}

/** Copies the signed-in user's cart (products still sold) into a new list with this name. */
export async function saveCartAsList(
  db: Db,
  userId: string,
  nameInput: unknown,
): Promise<{ id: number; name: string; lines: number }> {
  const rows = await db
    .selectFrom("cart_items as ci")
    .innerJoin("products as p", "p.id", "ci.product_id")
    .select(["ci.product_id", "ci.color", "ci.quantity"])
    .where("ci.owner", "=", ownerForUser(userId))
    .where("p.archived_at", "is", null)
    .orderBy("ci.created_at")
    .orderBy("ci.product_id")
    .execute();
  if (!rows.length)
    throw new InvalidError("CART_EMPTY", "Your cart is empty: add products to it first, then save it as a list.");
  if (rows.length > SAVED_LIST_MAX_LINES)
    throw new InvalidError(
      "LIST_TOO_LONG",
      `A list holds at most ${SAVED_LIST_MAX_LINES} lines; your cart has ${rows.length}.`,
    );
  const lines = rows.map((r) => ({ productId: r.product_id, color: r.color, quantity: r.quantity }));
  const created = await createListWithLines(db, userId, nameInput, lines);
  return { ...created, lines: lines.length };
}
