import { formatMoney } from "../../app/lib/money.ts";
import type { OutgoingMail } from "../mail/queue.ts";
import { renderMail } from "../mail/templates.ts";

interface QuoteMailLine {
  title: string;
  color: string;
  quantity: number;
}

const lineText = (l: QuoteMailLine, price?: number | null) =>
  `${l.quantity} × ${l.title}${l.color ? ` (${l.color})` : ""}${price != null ? ` at ${formatMoney(price)} each` : ""}`;
const day = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** To the store's inbox: a buyer asked for a quote. */
export function quoteRequestedStaffMail(input: {
  to: string;
  number: string;
  companyName: string | null;
  lines: QuoteMailLine[];
  message: string | null;
  link: string;
}): OutgoingMail {
  const who = input.companyName ? `A buyer at ${input.companyName}` : "A customer";
  const mail = renderMail({
    heading: `Quote request ${input.number}`,
    paragraphs: [
      `${who} asks for a quote on ${input.lines.length} line${input.lines.length === 1 ? "" : "s"}:`,
      ...input.lines.slice(0, 50).map((l) => lineText(l)),
      ...(input.message ? [`Their message: ${input.message}`] : []),
    ],
    action: { label: "Price the quote", url: input.link },
  });
  return { to: input.to, subject: `Quote request ${input.number}`, ...mail };
}

/** To the buyer: we have the request. */
export function quoteReceivedMail(input: { to: string; number: string; link: string }): OutgoingMail {
  const mail = renderMail({
    heading: `We've received your quote request ${input.number}`,
    paragraphs: [
      "Thank you. Our team prices each request, usually within one working day, and emails you when your quote is ready. Your cart is kept as it is.",
    ],
    action: { label: "See your quote request", url: input.link },
  });
  return { to: input.to, subject: `Your quote request ${input.number}`, ...mail };
}

/** To the buyer: the quote is priced and can be accepted until its last valid day. */
export function quoteReadyMail(input: {
  to: string;
  number: string;
  lines: (QuoteMailLine & { quotedUnitCents: number })[];
  totalCents: number;
  validUntil: string;
  note: string | null;
  link: string;
}): OutgoingMail {
  const mail = renderMail({
    heading: `Your quote ${input.number} is ready`,
    paragraphs: [
      ...input.lines.slice(0, 50).map((l) => lineText(l, l.quotedUnitCents)),
      `Total for the goods: ${formatMoney(input.totalCents)} (shipping as at the checkout).`,
      `These prices hold until the end of ${day(input.validUntil)}.`,
      ...(input.note ? [`Note from our team: ${input.note}`] : []),
    ],
    action: { label: "See and accept your quote", url: input.link },
  });
  return { to: input.to, subject: `Your quote ${input.number} is ready`, ...mail };
}
