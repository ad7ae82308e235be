/**
 * Quick order through the database: every line checked at once with its line number and reason,
 * duplicates merged, the good lines put in the cart in one transaction within the cart's caps, on
 * SQLite and PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINE_QUANTITY, MAX_ORDER_QUANTITY } from "../../app/lib/order-rules.ts";
import { addLinesToCart } from "../../server/cart/add-lines.ts";
import { getCart } from "../../server/cart/cart.ts";
import {
  addQuickOrderToCart,
  checkQuickOrder,
  parseQuickOrderCsv,
  quickOrderRows,
  suggestSkus,
} from "../../server/trade/quick-order.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const owner = () => `guest:${randomBytes(8).toString("hex")}`;
const sku = (id: number) => `TH-${String(id).padStart(7, "0")}`;

describe.each(dialects)("quick order on %s", (kind) => {
  let t: TestDb;

  beforeAll(async () => {
    t = await freshSeededDb(kind, 40);
    await t.db.updateTable("products").set({ stock_quantity: 500 }).execute();
    await t.db.updateTable("products").set({ stock_quantity: 4 }).where("id", "=", 5).execute();
    await t.db.updateTable("products").set({ stock_quantity: 0 }).where("id", "=", 6).execute();
    await t.db.updateTable("products").set({ archived_at: new Date().toISOString() }).where("id", "=", 7).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("checks every line with its line number and reason, and merges a SKU given twice into its first line", async () => {
    const csv = [
      "sku,quantity",
      `${sku(1)},3`,
      "TH-9999999,2",
      `${sku(5)},10`,
      `${sku(6)},1`,
      `${sku(7)},1`,
      `${sku(2)},abc`,
      `${sku(1)},2`,
      "",
      `${sku(3)},`,
      `th-0000004 , 150`,
    ].join("\n");
    const check = await checkQuickOrder(t.db, parseQuickOrderCsv(csv));
    const byLabel = Object.fromEntries(check.lines.map((l) => [l.label, l]));
    expect(byLabel["Line 2"]).toMatchObject({ status: "ok", quantity: 5, productId: 1, reason: null });
    expect(byLabel["Line 3"]).toMatchObject({ status: "problem", reason: "Unknown SKU TH-9999999." });
    expect(byLabel["Line 4"]).toMatchObject({ status: "problem", available: 4 });
    expect(byLabel["Line 4"].reason).toMatch(/^Only 4 of .+ in stock\.$/);
    expect(byLabel["Line 5"].reason).toMatch(/ is out of stock\.$/);
    expect(byLabel["Line 5"].available).toBeNull();
    expect(byLabel["Line 6"].reason).toMatch(/ is no longer sold\.$/);
    expect(byLabel["Line 7"]).toMatchObject({
      status: "problem",
      reason: '"abc" is not a quantity: give a whole number of at least 1.',
    });
    expect(byLabel["Line 8"]).toMatchObject({ status: "merged", reason: "Merged into line 2.", mergedInto: "Line 2" });
    expect(byLabel["Line 10"]).toMatchObject({ status: "problem", reason: "Give a quantity." });
    // Case and spaces don't matter; more than one line's cap offers the cap.
    expect(byLabel["Line 11"]).toMatchObject({
      status: "problem",
      reason: `At most ${MAX_LINE_QUANTITY} of one item fit in a single order.`,
      available: MAX_LINE_QUANTITY,
      productId: 4,
    });
    expect({ ok: check.ok, problems: check.problems, merged: check.merged }).toEqual({ ok: 1, problems: 7, merged: 1 });
  });

  it("puts the good lines in the cart in one go, the offered amount where taken, and leaves the rest", async () => {
    const cart = owner();
    const raw = parseQuickOrderCsv(
      [`${sku(1)},3`, "TH-9999999,2", `${sku(5)},10`, `${sku(8)},2`, `${sku(1)},2`, `${sku(9)},7`].join("\n"),
    );
    const result = await addQuickOrderToCart(t.db, cart, raw, new Set(["Line 3"]));
    expect({ lines: result.addedLines, units: result.addedUnits }).toEqual({ lines: 4, units: 5 + 4 + 2 + 7 });
    expect(result.leftOver).toEqual([{ label: "Line 2", sku: "TH-9999999", quantity: "2" }]);
    const view = await getCart(t.db, cart);
    expect(Object.fromEntries(view.lines.map((l) => [l.productId, l.quantity]))).toEqual({ 1: 5, 5: 4, 8: 2, 9: 7 });
  });

  it("a line over the stock is not added unless its offer is taken", async () => {
    const cart = owner();
    const result = await addQuickOrderToCart(t.db, cart, parseQuickOrderCsv(`${sku(5)},10`), new Set());
    expect(result.addedLines).toBe(0);
    expect((await getCart(t.db, cart)).lines).toEqual([]);
  });

  it("keeps within the stock counting what the cart already holds, and within one order's cap", async () => {
    const cart = owner();
    await addQuickOrderToCart(t.db, cart, parseQuickOrderCsv(`${sku(5)},3`), new Set());
    const again = await addQuickOrderToCart(t.db, cart, parseQuickOrderCsv(`${sku(5)},3`), new Set());
    expect(again.addedUnits).toBe(1);
    expect(again.check.lines[0].reason).toBe("1 added: your cart already holds all we have in stock.");
    const big = owner();
    const rows = Array.from({ length: 12 }, (_, i) => `${sku(10 + i)},100`).join("\n");
    const capped = await addQuickOrderToCart(t.db, big, parseQuickOrderCsv(rows), new Set());
    expect(capped.addedUnits).toBe(MAX_ORDER_QUANTITY);
    expect((await getCart(t.db, big)).totalQuantity).toBe(MAX_ORDER_QUANTITY);
    expect(capped.check.lines.at(-1)!.reason).toBe(
      "Not added: your cart is at the most units a single order can take.",
    );
    expect(capped.leftOver.map((l) => l.label)).toEqual(["Line 11", "Line 12"]);
  });

  it("two quick orders into one cart at once both count", async () => {
    const cart = owner();
    await Promise.all([
      addLinesToCart(t.db, cart, [{ productId: 12, color: "", quantity: 5 }]),
      addLinesToCart(t.db, cart, [{ productId: 12, color: "", quantity: 7 }]),
    ]);
    const view = await getCart(t.db, cart);
    expect(view.lines.find((l) => l.productId === 12)?.quantity).toBe(12);
  });

  it("a SKU with a NUL in it is an unknown SKU, never a database error", async () => {
    const check = await checkQuickOrder(t.db, quickOrderRows(["TH-\u00000001", sku(1)], ["1", "1"]));
    expect(check.lines.map((l) => [l.status, l.reason])).toEqual([
      ["problem", "Unknown SKU TH-\u00000001."],
      ["ok", null],
    ]);
  });

  it("typed rows are numbered as on the page; empty rows are skipped", () => {
    expect(quickOrderRows(["", sku(1), " th-0000002 "], ["", "2", "3"])).toEqual([
      { label: "Row 2", sku: sku(1), quantity: "2" },
      { label: "Row 3", sku: "th-0000002", quantity: "3" },
    ]);
  });

  it("refuses more than 500 lines and a CSV it can't read, with a reason", () => {
    const many = Array.from({ length: 501 }, (_, i) => `${sku(1 + (i % 30))},1`).join("\n");
    expect(() => parseQuickOrderCsv(many)).toThrow("A quick order takes at most 500 lines; this one has 501.");
    expect(() => parseQuickOrderCsv(`${sku(1)},"2\n${sku(2)},3`)).toThrow(/could not be read/);
    expect(parseQuickOrderCsv("  \n\n")).toEqual([]);
  });

  it("suggests live SKUs from what was typed, never archived ones", async () => {
    const found = await suggestSkus(t.db, "th-000000");
    expect(found.map((f) => f.sku)).toEqual([
      "TH-0000001",
      "TH-0000002",
      "TH-0000003",
      "TH-0000004",
      "TH-0000005",
      "TH-0000006",
      "TH-0000008",
      "TH-0000009",
    ]);
    expect(await suggestSkus(t.db, "%")).toEqual([]);
    expect(await suggestSkus(t.db, "T")).toEqual([]);
  });
});
