/**
 * Invoices on SQLite and PostgreSQL: one per order, numbered from a gap-free sequence even when
 * many are issued at once, only for placed orders, UK VAT shown at 20%, net-30 due dates, and a
 * PDF whose text holds the PO number, VAT number and totals.
 */
import { randomBytes } from "node:crypto";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { invoicePdf, SELLER_VAT_NUMBER } from "../../server/invoices/InvoiceDocument.tsx";
import {
  includedVatCents,
  invoiceForAccessToken,
  invoiceForCustomer,
  invoiceForStaff,
  issueInvoice,
} from "../../server/invoices/invoices.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { net30Buyer } from "./trade-support.ts";

const token = () => randomBytes(18).toString("base64url");

async function pdfText(buffer: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(buffer)), { mergePages: true });
  return text;
}

describe.each(dialects)("invoices on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 10);
    await t.db.updateTable("products").set({ stock_quantity: 1000 }).execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function order(userId: string | null, extra: Record<string, string> = {}, quantity = 2) {
    const owner = userId ? `u:${userId}` : `g:${randomBytes(6).toString("hex")}`;
    await addToCart(t.db, owner, { productId: 3, quantity });
    const placed = await placeOrder(t.db, {
      owner,
      userId,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, ...extra, checkoutToken: token() }),
      siteUrl: "http://x",
    });
    return t.db.selectFrom("orders").selectAll().where("number", "=", placed.number).executeTakeFirstOrThrow();
  }

  it("numbers invoices from a gap-free sequence: 12 issued at once, plus the same order 5 times at once, make 12 numbers in a row", async () => {
    const orders = await Promise.all(Array.from({ length: 12 }, (_, i) => order(`user-seq-${i}`)));
    const before = await t.db.selectFrom("invoices").select("number").execute();
    const issued = await Promise.all([
      ...orders.map((o) => issueInvoice(t.db, o.id)),
      ...Array.from({ length: 5 }, () => issueInvoice(t.db, orders[0].id)),
    ]);
    expect(new Set(issued.slice(12).map((i) => i.number))).toEqual(new Set([issued[0].number]));
    const numbers = (await t.db.selectFrom("invoices").select("number").execute())
      .map((r) => Number(r.number.slice(4)))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: before.length + 12 }, (_, i) => i + 1));
  });

  it("refuses an invoice for an order that was never placed, and gives back no number", async () => {
    const held = await order(null);
    expect(held.status).toBe("awaiting_confirmation");
    const last = await t.db.selectFrom("invoice_sequence").select("last_number").executeTakeFirstOrThrow();
    await expect(issueInvoice(t.db, held.id)).rejects.toMatchObject({ code: "NO_INVOICE_YET", status: 409 });
    expect(await t.db.selectFrom("invoice_sequence").select("last_number").executeTakeFirstOrThrow()).toEqual(last);
  });

  it("a UK business's net-30 invoice: VAT number, PO, VAT at 20% included, due in 30 days, and the PDF says so", async () => {
    await net30Buyer(t.db, { name: "Hammer & Sons Ltd", country: "GB", taxId: "GB123456789", userId: "user-uk" });
    const placed = await order(
      "user-uk",
      { country: "GB", postcode: "SW1A 1AA", paymentMethod: "invoice-net30", poNumber: "PO-77" },
      12,
    );
    expect(placed.po_number).toBe("PO-77");
    const invoice = (await invoiceForCustomer(t.db, "user-uk", placed.number))!;
    const vat = { label: "VAT 20%", taxCents: includedVatCents(placed.total_cents), included: true };
    expect(invoice.tax).toEqual({ lines: [vat], note: null });
    expect(new Date(invoice.dueAt!).getTime() - new Date(invoice.issuedAt).getTime()).toBe(30 * 86_400_000);
    expect(invoice.billing).toMatchObject({ name: "Hammer & Sons Ltd", taxLabel: "VAT number", taxId: "GB123456789" });
    // Product 3 has the seeded volume break (10+ −5%): the invoice shows list, discount and unit price.
    expect(invoice.lines[0]).toMatchObject({ quantity: 12 });
    expect(invoice.lines[0].listCents! > invoice.lines[0].unitCents).toBe(true);
    const text = await pdfText(await invoicePdf(invoice));
    for (const part of [
      `Invoice ${invoice.number}`,
      "PO number: PO-77",
      "VAT number: GB123456789",
      `VAT number: ${SELLER_VAT_NUMBER}`,
      `Total${formatMoney(placed.total_cents)}`,
      `Includes VAT 20%${formatMoney(vat.taxCents)}`,
      "Prices include UK VAT.",
      "All amounts are in US dollars (USD).",
      "5%",
      "net 30 days",
    ]) {
      expect(text.replace(/\s+/g, ""), part).toContain(part.replace(/\s+/g, ""));
    }
  });

  it("a US order in a state the store doesn't collect in says so; only its own customer, staff and the guest link get it", async () => {
    const placed = await order("user-us");
    expect(await invoiceForCustomer(t.db, "user-other", placed.number)).toBeNull();
    expect(await invoiceForCustomer(t.db, "user-us", "TH-nope")).toBeNull();
    const invoice = (await invoiceForStaff(t.db, placed.number))!;
    expect(invoice.tax).toEqual({ lines: [], note: "No sales tax: we don't collect it for deliveries to New York." });
    expect(invoice.dueAt).toBeNull();
    expect(await pdfText(await invoicePdf(invoice))).toContain("we don't collect it for deliveries to New York");
    expect((await invoiceForAccessToken(t.db, placed.access_token))!.number).toBe(invoice.number);
    expect(await invoiceForAccessToken(t.db, "x".repeat(32))).toBeNull();
  });

  it("an order in pounds has its invoice in pounds and says so", async () => {
    const placed = await order("user-uk", { country: "GB", postcode: "SW1A 1AA", city: "London", region: "" });
    await t.db.updateTable("orders").set({ currency: "gbp" }).where("number", "=", placed.number).execute();
    const invoice = (await invoiceForCustomer(t.db, "user-uk", placed.number))!;
    expect(invoice.currency).toBe("gbp");
    const text = (await pdfText(await invoicePdf(invoice))).replace(/\s+/g, "");
    expect(text).toContain(`Total${formatMoney(placed.total_cents, "gbp")}`.replace(/\s+/g, ""));
    expect(text).toContain("Allamountsareinpoundssterling(GBP).");
    expect(text).not.toContain("$");
  });

  it("includedVatCents is the VAT inside a tax-inclusive amount", () => {
    expect([includedVatCents(12_000), includedVatCents(999), includedVatCents(0)]).toEqual([2_000, 167, 0]);
  });
});
