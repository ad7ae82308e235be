import { formatMoney } from "../../app/lib/money.ts";
import { renderMail } from "../mail/templates.ts";
import type { OutgoingMail } from "../mail/queue.ts";
import type { Db } from "../db/connection.ts";
import { NotFoundError } from "../errors.ts";

const ROLE_NAMES: Record<string, string> = { owner: "an owner", approver: "an approver", buyer: "a buyer" };

/** The longest inviter's name an invitation quotes. */
const INVITER_NAME_MAX = 60;

/**
 * The inviter's name as an invitation may quote it, or null. The name is what the inviter typed at
 * sign-up, so it is never in the subject or the heading, and only a name that reads like a
 * person's is quoted: letters, spaces, apostrophes, hyphens and full stops that end an initial, at
 * most 60 characters (no digits, colons, slashes, @ or dotted words: no phone number, link or
 * address can be smuggled in). Any other name is left out.
 */
export function quotableInviterName(name: string | null | undefined): string | null {
  const collapsed = (name ?? "").replace(/\s+/g, " ").trim();
  if (!collapsed || collapsed.length > INVITER_NAME_MAX) return null;
  return /^\p{L}(?:[\p{L}\p{M} '’-]|\.(?= |$))*$/u.test(collapsed) ? collapsed : null;
}

function renderInvitation(input: {
  email: string;
  role: string;
  companyName: string;
  inviterName: string | null | undefined;
  link: string;
}): OutgoingMail {
  const inviter = quotableInviterName(input.inviterName);
  const mail = renderMail({
    heading: `Join ${input.companyName} on ToolHub Wholesale`,
    paragraphs: [
      `You are invited to order for ${input.companyName} as ${ROLE_NAMES[input.role] ?? "a member"}, at the company's trade prices.`,
      ...(inviter ? [`Invited by: “${inviter}” (the name they registered with).`] : []),
      "Sign in (or create an account) with this email address, then accept the invitation. It works for 7 days.",
    ],
    action: { label: "See the invitation", url: input.link },
    footer: "If you don't know this company, ignore this email: nothing happens unless you accept.",
  });
  return { to: input.email, subject: `Invitation to join ${input.companyName} on ToolHub Wholesale`, ...mail };
}

/**
 * The invitation to a company, named as staff approved it: the name comes from the store's
 * `companies` row, never from the auth library's organization (which its owner could rename).
 * An organization the store has no company for gets no mail.
 */
export async function companyInvitationMail(
  db: Db,
  input: { organizationId: string; email: string; role: string; inviterName?: string | null; link: string },
): Promise<OutgoingMail> {
  const company = await db
    .selectFrom("companies")
    .select("name")
    .where("organization_id", "=", input.organizationId)
    .executeTakeFirst();
  if (!company)
    throw new NotFoundError("COMPANY_NOT_FOUND", "This company has no trade account, so no invitation was sent.");
  return renderInvitation({
    email: input.email,
    role: input.role,
    companyName: company.name,
    inviterName: input.inviterName,
    link: input.link,
  });
}

export function applicationReceivedMail(input: {
  email: string;
  name: string;
  companyName: string;
  link: string;
}): OutgoingMail {
  const mail = renderMail({
    heading: "We've received your trade account application",
    paragraphs: [
      `Hello ${input.name || "there"},`,
      `Thank you for applying for a trade account for ${input.companyName}. Our team checks each application, usually within one working day, and will email you the decision.`,
    ],
    action: { label: "See your application", url: input.link },
  });
  return { to: input.email, subject: "Your ToolHub Wholesale trade account application", ...mail };
}

export function applicationDecidedMail(input: {
  email: string;
  name: string;
  companyName: string;
  approved: boolean;
  reason: string | null;
  link: string;
}): OutgoingMail {
  const mail = input.approved
    ? renderMail({
        heading: `${input.companyName} now has a trade account`,
        paragraphs: [
          `Hello ${input.name || "there"},`,
          `Your trade account application for ${input.companyName} is approved. You are the company's owner: invite colleagues, set their spending limits and order at your company's prices.`,
        ],
        action: { label: "Open your company account", url: input.link },
      })
    : renderMail({
        heading: "About your trade account application",
        paragraphs: [
          `Hello ${input.name || "there"},`,
          `We could not approve the trade account application for ${input.companyName}.`,
          ...(input.reason ? [`Reason: ${input.reason}`] : []),
          "You can correct the details and apply again, or reply through our contact page.",
        ],
        action: { label: "See your application", url: input.link },
      });
  return {
    to: input.email,
    subject: input.approved
      ? "Your ToolHub Wholesale trade account is approved"
      : "Your ToolHub Wholesale trade account application",
    ...mail,
  };
}

interface ApprovalMailOrder {
  number: string;
  total_cents: number;
  po_number: string | null;
}

const poText = (order: ApprovalMailOrder) => (order.po_number ? ` (PO ${order.po_number})` : "");

/** To the buyer: the order went to the company's approvers instead of being placed. */
export function orderAwaitingApprovalMail(input: {
  email: string;
  name: string;
  order: ApprovalMailOrder;
  limitCents: number;
  link: string;
}): OutgoingMail {
  const mail = renderMail({
    heading: `Order ${input.order.number} is waiting for approval`,
    paragraphs: [
      `Hello ${input.name || "there"},`,
      `Your order ${input.order.number}${poText(input.order)} for ${formatMoney(input.order.total_cents)} is above your spending limit of ${formatMoney(input.limitCents)}, so it was sent to your company's approvers. Nothing is taken from stock until one of them approves it; we'll email you either way.`,
    ],
    action: { label: "View the order", url: input.link },
  });
  return { to: input.email, subject: `Your order ${input.order.number} is waiting for approval`, ...mail };
}

/** To each approver: a colleague's order needs a decision. */
export function approvalRequestMail(input: {
  email: string;
  buyerName: string;
  companyName: string;
  order: ApprovalMailOrder;
  link: string;
}): OutgoingMail {
  const mail = renderMail({
    heading: `${input.buyerName} needs your approval`,
    paragraphs: [
      `${input.buyerName} ordered ${formatMoney(input.order.total_cents)} for ${input.companyName} (order ${input.order.number}${poText(input.order)}), above their spending limit. Approve it to place the order, or reject it with a reason.`,
    ],
    action: { label: "Review the order", url: input.link },
  });
  return { to: input.email, subject: `Order ${input.order.number} needs your approval`, ...mail };
}

/** To the buyer: an approver rejected the order. */
export function orderRejectedMail(input: {
  email: string;
  name: string;
  order: ApprovalMailOrder;
  reason: string;
  link: string;
}): OutgoingMail {
  const mail = renderMail({
    heading: `Order ${input.order.number} was not approved`,
    paragraphs: [
      `Hello ${input.name || "there"},`,
      `Your company's approver did not approve order ${input.order.number}${poText(input.order)}. The reason given: ${input.reason}`,
      "Nothing was charged and nothing was taken from stock.",
    ],
    action: { label: "View the order", url: input.link },
  });
  return { to: input.email, subject: `Your order ${input.order.number} was not approved`, ...mail };
}
