import { randomBytes } from "node:crypto";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { CheckoutReviewError } from "../../server/orders/checkout-review.ts";
import {
  parseMonth,
  parseQuarter,
  recentPeriods,
  reportPeriod,
  ukVatCsv,
  ukVatRows,
  usSalesTaxCsv,
  usSalesTaxRows,
} from "../../server/tax/reports.ts";
import { saveUsStates } from "../../server/tax/us-tax-settings.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "staff" };
const admin: StaffActor = { userId: "admin-1", name: "Ada Admin", role: "admin" };
const customer: StaffActor = { userId: "cust-1", name: "Cy Customer", role: "customer" };
const NOVEMBER = new Date("2026-11-15T12:00:00Z");

describe("report periods", () => {
  it("reads a quarter and a month in UTC, and refuses anything else with a reason", () => {
    expect(parseQuarter("2026-Q4")).toEqual({
      label: "2026-Q4",
      from: "2026-10-01T00:00:00.000Z",
      to: "2027-01-01T00:00:00.000Z",
    });
    expect(parseMonth("2026-02")).toEqual({
      label: "2026-02",
      from: "2026-02-01T00:00:00.000Z",
      to: "2026-03-01T00:00:00.000Z",
    });
    for (const bad of ["2026-Q5", "2026-q1", "1999-Q1", "26-Q1", "", "2026-Q1;drop"])
      expect(parseQuarter(bad)).toBeNull();
    for (const bad of ["2026-13", "2026-1", "2026-00", "x"]) expect(parseMonth(bad)).toBeNull();
    expect(() => reportPeriod("month", null)).toThrow("Choose a month, like 2026-12.");
    expect(recentPeriods(new Date("2026-02-10T00:00:00Z"), 3)).toEqual({
      quarters: ["2026-Q1", "2025-Q4", "2025-Q3"],
      months: ["2026-02", "2026-01", "2025-12"],
    });
  });
});

const body0 = (csv: string[][]) => csv.slice(1, -1);

describe.each(dialects)("tax reports (%s)", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
    await t.db
      .updateTable("products")
      .set({
        price_cents: 4_999,
        sale_price_cents: 4_999,
        uk_price_pence: 4_199,
        uk_sale_price_pence: 4_199,
        discount_percent: null,
        stock_quantity: 500,
      })
      .where("id", "in", [8, 9])
      .execute();
    const ca = await t.db.selectFrom("tax_us_states").selectAll().where("code", "=", "CA").executeTakeFirstOrThrow();
    await saveUsStates(t.db, admin, [
      { code: "CA", rate: "7.25", shippingTaxable: false, collect: true, version: Number(ca.version), shown: null },
    ]);
    const order = async (fields: Record<string, string>, quantity: number, now = NOVEMBER) => {
      const userId = `user-${randomBytes(5).toString("hex")}`;
      await addToCart(t.db, `u:${userId}`, { productId: quantity % 2 ? 8 : 9, quantity });
      const input = { owner: `u:${userId}`, userId, siteUrl: "http://x", now };
      const checkout = checkoutSchema.parse({
        ...validCheckoutForm,
        ...fields,
        checkoutToken: randomBytes(18).toString("base64url"),
      });
      try {
        return await placeOrder(t.db, { ...input, checkout });
      } catch (error) {
        if (!(error instanceof CheckoutReviewError)) throw error;
        return placeOrder(t.db, { ...input, checkout: { ...checkout, shownTaxCents: error.review.tax!.taxCents } });
      }
    };
    const uk = { country: "GB", postcode: "SW1A 1AA", region: "" };
    const la = { postcode: "90001", region: "CA" };
    await order(uk, 1);
    await order(uk, 3);
    const refunded = await order(uk, 2);
    await t.db.updateTable("orders").set({ refunded_cents: 5_000 }).where("number", "=", refunded.number).execute();
    const cancelled = await order(uk, 5);
    await t.db.updateTable("orders").set({ status: "cancelled" }).where("number", "=", cancelled.number).execute();
    await order(uk, 1, new Date("2026-07-01T00:00:00Z")); // another quarter
    await order(la, 1);
    await order(la, 4);
    await order({}, 2); // New York: not collected
    await order(la, 1, new Date("2026-12-01T00:00:00Z")); // another month
  });
  afterAll(() => t?.drop());

  const sold = (country: string, from: string, to: string) =>
    t.db
      .selectFrom("orders")
      .selectAll()
      .where("ship_country", "=", country)
      .where("status", "!=", "cancelled")
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .execute();
  const lineSum = async (orderIds: number[], included: number) =>
    (
      await t.db
        .selectFrom("order_tax_lines")
        .select("tax_cents")
        .where("order_id", "in", orderIds)
        .where("included", "=", included)
        .execute()
    ).reduce((s, l) => s + Number(l.tax_cents), 0);

  it("the UK VAT summary lists the quarter's sales and matches their stored VAT to the cent", async () => {
    const period = parseQuarter("2026-Q4")!;
    const rows = await ukVatRows(t.db, staff, period);
    const orders = await sold("GB", period.from, period.to);
    expect(rows.map((r) => r.number).sort()).toEqual(orders.map((o) => o.number).sort());
    expect(rows).toHaveLength(3);
    const vat = rows.reduce((s, r) => s + r.vatCents, 0);
    expect(vat).toBe(
      await lineSum(
        orders.map((o) => o.id),
        1,
      ),
    );
    expect(rows.reduce((s, r) => s + r.salesCents, 0)).toBe(orders.reduce((s, o) => s + o.total_cents, 0));
    const refunded = rows.find((r) => r.refundedCents > 0)!;
    expect(refunded.vatRefundedCents).toBe(Math.round((refunded.vatCents * 5_000) / refunded.salesCents));

    const csv = parse(ukVatCsv(rows)) as string[][];
    expect(csv[0]).toEqual([
      "order",
      "date",
      "status",
      "currency",
      "sales_incl_vat",
      "net",
      "output_vat",
      "refunded",
      "vat_refunded",
    ]);
    const total = csv.at(-1)!;
    // A shopper's UK order is in pounds (at the UK price, £41.99 a unit).
    expect(total.slice(0, 4)).toEqual(["Total", "", "3 orders", "GBP"]);
    expect(body0(csv).every((r) => r[3] === "GBP")).toBe(true);
    expect(total[6]).toBe((vat / 100).toFixed(2));
    const body = csv.slice(1, -1);
    expect(body.reduce((s, r) => s + Math.round(Number(r[6]) * 100), 0)).toBe(vat);
  });

  it("totals the UK VAT summary per currency: pounds and dollars are never added together", () => {
    const row = (number: string, currency: "usd" | "gbp", salesCents: number, vatCents: number) => ({
      number,
      date: "2026-12-01",
      status: "placed",
      currency,
      salesCents,
      vatCents,
      refundedCents: 0,
      vatRefundedCents: 0,
    });
    const csv = parse(
      ukVatCsv([row("TH-1", "usd", 12_000, 2_000), row("TH-2", "gbp", 6_000, 1_000), row("TH-3", "gbp", 1_200, 200)]),
    ) as string[][];
    expect(csv.slice(1, 4).map((r) => r[3])).toEqual(["USD", "GBP", "GBP"]);
    expect(csv.slice(4)).toEqual([
      ["Total", "", "1 orders", "USD", "120.00", "100.00", "20.00", "0.00", "0.00"],
      ["Total", "", "2 orders", "GBP", "72.00", "60.00", "12.00", "0.00", "0.00"],
    ]);
    expect(parse(ukVatCsv([])) as string[][]).toEqual([
      ["order", "date", "status", "currency", "sales_incl_vat", "net", "output_vat", "refunded", "vat_refunded"],
      ["Total", "", "0 orders", "GBP", "0.00", "0.00", "0.00", "0.00", "0.00"],
    ]);
  });

  it("the US report sums each state's month to the cent: California collected, New York not registered", async () => {
    const period = parseMonth("2026-11")!;
    const rows = await usSalesTaxRows(t.db, staff, period);
    expect(rows.map((r) => r.state)).toEqual(["CA", "NY"]);
    const orders = await sold("US", period.from, period.to);
    const ca = orders.filter((o) => o.tax_state === "CA");
    expect(rows[0]).toMatchObject({
      orders: 2,
      salesCents: ca.reduce((s, o) => s + o.total_cents - o.tax_cents, 0),
      stateTaxCents: ca.reduce((s, o) => s + o.tax_cents, 0),
      localTaxCents: 0,
      uncollectedSalesCents: 0,
    });
    expect(rows[0].stateTaxCents).toBe(
      await lineSum(
        ca.map((o) => o.id),
        0,
      ),
    );
    expect(rows[0].stateTaxCents).toBeGreaterThan(0);
    const ny = orders.filter((o) => o.tax_state === "NY");
    expect(rows[1]).toMatchObject({ orders: 1, stateTaxCents: 0, uncollectedSalesCents: ny[0].total_cents });
    const csv = parse(usSalesTaxCsv(rows)) as string[][];
    expect(csv[1].slice(0, 4)).toEqual(["CA", "California", "USD", "2"]);
    expect(Math.round(Number(csv[1][6]) * 100)).toBe(rows[0].stateTaxCents);
  });

  it("staff and admins may read the reports; a customer may not", async () => {
    const period = parseMonth("2026-11")!;
    await expect(usSalesTaxRows(t.db, customer, period)).rejects.toMatchObject({ status: 403 });
    await expect(ukVatRows(t.db, customer, period)).rejects.toMatchObject({ status: 403 });
    expect(await usSalesTaxRows(t.db, admin, parseMonth("2030-01")!)).toEqual([]);
  });
});
