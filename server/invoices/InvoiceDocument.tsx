/**
 * The invoice as a PDF (@react-pdf/renderer): seller and buyer, VAT number or EIN, PO number,
 * the lines with any volume or trade discount, shipping, the tax the buyer's country expects and
 * the due date. Only characters of the built-in Helvetica (WinAnsi) are used.
 */
import { Document, Page, renderToBuffer, StyleSheet, Text, View } from "@react-pdf/renderer";
import { data } from "react-router";
import { isDomainError } from "../errors.ts";
import { CURRENCY_NAMES, formatMoney, type Currency } from "../../app/lib/money.ts";
import { paymentLabel } from "../../app/lib/order-labels.ts";
import { STORE_ADDRESS, STORE_NAME, STORE_PHONE } from "../../app/lib/site.ts";
import { NET_TERMS_DAYS, type InvoiceData } from "./invoices.ts";

/** The seller's VAT registration, printed on every invoice. */
export const SELLER_VAT_NUMBER = "GB 123 4567 89";

const styles = StyleSheet.create({
  page: { padding: 40, fontSize: 9, fontFamily: "Helvetica", color: "#111827" },
  row: { flexDirection: "row", justifyContent: "space-between" },
  heading: { fontSize: 18, fontFamily: "Helvetica-Bold", marginBottom: 4 },
  label: { fontFamily: "Helvetica-Bold" },
  block: { width: "48%" },
  section: { marginTop: 16 },
  th: { fontFamily: "Helvetica-Bold", borderBottomWidth: 1, borderBottomColor: "#9ca3af", paddingBottom: 3 },
  td: { paddingVertical: 3, borderBottomWidth: 0.5, borderBottomColor: "#e5e7eb" },
  totals: { marginTop: 10, marginLeft: "55%" },
  note: { marginTop: 16, color: "#374151" },
});

const COLUMNS = [
  { key: "item", label: "Item", width: "40%" },
  { key: "qty", label: "Qty", width: "8%" },
  { key: "list", label: "List price", width: "14%" },
  { key: "discount", label: "Discount", width: "12%" },
  { key: "unit", label: "Unit price", width: "13%" },
  { key: "total", label: "Total", width: "13%" },
] as const;

const day = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
/** Amounts in the invoice's currency (the order's), with a plain hyphen for minus, as the PDF font has it. */
const moneyIn = (currency: Currency) => (cents: number) => formatMoney(cents, currency).replace("\u2212", "-");

function discountText(line: InvoiceData["lines"][number]): string {
  if (line.listCents == null || line.listCents <= line.unitCents) return "";
  return `${Math.round(((line.listCents - line.unitCents) * 1000) / line.listCents) / 10}%`;
}

function dueText(invoice: InvoiceData): string {
  if (invoice.status === "void") return "Void: the order was cancelled";
  if (invoice.status === "paid" && invoice.paidAt) return `Paid ${day(invoice.paidAt)}`;
  if (invoice.dueAt) return `Due ${day(invoice.dueAt)} (net ${NET_TERMS_DAYS} days)`;
  if (invoice.paymentStatus === "paid") return "Paid";
  if (invoice.paymentMethod === "pay-on-delivery") return "Due on delivery";
  return "Due on receipt";
}

/** The invoice's one sentence on tax: VAT inside the prices, sales tax added, or why there is none. */
function taxSentence(tax: InvoiceData["tax"]): string {
  if (tax.lines.some((l) => l.included)) return "Prices include UK VAT.";
  if (tax.lines.length) return "Sales tax is added to the total as shown.";
  return tax.note ?? "Prices include any sales tax due; no sales tax is added to this invoice.";
}

function Totals({ invoice }: { invoice: InvoiceData }) {
  const money = moneyIn(invoice.currency);
  const rows: [string, string][] = [["Subtotal", money(invoice.subtotalCents)]];
  if (invoice.memberDiscountCents) rows.push(["Member discount", `-${money(invoice.memberDiscountCents)}`]);
  rows.push(["Shipping", invoice.shippingCents ? money(invoice.shippingCents) : "Free"]);
  for (const line of invoice.tax.lines) if (!line.included) rows.push([line.label, money(line.taxCents)]);
  rows.push(["Total", money(invoice.totalCents)]);
  for (const line of invoice.tax.lines) if (line.included) rows.push([`Includes ${line.label}`, money(line.taxCents)]);
  return (
    <View style={styles.totals}>
      {rows.map(([label, value]) => (
        <View key={label} style={[styles.row, { paddingVertical: 2 }]}>
          <Text style={label === "Total" ? styles.label : {}}>{label}</Text>
          <Text style={label === "Total" ? styles.label : {}}>{value}</Text>
        </View>
      ))}
    </View>
  );
}

function InvoiceDocument({ invoice }: { invoice: InvoiceData }) {
  const money = moneyIn(invoice.currency);
  return (
    <Document title={`Invoice ${invoice.number}`} author={STORE_NAME}>
      <Page size="A4" style={styles.page}>
        <View style={styles.row}>
          <View style={styles.block}>
            <Text style={styles.heading}>Invoice {invoice.number}</Text>
            <Text>Invoice date: {day(invoice.issuedAt)}</Text>
            <Text>{dueText(invoice)}</Text>
            <Text>
              Order: {invoice.orderNumber} of {day(invoice.orderedAt)}
            </Text>
            {invoice.poNumber ? <Text>PO number: {invoice.poNumber}</Text> : null}
          </View>
          <View style={styles.block}>
            <Text style={styles.label}>{STORE_NAME}</Text>
            <Text>{STORE_ADDRESS.street}</Text>
            <Text>{`${STORE_ADDRESS.city} ${STORE_ADDRESS.postcode}`}</Text>
            <Text>{STORE_ADDRESS.country}</Text>
            <Text>{STORE_PHONE}</Text>
            <Text>VAT number: {SELLER_VAT_NUMBER}</Text>
          </View>
        </View>
        <View style={[styles.row, styles.section]}>
          <View style={styles.block}>
            <Text style={styles.label}>Bill to</Text>
            <Text>{invoice.billing.name}</Text>
            {invoice.billing.lines.map((l, i) => (
              <Text key={i}>{l}</Text>
            ))}
            {invoice.billing.taxId ? <Text>{`${invoice.billing.taxLabel}: ${invoice.billing.taxId}`}</Text> : null}
          </View>
          <View style={styles.block}>
            <Text style={styles.label}>Ship to</Text>
            {invoice.shipTo.map((l, i) => (
              <Text key={i}>{l}</Text>
            ))}
          </View>
        </View>
        <View style={styles.section}>
          <View style={styles.row}>
            {COLUMNS.map((c) => (
              <Text key={c.key} style={[styles.th, { width: c.width }]}>
                {c.label}
              </Text>
            ))}
          </View>
          {invoice.lines.map((line, i) => (
            <View key={i} style={styles.row} wrap={false}>
              <Text
                style={[styles.td, { width: "40%" }]}
              >{`${line.sku ? `${line.sku} ` : ""}${line.title}${line.color ? ` (${line.color})` : ""}`}</Text>
              <Text style={[styles.td, { width: "8%" }]}>{line.quantity}</Text>
              <Text style={[styles.td, { width: "14%" }]}>{line.listCents != null ? money(line.listCents) : ""}</Text>
              <Text style={[styles.td, { width: "12%" }]}>{discountText(line)}</Text>
              <Text style={[styles.td, { width: "13%" }]}>{money(line.unitCents)}</Text>
              <Text style={[styles.td, { width: "13%" }]}>{money(line.totalCents)}</Text>
            </View>
          ))}
        </View>
        <Totals invoice={invoice} />
        <Text style={styles.note}>
          {`${taxSentence(invoice.tax)} All amounts are in ${CURRENCY_NAMES[invoice.currency]}. Payment: ${paymentLabel(invoice.paymentMethod)}.`}
        </Text>
      </Page>
    </Document>
  );
}

export function invoicePdf(invoice: InvoiceData): Promise<Buffer> {
  return renderToBuffer(<InvoiceDocument invoice={invoice} />);
}

/**
 * The answer to a download: the PDF, named after the invoice, never cached by a shared cache; 404
 * when the order isn't the asker's, and the refusal's message (409) when it has no invoice yet.
 */
export async function invoiceResponse(find: () => Promise<InvoiceData | null>): Promise<Response> {
  let invoice: InvoiceData | null;
  try {
    invoice = await find();
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status });
    throw error;
  }
  if (!invoice) throw data("Order not found", { status: 404 });
  const pdf = await invoicePdf(invoice);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${invoice.number}.pdf"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
