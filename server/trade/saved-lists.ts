/**
 * Saved lists: a customer's named lists of products and quantities ("Van restock"). The owner
 * creates, renames, deletes and edits them; a member of a trade company may share a list with it,
 * and colleagues then see it and add it to their carts, but only the owner changes it. Anybody
 * else's list, shared or not, is "not found". Adding a list to the cart, and saving the cart as a
 * list, are in saved-list-cart.ts.
 */
import { countText, formatCount } from "../../app/lib/numbers.ts";
import { sql, type Transaction } from "kysely";
import { isUniqueViolation } from "../catalog/product-form.ts";
import { dbKind, type Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, InvalidError, NotAllowedError, NotFoundError } from "../errors.ts";
import { companyMember, companyOf, type CompanyMembership } from "./company.ts";
import { priceLinesForBuyer } from "../cart/priced-lines.ts";
import { DEFAULT_MARKET, type MarketId } from "../../app/lib/markets.ts";
import { marketSalePrice } from "../catalog/market-columns.ts";
import { checkQuickOrder } from "./quick-order.ts";
import {
  listQuantity,
  parseListName,
  SAVED_LIST_MAX_LINES,
  SAVED_LIST_MAX_QUANTITY,
  SAVED_LISTS_PER_USER,
} from "./saved-list-rules.ts";

type Trx = Transaction<Database>;

const now = () => new Date().toISOString();

export const LIST_NOT_FOUND_MESSAGE = "That list doesn't exist, or it isn't shared with you.";
const notFound = () => new NotFoundError("LIST_NOT_FOUND", LIST_NOT_FOUND_MESSAGE);

/** One list as the lists page shows it. */
export interface SavedListSummary {
  id: number;
  name: string;
  lineCount: number;
  owned: boolean;
  ownerName: string;
  /** The company's name when the list is shared with the viewer's company. */
  sharedWith: string | null;
  updatedAt: string;
}

/** A visible list: the viewer's own, or one its owner shares with the viewer's company. */
export interface VisibleList {
  list: { id: number; user_id: string; organization_id: string | null; name: string; owner_name: string };
  owned: boolean;
  membership: CompanyMembership | null;
}

/** The lists this user sees: their own, then those colleagues share with their company. */
export async function listsFor(
  db: Db,
  userId: string,
): Promise<{ company: { name: string } | null; lists: SavedListSummary[] }> {
  const membership = await companyOf(db, userId);
  const org = membership?.company.organization_id ?? null;
  const rows = await db
    .selectFrom("saved_lists as l")
    .leftJoin("user as u", "u.id", "l.user_id")
    .select((eb) => [
      "l.id",
      "l.user_id",
      "l.name",
      "l.organization_id",
      "l.updated_at",
      "u.name as owner_name",
      eb
        .selectFrom("saved_list_lines as sl")
        .select((e) => e.fn.countAll().as("n"))
        .whereRef("sl.list_id", "=", "l.id")
        .as("line_count"),
    ])
    .where((eb) => {
      const own = eb("l.user_id", "=", userId);
      if (!org) return own;
      // Shared into the company, by someone who still belongs to it.
      const shared = eb.and([
        eb("l.organization_id", "=", org),
        eb.exists(
          eb
            .selectFrom("member as m")
            .select("m.id")
            .whereRef("m.userId", "=", "l.user_id")
            .whereRef("m.organizationId", "=", "l.organization_id"),
        ),
      ]);
      return eb.or([own, shared]);
    })
    .orderBy("l.name")
    .orderBy("l.id")
    .execute();
  const lists = rows.map((r) => ({
    id: r.id,
    name: r.name,
    lineCount: Number(r.line_count ?? 0),
    owned: r.user_id === userId,
    ownerName: r.owner_name ?? "",
    sharedWith: org && r.organization_id === org ? membership!.company.name : null,
    updatedAt: r.updated_at,
  }));
  // The viewer's own lists first, then their colleagues'.
  lists.sort((a, b) => Number(b.owned) - Number(a.owned));
  return { company: membership ? { name: membership.company.name } : null, lists };
}

/** The list if this user may see it; anything else (no such id, someone else's) is "not found". */
export async function visibleList(db: Db, userId: string, listId: number): Promise<VisibleList> {
  const list = await db
    .selectFrom("saved_lists as l")
    .leftJoin("user as u", "u.id", "l.user_id")
    .select(["l.id", "l.user_id", "l.organization_id", "l.name", "u.name as owner_name"])
    .where("l.id", "=", listId)
    .executeTakeFirst();
  if (!list) throw notFound();
  const membership = await companyOf(db, userId);
  const visible = { list: { ...list, owner_name: list.owner_name ?? "" }, owned: list.user_id === userId, membership };
  if (visible.owned) return visible;
  const org = membership?.company.organization_id;
  if (!org || list.organization_id !== org) throw notFound();
  if (!(await companyMember(db, org, list.user_id))) throw notFound();
  return visible;
}

/** The list if this user owns it: a colleague's shared list can be seen but not changed. */
async function ownedList(db: Db, userId: string, listId: number): Promise<VisibleList> {
  const visible = await visibleList(db, userId, listId);
  if (!visible.owned) {
    throw new NotAllowedError(
      "LIST_NOT_YOURS",
      `Only ${visible.list.owner_name || "the colleague who made it"} can change this list. You can add it to your cart.`,
    );
  }
  return visible;
}

/** Two tabs creating lists for one user at once take turns, so the per-user limit holds. */
async function lockUserLists(trx: Trx, userId: string) {
  if (dbKind(trx) === "postgres")
    await sql`select pg_advisory_xact_lock(hashtext(${`saved-lists:${userId}`}))`.execute(trx);
}

const duplicateName = (name: string) =>
  new ConflictError("LIST_NAME_TAKEN", `You already have a list named “${name}”. Choose another name.`);

async function touch(trx: Trx, listId: number) {
  await trx.updateTable("saved_lists").set({ updated_at: now() }).where("id", "=", listId).execute();
}

/**
 * Creates a list with these lines (none for a new empty list) in one transaction, within the
 * per-user and per-list limits. A name the user already has, in any case, is refused.
 */
export async function createListWithLines(
  db: Db,
  userId: string,
  nameInput: unknown,
  lines: { productId: number; color: string; quantity: number }[] = [],
) {
  const name = parseListName(nameInput);
  if (lines.length > SAVED_LIST_MAX_LINES) {
    throw new InvalidError(
      "LIST_TOO_LONG",
      `A list holds at most ${SAVED_LIST_MAX_LINES} lines; this one would have ${formatCount(lines.length)}.`,
    );
  }
  try {
    return await db.transaction().execute(async (trx) => {
      await lockUserLists(trx, userId);
      const count = await trx
        .selectFrom("saved_lists")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= SAVED_LISTS_PER_USER) {
        throw new ConflictError(
          "TOO_MANY_LISTS",
          `You have ${SAVED_LISTS_PER_USER} lists, the most one account can keep. Delete one you no longer use first.`,
        );
      }
      const taken = await trx
        .selectFrom("saved_lists")
        .select("id")
        .where("user_id", "=", userId)
        .where(sql<string>`lower(name)`, "=", name.toLowerCase())
        .executeTakeFirst();
      if (taken) throw duplicateName(name);
      const at = now();
      const row = await trx
        .insertInto("saved_lists")
        .values({ user_id: userId, organization_id: null, name, created_at: at, updated_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      for (let i = 0; i < lines.length; i += 200) {
        const chunk = lines
          .slice(i, i + 200)
          .map((l) => ({ list_id: id, product_id: l.productId, color: l.color, quantity: l.quantity, created_at: at }));
        await trx.insertInto("saved_list_lines").values(chunk).execute();
      }
      return { id, name };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(name);
    throw error;
  }
}

export async function createList(db: Db, userId: string, nameInput: unknown) {
  return createListWithLines(db, userId, nameInput);
}

export async function renameList(
  db: Db,
  userId: string,
  listId: number,
  nameInput: unknown,
): Promise<{ name: string; changed: boolean }> {
  const { list } = await ownedList(db, userId, listId);
  const name = parseListName(nameInput);
  if (name === list.name) return { name, changed: false };
  const taken = await db
    .selectFrom("saved_lists")
    .select("id")
    .where("user_id", "=", userId)
    .where("id", "!=", listId)
    .where(sql<string>`lower(name)`, "=", name.toLowerCase())
    .executeTakeFirst();
  if (taken) throw duplicateName(name);
  try {
    await db
      .updateTable("saved_lists")
      .set({ name, updated_at: now() })
      .where("id", "=", listId)
      .where("user_id", "=", userId)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName(name);
    throw error;
  }
  return { name, changed: true };
}

/** Deletes the list and its lines, in one transaction; returns its name. */
export async function deleteList(db: Db, userId: string, listId: number): Promise<string> {
  const { list } = await ownedList(db, userId, listId);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("saved_list_lines").where("list_id", "=", listId).execute();
    await trx.deleteFrom("saved_lists").where("id", "=", listId).where("user_id", "=", userId).execute();
  });
  return list.name;
}

/** Shares the list with the owner's company, or stops sharing it. Only a company member can share. */
export async function shareList(db: Db, userId: string, listId: number, share: boolean): Promise<string> {
  const { list, membership } = await ownedList(db, userId, listId);
  if (share && !membership) {
    throw new NotAllowedError(
      "NO_COMPANY",
      "Only members of a trade company can share a list. Apply for a trade account first.",
    );
  }
  await db
    .updateTable("saved_lists")
    .set({ organization_id: share ? membership!.company.organization_id : null, updated_at: now() })
    .where("id", "=", listId)
    .execute();
  return share
    ? `“${list.name}” is shared with ${membership!.company.name}: your colleagues can see it and add it to their carts.`
    : `“${list.name}” is no longer shared.`;
}

/**
 * Adds a product by SKU, through quick order's SKU check (unknown SKU, a SKU with a NUL, an empty
 * one). A SKU already on the list adds to its line. Stock is not checked here: a list is what
 * the buyer means to order, and the stock is checked when it goes to the cart.
 */
export async function addLineBySku(
  db: Db,
  userId: string,
  listId: number,
  skuInput: unknown,
  quantityInput: unknown,
): Promise<string> {
  const { list } = await ownedList(db, userId, listId);
  const sku = (typeof skuInput === "string" ? skuInput : "").trim().slice(0, 64);
  const quantity = listQuantity(quantityInput);
  const [line] = (await checkQuickOrder(db, [{ label: "SKU", sku, quantity: String(quantity) }])).lines;
  if (!line?.productId) throw new InvalidError("UNKNOWN_SKU", line?.reason ?? "Give a SKU.");
  const productId = line.productId;
  const color = line.color ?? "";
  return db.transaction().execute(async (trx) => {
    const product = await trx
      .selectFrom("products")
      .select(["title", "archived_at"])
      .where("id", "=", productId)
      .executeTakeFirst();
    if (!product || product.archived_at)
      throw new ConflictError("NO_LONGER_SOLD", `${product?.title ?? line.title} is no longer sold.`);
    const existing = await trx
      .selectFrom("saved_list_lines")
      .select("quantity")
      .where("list_id", "=", listId)
      .where("product_id", "=", productId)
      .where("color", "=", color)
      .executeTakeFirst();
    if (existing) {
      const total = existing.quantity + quantity;
      if (total > SAVED_LIST_MAX_QUANTITY) {
        throw new InvalidError(
          "LIST_QUANTITY_TOO_HIGH",
          `The list already holds ${existing.quantity} of ${product.title}; a line holds at most ${formatCount(SAVED_LIST_MAX_QUANTITY)}.`,
        );
      }
      await trx
        .updateTable("saved_list_lines")
        .set({ quantity: total })
        .where("list_id", "=", listId)
        .where("product_id", "=", productId)
        .where("color", "=", color)
        .execute();
      await touch(trx, listId);
      return `${countText(quantity, "more unit")} of ${product.title}: ${total} on “${list.name}” now.`;
    }
    const count = await trx
      .selectFrom("saved_list_lines")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("list_id", "=", listId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= SAVED_LIST_MAX_LINES)
      throw new ConflictError(
        "LIST_TOO_LONG",
        `A list holds at most ${SAVED_LIST_MAX_LINES} lines. Start another list.`,
      );
    await trx
      .insertInto("saved_list_lines")
      .values({ list_id: listId, product_id: productId, color, quantity, created_at: now() })
      .execute();
    await touch(trx, listId);
    return `Added ${quantity} × ${product.title} to “${list.name}”.`;
  });
}

export async function setLineQuantity(
  db: Db,
  userId: string,
  listId: number,
  line: { productId: number; color: string },
  quantityInput: unknown,
): Promise<string> {
  await ownedList(db, userId, listId);
  const quantity = listQuantity(quantityInput);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("saved_list_lines")
      .set({ quantity })
      .where("list_id", "=", listId)
      .where("product_id", "=", line.productId)
      .where("color", "=", line.color)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0)
      throw new NotFoundError("LINE_NOT_FOUND", "That product is no longer on this list.");
    await touch(trx, listId);
    return `Quantity changed to ${quantity}.`;
  });
}

export async function removeLine(
  db: Db,
  userId: string,
  listId: number,
  line: { productId: number; color: string },
): Promise<string> {
  await ownedList(db, userId, listId);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom("saved_list_lines")
      .where("list_id", "=", listId)
      .where("product_id", "=", line.productId)
      .where("color", "=", line.color)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0)
      throw new NotFoundError("LINE_NOT_FOUND", "That product is no longer on this list.");
    await touch(trx, listId);
    return "Removed from the list.";
  });
}

/** One line as the list page shows it, priced for this buyer as the cart would price it. */
export interface SavedListLineView {
  productId: number;
  color: string;
  title: string;
  sku: string;
  quantity: number;
  unitPriceCents: number;
  listPriceCents: number;
  priceSource: "list" | "volume" | "trade";
  lineTotalCents: number;
  /** Why the line can't go to the cart as it is, if it can't. */
  notice: string | null;
}

export interface SavedListView {
  id: number;
  name: string;
  owned: boolean;
  ownerName: string;
  /** The viewer's company, if any: the list can be shared with it. */
  companyName: string | null;
  shared: boolean;
  lines: SavedListLineView[];
  totalCents: number;
}

/** A list's lines with their products, in the order they were added; callers select more product columns. */
export function listLineRows(db: Db, listId: number) {
  return db
    .selectFrom("saved_list_lines as sl")
    .innerJoin("products as p", "p.id", "sl.product_id")
    .select(["sl.product_id", "sl.color", "sl.quantity", "p.title", "p.sku", "p.stock_quantity", "p.archived_at"])
    .where("sl.list_id", "=", listId)
    .orderBy("sl.created_at")
    .orderBy("sl.product_id")
    .orderBy("sl.color");
}

function noticeFor(row: { quantity: number; stock_quantity: number; archived_at: string | null }): string | null {
  if (row.archived_at) return "No longer sold";
  if (row.stock_quantity < 1) return "Out of stock";
  if (row.quantity > row.stock_quantity) return `Only ${row.stock_quantity} in stock`;
  return null;
}

/** The list with today's prices for this buyer (volume breaks and their company's price list). */
export async function savedListView(
  db: Db,
  userId: string,
  listId: number,
  market: MarketId = DEFAULT_MARKET,
): Promise<SavedListView> {
  const { list, owned, membership } = await visibleList(db, userId, listId);
  const rows = await listLineRows(db, listId)
    .select([marketSalePrice(market), "p.category_id"])
    .execute();
  const priced = await priceLinesForBuyer(db, userId, rows);
  const lines = priced.map(({ row, unit }) => ({
    productId: row.product_id,
    color: row.color,
    title: row.title,
    sku: row.sku,
    quantity: row.quantity,
    unitPriceCents: unit.unitCents,
    listPriceCents: row.sale_price_cents,
    priceSource: unit.source,
    lineTotalCents: unit.unitCents * row.quantity,
    notice: noticeFor(row),
  }));
  const org = membership?.company.organization_id ?? null;
  return {
    id: list.id,
    name: list.name,
    owned,
    ownerName: list.owner_name,
    companyName: membership?.company.name ?? null,
    shared: org != null && list.organization_id === org,
    lines,
    totalCents: lines.reduce((n, l) => n + l.lineTotalCents, 0),
  };
}
