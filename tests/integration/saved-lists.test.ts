/**
 * Saved lists through the database, on SQLite and PostgreSQL: the owner's changes and their
 * limits, who may see and change a list (shared with a company, another company's buyer), the
 * whole list into the cart (merged with what it holds, short lines offered what there is), the
 * cart saved as a list, and the privacy export and erasure.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRowId } from "../../app/lib/order-rules.ts";
import { addToCart, getCart } from "../../server/cart/cart.ts";
import { DomainError } from "../../server/errors.ts";
import { eraseAccount } from "../../server/privacy/erase.ts";
import { exportAccountData } from "../../server/privacy/export.ts";
import { addAvailableToCart, addListToCart, saveCartAsList } from "../../server/trade/saved-list-cart.ts";
import { SAVED_LIST_MAX_LINES, SAVED_LISTS_PER_USER } from "../../server/trade/saved-list-rules.ts";
import {
  addLineBySku,
  createList,
  deleteList,
  listsFor,
  removeLine,
  renameList,
  savedListView,
  setLineQuantity,
  shareList,
} from "../../server/trade/saved-lists.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const sku = (id: number) => `TH-${String(id).padStart(7, "0")}`;

async function refusal(promise: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe.each(dialects)("saved lists on %s", (kind) => {
  let t: TestDb;
  let colors: Record<number, string> = {};
  let titles: Record<number, string> = {};

  const newUser = async () => {
    const id = `user-${randomBytes(6).toString("hex")}`;
    const now = new Date().toISOString();
    await t.db
      .insertInto("user")
      .values({
        id,
        name: `Solo ${id}`,
        email: `${id}@example.com`,
        emailVerified: true,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    return id;
  };
  const linesOf = async (listId: number) =>
    (
      await t.db
        .selectFrom("saved_list_lines")
        .select(["product_id", "quantity"])
        .where("list_id", "=", listId)
        .orderBy("product_id")
        .execute()
    ).map((r) => [r.product_id, r.quantity]);
  const cartOf = async (userId: string) =>
    Object.fromEntries((await getCart(t.db, `u:${userId}`)).lines.map((l) => [l.productId, l.quantity]));

  beforeAll(async () => {
    t = await freshSeededDb(kind, 20);
    await t.db.updateTable("products").set({ stock_quantity: 500, archived_at: null }).execute();
    await t.db.updateTable("products").set({ stock_quantity: 4 }).where("id", "=", 5).execute();
    await t.db.updateTable("products").set({ stock_quantity: 0 }).where("id", "=", 6).execute();
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", 7).execute();
    const rows = await t.db.selectFrom("products").select(["id", "title", "colors"]).execute();
    colors = Object.fromEntries(rows.map((r) => [r.id, (JSON.parse(r.colors) as string[])[0] ?? ""]));
    titles = Object.fromEntries(rows.map((r) => [r.id, r.title]));
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("creates, renames and deletes a list; names are trimmed and one per owner whatever their case", async () => {
    const user = await newUser();
    const list = await createList(t.db, user, "  Van   restock ");
    expect(list.name).toBe("Van restock");
    await addLineBySku(t.db, user, list.id, sku(1), "3");
    expect(await refusal(createList(t.db, user, "VAN RESTOCK"))).toMatchObject({
      code: "LIST_NAME_TAKEN",
      status: 409,
      message: "You already have a list named “VAN RESTOCK”. Choose another name.",
    });
    const other = await createList(t.db, user, "Site B");
    expect(await refusal(renameList(t.db, user, other.id, "van restock"))).toMatchObject({
      code: "LIST_NAME_TAKEN",
      status: 409,
    });
    expect(await renameList(t.db, user, list.id, "Van restock — weekly")).toEqual({
      name: "Van restock — weekly",
      changed: true,
    });
    // Another owner may use the same name.
    expect((await createList(t.db, await newUser(), "Van restock — weekly")).name).toBe("Van restock — weekly");

    expect(await deleteList(t.db, user, list.id)).toBe("Van restock — weekly");
    expect(
      await t.db.selectFrom("saved_lists").select("id").where("id", "=", list.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await linesOf(list.id)).toEqual([]);
    expect((await listsFor(t.db, user)).lists.map((l) => l.name)).toEqual(["Site B"]);
  });

  it("refuses an empty, too long or control-character name, more than 50 lists, and more than 500 lines", async () => {
    const user = await newUser();
    expect(await refusal(createList(t.db, user, "   "))).toMatchObject({ code: "LIST_NAME_REQUIRED", status: 400 });
    expect(await refusal(createList(t.db, user, "x".repeat(81)))).toMatchObject({
      code: "LIST_NAME_TOO_LONG",
      message: "A list name can be at most 80 characters.",
    });
    expect(await refusal(createList(t.db, user, "Van\u0000restock"))).toMatchObject({ code: "LIST_NAME_INVALID" });
    expect((await createList(t.db, user, "é".repeat(80))).name).toHaveLength(80);
    for (let i = 1; i < SAVED_LISTS_PER_USER; i++) await createList(t.db, user, `List ${i}`);
    expect(await refusal(createList(t.db, user, "One too many"))).toMatchObject({
      code: "TOO_MANY_LISTS",
      status: 409,
    });
    expect(
      await t.db
        .selectFrom("saved_lists")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", user)
        .executeTakeFirstOrThrow(),
    ).toEqual({ n: SAVED_LISTS_PER_USER });

    const owner = await newUser();
    const full = await createList(t.db, owner, "Full");
    const now = new Date().toISOString();
    const ids = Array.from({ length: SAVED_LIST_MAX_LINES }, (_, i) => i + 1);
    // 500 lines: the 20 products, each in 25 made-up colors (written straight to the table).
    await t.db
      .insertInto("saved_list_lines")
      .values(
        ids.map((i) => ({ list_id: full.id, product_id: (i % 20) + 1, color: `c${i}`, quantity: 1, created_at: now })),
      )
      .execute();
    expect(await refusal(addLineBySku(t.db, owner, full.id, sku(2), "1"))).toMatchObject({
      code: "LIST_TOO_LONG",
      status: 409,
    });
  });

  it("adds lines by SKU through quick order's check: unknown, archived or NUL SKUs and bad quantities are refused", async () => {
    const user = await newUser();
    const { id } = await createList(t.db, user, "Checks");
    expect(await addLineBySku(t.db, user, id, ` ${sku(1).toLowerCase()} `, "3")).toBe(
      `Added 3 × ${titles[1]} to “Checks”.`,
    );
    // The same SKU again adds to its line.
    await addLineBySku(t.db, user, id, sku(1), "2");
    expect(await refusal(addLineBySku(t.db, user, id, "TH-9999999", "1"))).toMatchObject({
      code: "UNKNOWN_SKU",
      message: "Unknown SKU TH-9999999.",
    });
    expect(await refusal(addLineBySku(t.db, user, id, "TH-0000\u00001", "1"))).toMatchObject({ code: "UNKNOWN_SKU" });
    expect(await refusal(addLineBySku(t.db, user, id, "", "1"))).toMatchObject({
      code: "UNKNOWN_SKU",
      message: "Give a SKU.",
    });
    expect(await refusal(addLineBySku(t.db, user, id, sku(7), "1"))).toMatchObject({
      code: "NO_LONGER_SOLD",
      message: `${titles[7]} is no longer sold.`,
    });
    for (const bad of ["0", "-1", "1.5", "abc", "10000", "", "1e3"]) {
      expect(await refusal(addLineBySku(t.db, user, id, sku(2), bad))).toMatchObject({
        code: "LIST_QUANTITY_INVALID",
        message: "Give the quantity as a whole number from 1 to 9,999.",
      });
    }
    // Out of stock is fine on a list: the stock is checked when it goes to the cart.
    await addLineBySku(t.db, user, id, sku(6), "9999");
    expect(await refusal(addLineBySku(t.db, user, id, sku(6), "1"))).toMatchObject({ code: "LIST_QUANTITY_TOO_HIGH" });
    expect(await linesOf(id)).toEqual([
      [1, 5],
      [6, 9999],
    ]);

    await setLineQuantity(t.db, user, id, { productId: 1, color: colors[1] }, "12");
    expect(await refusal(setLineQuantity(t.db, user, id, { productId: 1, color: colors[1] }, "0"))).toMatchObject({
      code: "LIST_QUANTITY_INVALID",
    });
    expect(await refusal(setLineQuantity(t.db, user, id, { productId: 2, color: colors[2] }, "3"))).toMatchObject({
      code: "LINE_NOT_FOUND",
      status: 404,
    });
    await removeLine(t.db, user, id, { productId: 6, color: colors[6] });
    expect(await linesOf(id)).toEqual([[1, 12]]);
  });

  it("a junk or NUL id never reaches the database, and another user's list is not found", async () => {
    for (const junk of ["abc", "1\u0000", "0", "-3", "99999999999", "1.5", "", " "])
      expect(parseRowId(junk)).toBeNull();
    const owner = await newUser();
    const stranger = await newUser();
    const { id } = await createList(t.db, owner, "Private");
    await addLineBySku(t.db, owner, id, sku(1), "1");
    for (const attempt of [
      () => savedListView(t.db, stranger, id),
      () => addListToCart(t.db, stranger, id),
      () => renameList(t.db, stranger, id, "Mine now"),
      () => deleteList(t.db, stranger, id),
      () => addLineBySku(t.db, stranger, id, sku(2), "1"),
      () => shareList(t.db, stranger, id, true),
      () => savedListView(t.db, owner, 2_147_483_647),
    ]) {
      expect(await refusal(attempt())).toMatchObject({ code: "LIST_NOT_FOUND", status: 404 });
    }
    expect((await listsFor(t.db, stranger)).lists).toEqual([]);
    expect(await t.db.selectFrom("saved_lists").select("name").where("id", "=", id).executeTakeFirst()).toEqual({
      name: "Private",
    });
    expect(await cartOf(stranger)).toEqual({});
  });

  it("a list shared with the company is seen and added to the cart by a colleague, who can't change it; another company never sees it", async () => {
    const org = await insertCompany(t.db, { name: "Sparks Ltd" });
    const owner = await insertMember(t.db, org, "buyer");
    const colleague = await insertMember(t.db, org, "buyer");
    const outsider = await insertMember(t.db, await insertCompany(t.db, { name: "Other Co" }), "owner");
    const solo = await newUser();
    const { id } = await createList(t.db, owner, "Van restock");
    await addLineBySku(t.db, owner, id, sku(2), "2");
    expect(await refusal(savedListView(t.db, colleague, id))).toMatchObject({ status: 404 });

    expect(await shareList(t.db, owner, id, true)).toBe(
      "“Van restock” is shared with Sparks Ltd: your colleagues can see it and add it to their carts.",
    );
    const seen = await listsFor(t.db, colleague);
    expect(seen.lists).toEqual([
      expect.objectContaining({ id, name: "Van restock", owned: false, sharedWith: "Sparks Ltd", lineCount: 1 }),
    ]);
    expect((await listsFor(t.db, owner)).lists).toEqual([
      expect.objectContaining({ id, owned: true, sharedWith: "Sparks Ltd" }),
    ]);
    expect(await savedListView(t.db, colleague, id)).toMatchObject({
      name: "Van restock",
      owned: false,
      shared: true,
      lines: [expect.objectContaining({ productId: 2, quantity: 2 })],
    });

    for (const attempt of [
      () => renameList(t.db, colleague, id, "Hijacked"),
      () => deleteList(t.db, colleague, id),
      () => addLineBySku(t.db, colleague, id, sku(3), "1"),
      () => setLineQuantity(t.db, colleague, id, { productId: 2, color: colors[2] }, "9"),
      () => removeLine(t.db, colleague, id, { productId: 2, color: colors[2] }),
      () => shareList(t.db, colleague, id, false),
    ]) {
      expect(await refusal(attempt())).toMatchObject({ code: "LIST_NOT_YOURS", status: 403 });
    }
    expect(await linesOf(id)).toEqual([[2, 2]]);

    const added = await addListToCart(t.db, colleague, id);
    expect(added).toMatchObject({
      ok: true,
      addedLines: 1,
      addedUnits: 2,
      message: "1 line (2 units) added to your cart.",
    });
    expect(await cartOf(colleague)).toEqual({ 2: 2 });
    expect(await cartOf(owner)).toEqual({});

    for (const viewer of [outsider, solo]) {
      expect((await listsFor(t.db, viewer)).lists).toEqual([]);
      expect(await refusal(savedListView(t.db, viewer, id))).toMatchObject({ status: 404 });
      expect(await refusal(addListToCart(t.db, viewer, id))).toMatchObject({ status: 404 });
    }
    // Only a company member can share.
    const own = await createList(t.db, solo, "Mine");
    expect(await refusal(shareList(t.db, solo, own.id, true))).toMatchObject({ code: "NO_COMPANY", status: 403 });

    // When the owner leaves the company, the list is no longer shared with it.
    await t.db.deleteFrom("member").where("userId", "=", owner).execute();
    expect((await listsFor(t.db, colleague)).lists).toEqual([]);
    expect(await refusal(savedListView(t.db, colleague, id))).toMatchObject({ status: 404 });
    await shareList(t.db, owner, id, false);
    expect(
      await t.db.selectFrom("saved_lists").select("organization_id").where("id", "=", id).executeTakeFirst(),
    ).toEqual({ organization_id: null });
  });

  it("adds the whole list to the cart in one go, merged with the cart's lines; short lines are offered what there is", async () => {
    const user = await newUser();
    const owner = `u:${user}`;
    await addToCart(t.db, owner, { productId: 1, quantity: 2 });
    const { id } = await createList(t.db, user, "Big job");
    await addLineBySku(t.db, user, id, sku(1), "3");
    await addLineBySku(t.db, user, id, sku(5), "10");
    await addLineBySku(t.db, user, id, sku(6), "1");
    await addLineBySku(t.db, user, id, sku(8), "150");
    await addLineBySku(t.db, user, id, sku(9), "4");
    // Archived after it was put on the list.
    await addLineBySku(t.db, user, id, sku(10), "1");
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", 10).execute();

    const result = await addListToCart(t.db, user, id);
    const byId = Object.fromEntries(result.lines.map((l) => [l.productId, l]));
    expect(byId[1]).toMatchObject({ status: "added", added: 3, reason: "Added." });
    expect(byId[5]).toMatchObject({ status: "not-added", added: 0, reason: "Only 4 in stock.", available: 4 });
    expect(byId[6]).toMatchObject({ status: "not-added", reason: "Out of stock.", available: null });
    expect(byId[8]).toMatchObject({
      status: "not-added",
      reason: "At most 100 of one item fit in a single order.",
      available: 100,
    });
    expect(byId[9]).toMatchObject({ status: "added", added: 4 });
    expect(byId[10]).toMatchObject({ status: "not-added", reason: "No longer sold." });
    expect(result.message).toBe("2 lines (7 units) added to your cart. 4 lines not added in full: see why below.");
    expect(await cartOf(user)).toEqual({ 1: 5, 9: 4 });

    // The offer: the 4 there are of product 5.
    const offer = await addAvailableToCart(t.db, user, id, { productId: 5, color: colors[5] });
    expect(offer.lines[0]).toMatchObject({ status: "added", added: 4, reason: "4 added instead of 10." });
    expect(await cartOf(user)).toEqual({ 1: 5, 9: 4, 5: 4 });
    // Asked again, the cart already holds all there is.
    const again = await addAvailableToCart(t.db, user, id, { productId: 5, color: colors[5] });
    expect(again).toMatchObject({ ok: false, addedUnits: 0 });
    expect(again.lines[0].reason).toBe("Not added: your cart already holds all we have in stock.");
    expect(await refusal(addAvailableToCart(t.db, user, id, { productId: 2, color: colors[2] }))).toMatchObject({
      code: "LINE_NOT_FOUND",
    });

    const empty = await createList(t.db, user, "Empty");
    expect(await refusal(addListToCart(t.db, user, empty.id))).toMatchObject({ code: "LIST_EMPTY", status: 400 });
    await t.db.updateTable("products").set({ archived_at: null }).where("id", "=", 10).execute();
  });

  it("saves the cart as a new list, and refuses an empty cart or a taken name", async () => {
    const user = await newUser();
    expect(await refusal(saveCartAsList(t.db, user, "From cart"))).toMatchObject({ code: "CART_EMPTY", status: 400 });
    await addToCart(t.db, `u:${user}`, { productId: 3, quantity: 7 });
    await addToCart(t.db, `u:${user}`, { productId: 4, quantity: 1 });
    const saved = await saveCartAsList(t.db, user, "From cart");
    expect(saved).toMatchObject({ name: "From cart", lines: 2 });
    expect(await linesOf(saved.id)).toEqual([
      [3, 7],
      [4, 1],
    ]);
    const view = await savedListView(t.db, user, saved.id);
    expect(view.lines.map((l) => [l.productId, l.color, l.quantity])).toEqual([
      [3, colors[3], 7],
      [4, colors[4], 1],
    ]);
    // Priced as the cart prices them.
    const cart = await getCart(t.db, `u:${user}`);
    expect(view.lines.map((l) => l.unitPriceCents)).toEqual(cart.lines.map((l) => l.unitPriceCents));
    expect(view.totalCents).toBe(cart.totalCents);
    expect(await cartOf(user)).toEqual({ 3: 7, 4: 1 });
    expect(await refusal(saveCartAsList(t.db, user, "from CART"))).toMatchObject({ code: "LIST_NAME_TAKEN" });
    expect((await listsFor(t.db, user)).lists).toHaveLength(1);
  });

  it("the data export holds the user's lists, and deleting the account deletes them", async () => {
    const user = await newUser();
    const { id } = await createList(t.db, user, "Export me");
    await addLineBySku(t.db, user, id, sku(2), "6");
    const data = await exportAccountData(t.db, user);
    expect(data.savedLists).toEqual([
      expect.objectContaining({
        name: "Export me",
        sharedWithCompany: false,
        lines: [expect.objectContaining({ productId: 2, title: titles[2], quantity: 6 })],
      }),
    ]);
    await eraseAccount(t.db, user);
    expect(await t.db.selectFrom("saved_lists").select("id").where("user_id", "=", user).execute()).toEqual([]);
    expect(await linesOf(id)).toEqual([]);
  });
});
