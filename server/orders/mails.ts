/**
 * The order mails. The one asking a guest to confirm goes to an address nobody has proven yet,
 * so it carries nothing the person at the keyboard typed: no name, no address, only the catalog's
 * item names, the amounts and the store's own link.
 */
import { formatMoney, type Currency } from "../../app/lib/money.ts";
import type { Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { OutgoingMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";

export interface MailLine {
  title: string;
  color: string;
  quantity: number;
  line_total_cents: number;
}

/** The order's lines as its mails list them, in order. */
export function mailLinesOf(trx: Transaction<Database>, orderId: number): Promise<MailLine[]> {
  return trx
    .selectFrom("order_lines")
    .select(["title", "color", "quantity", "line_total_cents"])
    .where("order_id", "=", orderId)
    .orderBy("id")
    .execute();
}

export interface MailOrder {
  number: string;
  email: string;
  ship_name: string;
  subtotal_cents: number;
  member_discount_cents: number;
  shipping_cents: number;
  /** Sales tax added to the total (US); 0 where tax is inside the prices. */
  tax_cents: number;
  total_cents: number;
  /** The currency of its amounts. */
  currency: Currency;
  /** A trade order's purchase-order number. */
  po_number?: string | null;
}

const taxWords = (order: MailOrder) =>
  order.tax_cents ? `sales tax ${formatMoney(order.tax_cents, order.currency)}` : "taxes included";

const itemLine = (currency: Currency) => (l: MailLine) =>
  `${l.quantity} × ${l.title}${l.color ? ` (${l.color})` : ""} — ${formatMoney(l.line_total_cents, currency)}`;

/** The mail that confirms a placed order (a member's at once; a guest's once confirmed). */
export function orderPlacedMail(
  order: MailOrder,
  lines: MailLine[],
  options: { link: string; paymentLabel: string },
): OutgoingMail {
  const money = (minor: number) => formatMoney(minor, order.currency);
  const mail = renderMail({
    heading: `Thank you for your order ${order.number}`,
    paragraphs: [
      `Hello ${order.ship_name},`,
      `We've received your order ${order.number}. Here is what you ordered:`,
      ...lines.map(itemLine(order.currency)),
      `Subtotal ${money(order.subtotal_cents)}; member discount −${money(order.member_discount_cents)}; shipping ${order.shipping_cents ? money(order.shipping_cents) : "free"}; ${taxWords(order)}. Total ${money(order.total_cents)}.`,
      `Payment: ${options.paymentLabel}.`,
      ...(order.po_number ? [`Your PO number: ${order.po_number}.`] : []),
    ],
    action: { label: "View your order", url: options.link },
    footer: "Keep this email: its link shows your order's status.",
  });
  return { to: order.email, subject: `Your ToolHub Wholesale order ${order.number}`, ...mail };
}

/** The mail that asks a guest to confirm an order held for them. */
export function confirmOrderMail(
  order: MailOrder,
  lines: MailLine[],
  options: { link: string; holdMinutes: number },
): OutgoingMail {
  const mail = renderMail({
    heading: `Please confirm your order ${order.number}`,
    paragraphs: [
      `An order was placed at ToolHub Wholesale with this email address. We are holding it for ${options.holdMinutes} minutes: open the link below and choose "Confirm order" to have it shipped.`,
      ...lines.map(itemLine(order.currency)),
      `Total ${formatMoney(order.total_cents, order.currency)}, ${taxWords(order)}.`,
      `If you did not place this order, ignore this email: nothing is shipped or charged, and the order is cancelled automatically.`,
    ],
    action: { label: "Review and confirm your order", url: options.link },
    footer: "You are receiving this because this address was entered at our checkout.",
  });
  return { to: order.email, subject: `Confirm your ToolHub Wholesale order ${order.number}`, ...mail };
}

// ---- Mails for the moves staff make in the back office (server/orders/fulfilment.ts, returns.ts) ----

/** What the fulfilment mails need of an order: who to write to and where their order page is. */
export interface FulfilmentMailOrder {
  number: string;
  email: string;
  ship_name: string;
  /** The customer's own order page (their account's, or the guest link). */
  link: string;
}

function fulfilmentMail(
  order: FulfilmentMailOrder,
  subject: string,
  heading: string,
  paragraphs: string[],
): OutgoingMail {
  const mail = renderMail({
    heading,
    paragraphs: [order.ship_name ? `Hello ${order.ship_name},` : "Hello,", ...paragraphs],
    action: { label: "View your order", url: order.link },
    footer: "Questions about this order? Reply to this email or use the contact page, and quote the order number.",
  });
  return { to: order.email, subject, ...mail };
}

export function orderPackedMail(order: FulfilmentMailOrder): OutgoingMail {
  return fulfilmentMail(order, `Your order ${order.number} is packed`, `Your order ${order.number} is packed`, [
    `Good news: we've packed your order ${order.number}. We'll email you again with the tracking number as soon as it leaves our warehouse.`,
  ]);
}

export function orderShippedMail(
  order: FulfilmentMailOrder,
  shipment: { carrier: string; trackingNumber: string },
): OutgoingMail {
  return fulfilmentMail(order, `Your order ${order.number} has shipped`, `Your order ${order.number} is on its way`, [
    `Your order ${order.number} has left our warehouse with ${shipment.carrier}.`,
    `Carrier: ${shipment.carrier}\nTracking number: ${shipment.trackingNumber}`,
    `You can follow the parcel on ${shipment.carrier}'s website with this tracking number.`,
  ]);
}

export function orderDeliveredMail(order: FulfilmentMailOrder): OutgoingMail {
  return fulfilmentMail(order, `Your order ${order.number} was delivered`, `Your order ${order.number} was delivered`, [
    `Our carrier reports that your order ${order.number} was delivered. We hope the tools serve you well.`,
    `If anything is missing or damaged, let us know within 30 days and we'll put it right.`,
  ]);
}

export function orderCancelledMail(order: FulfilmentMailOrder, cancellation: { reason: string | null }): OutgoingMail {
  return fulfilmentMail(order, `Your order ${order.number} was cancelled`, `Your order ${order.number} was cancelled`, [
    `Your order ${order.number} has been cancelled. Nothing will be shipped, and you won't be charged for it.`,
    ...(cancellation.reason ? [`Reason: ${cancellation.reason}`] : []),
  ]);
}

export function orderReturnMail(
  order: FulfilmentMailOrder,
  ret: { reason: string; lines: { title: string; color: string; quantity: number }[]; complete: boolean },
): OutgoingMail {
  const subject = ret.complete
    ? `We received the return of your order ${order.number}`
    : `We received a return from your order ${order.number}`;
  return fulfilmentMail(order, subject, subject, [
    `We've received these items back from your order ${order.number}:`,
    ...ret.lines.map((l) => `${l.quantity} × ${l.title}${l.color ? ` (${l.color})` : ""}`),
    `Reason: ${ret.reason}`,
    ret.complete ? "Every item of the order has now been returned." : "The rest of your order is unchanged.",
  ]);
}

export function orderRefundMail(
  order: FulfilmentMailOrder,
  refund: {
    amountCents: number;
    totalRefundedCents: number;
    paidCents: number;
    reason: string | null;
    currency: Currency;
  },
): OutgoingMail {
  const money = (minor: number) => formatMoney(minor, refund.currency);
  const whole = refund.totalRefundedCents >= refund.paidCents;
  const subject = whole
    ? `Your payment for order ${order.number} was refunded`
    : `Part of your payment for order ${order.number} was refunded`;
  return fulfilmentMail(order, subject, subject, [
    `We've refunded ${money(refund.amountCents)} to the card you paid order ${order.number} with.`,
    ...(refund.reason ? [`Reason: ${refund.reason}`] : []),
    whole
      ? `That is the whole of the ${money(refund.paidCents)} you paid.`
      : `In all, ${money(refund.totalRefundedCents)} of the ${money(refund.paidCents)} you paid has been refunded.`,
    "Refunds usually reach your account within 5 to 10 working days, depending on your bank.",
  ]);
}
