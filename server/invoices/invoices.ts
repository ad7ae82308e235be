/**
 * Invoices: one per placed order, issued the first time anyone asks for it (the customer's or
 * staff's download), numbered INV-000001… from a gap-free sequence, with everything the PDF shows.
 */
import type { Selectable, Transaction } from "kysely";
import { COUNTRIES, type SummaryTax } from "../../app/lib/order-rules.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database, OrderTable } from "../db/schema.ts";
import { ConflictError } from "../errors.ts";
import { orderLinesWithSku } from "../orders/line-skus.ts";
import { ownOrderId } from "../orders/own-order.ts";
import { orderTaxView } from "../tax/order-tax-view.ts";

/** Net-30: days from the invoice's date to its due date. */
export const NET_TERMS_DAYS = 30;
/** UK VAT, included in the prices: shown on a UK buyer's invoice. */
const UK_VAT_PERCENT = 20;
/** Statuses of an order that was never placed: no invoice. */
const NEVER_PLACED = ["awaiting_confirmation", "awaiting_payment", "awaiting_approval", "expired"];

const formatNumber = (n: number) => `INV-${String(n).padStart(6, "0")}`;

/** The next number of the sequence, inside the caller's transaction (a rollback gives it back). */
async function nextInvoiceNumber(trx: Transaction<Database>): Promise<string> {
  const row = await trx
    .updateTable("invoice_sequence")
    .set((eb) => ({ last_number: eb("last_number", "+", 1) }))
    .where("name", "=", "invoices")
    .returning("last_number")
    .executeTakeFirstOrThrow();
  return formatNumber(row.last_number);
}

/**
 * Issues the order's invoice inside the caller's transaction (the order row is locked first, so
 * concurrent issues of one order queue and the later ones see the first one's invoice). A net-30
 * invoice is due NET_TERMS_DAYS after it is issued; an order already paid gets a paid invoice.
 */
export async function issueInvoiceInTransaction(trx: Transaction<Database>, orderId: number, now = new Date()) {
  const order = await trx
    .selectFrom("orders")
    .select(["id", "status", "payment_method", "payment_status", "total_cents", "organization_id", "version"])
    .where("id", "=", orderId)
    .executeTakeFirstOrThrow();
  await trx.updateTable("orders").set({ version: order.version }).where("id", "=", orderId).execute();
  const again = await trx.selectFrom("invoices").selectAll().where("order_id", "=", orderId).executeTakeFirst();
  if (again) return again;
  const rejected =
    order.status === "cancelled" &&
    (await trx
      .selectFrom("order_approvals")
      .select("decision")
      .where("order_id", "=", orderId)
      .where("decision", "=", "rejected")
      .executeTakeFirst());
  if (NEVER_PLACED.includes(order.status) || rejected)
    throw new ConflictError("NO_INVOICE_YET", "This order hasn't been placed, so it has no invoice yet.");
  const net30 = order.payment_method === "invoice-net30";
  const paid = order.payment_status === "paid";
  const invoice = {
    number: await nextInvoiceNumber(trx),
    order_id: orderId,
    organization_id: order.organization_id,
    issued_at: now.toISOString(),
    due_at: net30 ? new Date(now.getTime() + NET_TERMS_DAYS * 86_400_000).toISOString() : null,
    total_cents: order.total_cents,
    // A cancelled order's invoice (first asked for after the cancellation) is void from the start.
    status: order.status === "cancelled" ? ("void" as const) : paid ? ("paid" as const) : ("unpaid" as const),
    paid_at: paid ? now.toISOString() : null,
  };
  await trx.insertInto("invoices").values(invoice).execute();
  return trx.selectFrom("invoices").selectAll().where("order_id", "=", orderId).executeTakeFirstOrThrow();
}

/** The order's invoice, issued now if it has none yet. Two requests at once issue one. */
export async function issueInvoice(db: Db, orderId: number, now = new Date()) {
  const existing = await db.selectFrom("invoices").selectAll().where("order_id", "=", orderId).executeTakeFirst();
  if (existing) return existing;
  return withTransactionRetry(() => db.transaction().execute((trx) => issueInvoiceInTransaction(trx, orderId, now)));
}

/** A cancelled order owes nothing: its unpaid invoice is void (it stays, numbered, for the books). */
export async function voidInvoice(trx: Transaction<Database>, orderId: number): Promise<void> {
  await trx
    .updateTable("invoices")
    .set({ status: "void" })
    .where("order_id", "=", orderId)
    .where("status", "=", "unpaid")
    .execute();
}

/** VAT included in a tax-inclusive amount at `percent` (20% of a £120 total is £20). */
export function includedVatCents(totalCents: number, percent = UK_VAT_PERCENT): number {
  return Math.round((totalCents * percent) / (100 + percent));
}

/**
 * The invoice's tax: the lines stored with the order when it was placed. An order placed before
 * tax lines were kept shows the VAT inside a UK total, and no tax for the US (prices included any).
 */
async function invoiceTax(db: Db, o: Selectable<OrderTable>): Promise<SummaryTax> {
  if (o.tax_basis) return orderTaxView(db, o);
  if (o.ship_country !== "GB") return { lines: [], note: null };
  const vat = { label: `VAT ${UK_VAT_PERCENT}%`, taxCents: includedVatCents(o.total_cents), included: true };
  return { lines: [vat], note: null };
}

const countryName = (code: string) => COUNTRIES.find((c) => c.code === code)?.name ?? code;

/** Everything the invoice PDF shows, issuing the invoice if needed. */
async function invoiceData(db: Db, order: { id: number }) {
  const invoice = await issueInvoice(db, order.id);
  const o = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
  const [lines, company] = await Promise.all([
    orderLinesWithSku(db, o.id)
      .select(["l.title", "l.color", "l.quantity", "l.unit_price_cents", "l.line_total_cents", "l.list_price_cents"])
      .orderBy("l.id")
      .execute(),
    o.organization_id
      ? db.selectFrom("companies").selectAll().where("organization_id", "=", o.organization_id).executeTakeFirst()
      : undefined,
  ]);
  const billing = company
    ? {
        name: company.name,
        lines: [
          company.billing_line1,
          company.billing_line2,
          `${company.billing_city}${company.billing_region ? `, ${company.billing_region}` : ""} ${company.billing_postcode}`,
          countryName(company.country),
        ],
        taxLabel: company.country === "GB" ? "VAT number" : "EIN",
        taxId: company.tax_id,
      }
    : {
        name: o.business_name ?? o.ship_name,
        lines: [
          o.business_name ? o.ship_name : null,
          o.ship_line1,
          o.ship_line2,
          `${o.ship_city}${o.ship_region ? `, ${o.ship_region}` : ""} ${o.ship_postcode}`,
          countryName(o.ship_country),
        ],
        taxLabel: o.ship_country === "GB" ? "VAT number" : "EIN",
        taxId: o.tax_number,
      };
  return {
    number: invoice.number,
    issuedAt: invoice.issued_at,
    dueAt: invoice.due_at,
    status: invoice.status,
    paidAt: invoice.paid_at,
    orderNumber: o.number,
    orderedAt: o.created_at,
    poNumber: o.po_number,
    paymentMethod: o.payment_method,
    paymentStatus: o.payment_status,
    billing: { ...billing, lines: billing.lines.filter((l): l is string => Boolean(l)) },
    shipTo: [
      o.ship_name,
      o.ship_line1,
      o.ship_line2,
      `${o.ship_city}${o.ship_region ? `, ${o.ship_region}` : ""} ${o.ship_postcode}`,
      countryName(o.ship_country),
    ].filter((l): l is string => Boolean(l)),
    lines: lines.map((l) => ({
      sku: l.sku ?? "",
      title: l.title,
      color: l.color,
      quantity: l.quantity,
      unitCents: l.unit_price_cents,
      listCents: l.list_price_cents,
      totalCents: l.line_total_cents,
    })),
    subtotalCents: o.subtotal_cents,
    memberDiscountCents: o.member_discount_cents,
    shippingCents: o.shipping_cents,
    totalCents: o.total_cents,
    currency: o.currency,
    tax: await invoiceTax(db, o),
  };
}

export type InvoiceData = Awaited<ReturnType<typeof invoiceData>>;

/** The signed-in customer's own order's invoice; null for anyone else's (a 404). */
export async function invoiceForCustomer(db: Db, userId: string, number: string): Promise<InvoiceData | null> {
  if (!/^TH-[0-9A-F]{10}$/.test(number)) return null;
  const order = await ownOrderId(db, userId, number);
  return order ? invoiceData(db, order) : null;
}

/** Any order's invoice, for staff. */
export async function invoiceForStaff(db: Db, number: string): Promise<InvoiceData | null> {
  if (!/^TH-[0-9A-F]{10}$/.test(number)) return null;
  const order = await db.selectFrom("orders").select("id").where("number", "=", number).executeTakeFirst();
  return order ? invoiceData(db, order) : null;
}

/** A guest's order's invoice, behind the unguessable link of the order mail. */
export async function invoiceForAccessToken(db: Db, token: string): Promise<InvoiceData | null> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return null;
  const order = await db.selectFrom("orders").select("id").where("access_token", "=", token).executeTakeFirst();
  return order ? invoiceData(db, order) : null;
}
