/**
 * The order mails. The one asking a guest to confirm goes to an address nobody has proven yet,
 * so it carries nothing the person at the keyboard typed: no name, no address, only the catalog's
 * item names, the amounts and the store's own link.
 */
import { formatMoney } from "../../app/lib/money.ts";
import type { OutgoingMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";

export interface MailLine {
  title: string;
  color: string;
  quantity: number;
  line_total_cents: number;
}

export interface MailOrder {
  number: string;
  email: string;
  ship_name: string;
  subtotal_cents: number;
  member_discount_cents: number;
  shipping_cents: number;
  total_cents: number;
}

const itemLine = (l: MailLine) => `${l.quantity} × ${l.title}${l.color ? ` (${l.color})` : ""} — ${formatMoney(l.line_total_cents)}`;

/** The mail that confirms a placed order (a member's at once; a guest's once confirmed). */
export function orderPlacedMail(order: MailOrder, lines: MailLine[], options: { link: string; paymentLabel: string }): OutgoingMail {
  const mail = renderMail({
    heading: `Thank you for your order ${order.number}`,
    paragraphs: [
      `Hello ${order.ship_name},`,
      `We've received your order ${order.number}. Here is what you ordered:`,
      ...lines.map(itemLine),
      `Subtotal ${formatMoney(order.subtotal_cents)}; member discount −${formatMoney(order.member_discount_cents)}; shipping ${order.shipping_cents ? formatMoney(order.shipping_cents) : "free"}; taxes included. Total ${formatMoney(order.total_cents)}.`,
      `Payment: ${options.paymentLabel}.`,
    ],
    action: { label: "View your order", url: options.link },
    footer: "Keep this email: its link shows your order's status.",
  });
  return { to: order.email, subject: `Your ToolHub Wholesale order ${order.number}`, ...mail };
}

/** The mail that asks a guest to confirm an order held for them. */
export function confirmOrderMail(order: MailOrder, lines: MailLine[], options: { link: string; holdMinutes: number }): OutgoingMail {
  const mail = renderMail({
    heading: `Please confirm your order ${order.number}`,
    paragraphs: [
      `An order was placed at ToolHub Wholesale with this email address. We are holding it for ${options.holdMinutes} minutes: open the link below and choose "Confirm order" to have it shipped.`,
      ...lines.map(itemLine),
      `Total ${formatMoney(order.total_cents)}, taxes included.`,
      `If you did not place this order, ignore this email: nothing is shipped or charged, and the order is cancelled automatically.`,
    ],
    action: { label: "Review and confirm your order", url: options.link },
    footer: "You are receiving this because this address was entered at our checkout.",
  });
  return { to: order.email, subject: `Confirm your ToolHub Wholesale order ${order.number}`, ...mail };
}
