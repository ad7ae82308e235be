import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProductDetail } from "../../server/catalog/catalog.ts";
import { exportProductsCsv } from "../../server/catalog/product-export.ts";
import { applyImport, previewImport } from "../../server/catalog/product-import.ts";
import { searchProducts } from "../../server/catalog/search.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import type { Db } from "../../server/db/connection.ts";
import { seedCatalog } from "../../server/db/seed/seed.ts";
import { adjustStock } from "../../server/inventory/adjust.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";

const staff: StaffActor = { userId: "staff-9", name: "Ivy Import", role: "staff" };
const customer: StaffActor = { userId: "c-9", name: "Cus", role: "customer" };

async function bySku(db: Db, sku: string) {
  return db.selectFrom("products").selectAll().where("sku", "=", sku).executeTakeFirst();
}

async function exportText(db: Db): Promise<string> {
  let out = "";
  for await (const chunk of exportProductsCsv(db, staff)) out += chunk;
  return out;
}

describe.each(dialects)("CSV import and export on %s", (kind) => {
  let t: TestDb;
  let db: Db;
  beforeAll(async () => {
    t = await freshDb(kind);
    db = t.db;
    await seedCatalog(db, { products: 30 });
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("previews stock rows, reports each bad row by line number, and writes nothing", async () => {
    const before = (await bySku(db, "TH-0000001"))!.stock_quantity;
    const csv = [
      "sku,stock",
      "TH-0000001,250",
      "TH-0000002,abc",
      "NOPE-1,4",
      "TH-0000003,-1",
      "th-0000001,9",
      "TH-0000004",
    ].join("\n");
    const plan = await previewImport(db, staff, csv);
    expect(plan.mode).toBe("stock");
    expect(plan.errors).toEqual([
      { line: 3, message: expect.stringContaining("whole number") },
      { line: 4, message: "No product has SKU NOPE-1." },
      { line: 5, message: expect.stringContaining("between 0") },
      { line: 6, message: "SKU TH-0000001 already appears on line 2." },
      { line: 7, message: "Expected 2 values, found 1." },
    ]);
    expect(plan.rows).toEqual([
      {
        line: 2,
        sku: "TH-0000001",
        action: before === 250 ? "unchanged" : "update",
        changes: [`stock ${before} → 250`],
      },
    ]);
    expect((await bySku(db, "TH-0000001"))!.stock_quantity).toBe(before);
    // Applying a file with bad rows is refused as a whole.
    await expect(applyImport(db, staff, csv, plan.hash)).rejects.toMatchObject({ code: "import_invalid" });
    expect((await bySku(db, "TH-0000001"))!.stock_quantity).toBe(before);
    expect(await db.selectFrom("stock_movements").select("id").where("reason", "=", "import").execute()).toHaveLength(
      0,
    );
  });

  it("refuses a header that is neither shape", async () => {
    const plan = await previewImport(db, staff, "sku,price\nTH-0000001,3.00\n");
    expect(plan.mode).toBeNull();
    expect(plan.errors[0]).toMatchObject({ line: 1, message: expect.stringContaining("missing") });
    expect((await previewImport(db, staff, "sku,stock,colour\n")).errors[0].message).toContain("Unknown column");
  });

  it("applies stock rows in one transaction through the ledger (reason import), with audit rows", async () => {
    const csv = "sku,stock\r\nTH-0000001,250\r\nTH-0000002,0\r\n";
    const plan = await previewImport(db, staff, csv);
    expect(plan.errors).toEqual([]);
    const result = await applyImport(db, staff, csv.replaceAll("\r\n", "\n"), plan.hash);
    expect(result.updated).toBe(plan.rows.filter((r) => r.action === "update").length);
    expect((await bySku(db, "TH-0000001"))!.stock_quantity).toBe(250);
    expect((await bySku(db, "TH-0000002"))!.stock_quantity).toBe(0);
    const moves = await db.selectFrom("stock_movements").selectAll().where("reason", "=", "import").execute();
    expect(moves.every((m) => m.actor === "staff:staff-9")).toBe(true);
    expect(moves.map((m) => m.stock_after).sort((a, b) => a - b)).toEqual(expect.arrayContaining([250]));
    const audit = await db.selectFrom("audit_log").select("action").where("actor_id", "=", "staff-9").execute();
    expect(audit.map((a) => a.action)).toContain("stock.import");
    expect(audit.map((a) => a.action)).toContain("product.import");
  });

  it("refuses to apply when the catalog changed since the preview, writing nothing", async () => {
    const csv = "sku,stock\nTH-0000005,77\n";
    const plan = await previewImport(db, staff, csv);
    const id = (await bySku(db, "TH-0000005"))!.id;
    await adjustStock(db, staff, id, { reason: "received", change: 1, note: "" });
    const now = (await bySku(db, "TH-0000005"))!.stock_quantity;
    await expect(applyImport(db, staff, csv, plan.hash)).rejects.toMatchObject({ code: "import_changed", status: 409 });
    await expect(applyImport(db, staff, "sku,stock\nTH-0000005,78\n", plan.hash)).rejects.toMatchObject({
      code: "import_changed",
    });
    expect((await bySku(db, "TH-0000005"))!.stock_quantity).toBe(now);
  });

  it("exports every product as CSV that imports back unchanged, then creates and updates from full rows atomically", async () => {
    const text = await exportText(db);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(30);
    expect(Object.keys(rows[0])).toEqual(
      expect.arrayContaining([
        "id",
        "sku",
        "title",
        "brand",
        "category",
        "price",
        "stock",
        "return_policy",
        "archived",
      ]),
    );
    expect(rows.find((r) => r.sku === "TH-0000001")!.stock).toBe("250");
    const again = await previewImport(db, staff, text);
    expect(again.errors).toEqual([]);
    expect(again.rows.filter((r) => r.action !== "unchanged")).toEqual([]);

    const header = text.split("\n")[0];
    const first = rows[0];
    const line = (r: Record<string, string>) => stringify([header.split(",").map((h) => r[h] ?? "")]).trimEnd();
    const edited = { ...first, price: "77.70", title: `${first.title} Mk II` };
    const created = { ...first, id: "", sku: "NEW-42", title: "Numbatwerk Torque Wrench", stock: "12" };
    const bad = { ...first, sku: "NEW-43", brand: "no-such-brand" };
    const csv = [header, line(edited), line(created), line(bad)].join("\n");
    // Line numbers are the file's own lines (a feature list spans several).
    const startLine = (record: string) => csv.slice(0, csv.indexOf(record)).split("\n").length;
    const plan = await previewImport(db, staff, csv);
    expect(plan.errors).toEqual([{ line: startLine(line(bad)), message: expect.stringContaining("no brand") }]);
    await expect(applyImport(db, staff, csv, plan.hash)).rejects.toMatchObject({ code: "import_invalid" });
    expect(await bySku(db, "NEW-42")).toBeUndefined();

    const good = [header, line(edited), line(created)].join("\n");
    const plan2 = await previewImport(db, staff, good);
    expect(plan2.rows.map((r) => [r.line, r.action])).toEqual([
      [2, "update"],
      [startLine(line(created)), "create"],
    ]);
    expect(plan2.rows[0].changes).toEqual(expect.arrayContaining(["title", "price"]));
    expect(await applyImport(db, staff, good, plan2.hash)).toEqual({ created: 1, updated: 1 });
    const made = (await bySku(db, "NEW-42"))!;
    expect(made.stock_quantity).toBe(12);
    expect((await getProductDetail(db, Number(first.id)))!.priceCents).toBe(7770);
    expect((await searchProducts(db, { q: "numbatwerk" })).items.map((i) => i.id)).toEqual([made.id]);
    const ledger = await db
      .selectFrom("stock_movements")
      .select(["reason", "delta"])
      .where("product_id", "=", made.id)
      .execute();
    expect(ledger).toEqual([{ reason: "import", delta: 12 }]);
  });

  it("refuses customers", async () => {
    await expect(previewImport(db, customer, "sku,stock\n")).rejects.toMatchObject({ status: 403 });
    await expect(applyImport(db, customer, "sku,stock\n", "x")).rejects.toMatchObject({ status: 403 });
    await expect(exportProductsCsv(db, customer).next()).rejects.toMatchObject({ status: 403 });
  });
});
