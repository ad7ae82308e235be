/**
 * Orders above a buyer's spending limit wait in `awaiting_approval`, holding no stock. An approver
 * (or owner) of the same company approves one — it is placed then, its stock taken at that moment
 * with the usual no-oversell rule — or rejects it with a reason; the buyer is mailed either way.
 * Two approvers deciding at once: the order's status and version decide, exactly one wins.
 */
import { checkCredit, NET30_METHOD } from "../invoices/credit.ts";
import { issueInvoiceInTransaction } from "../invoices/invoices.ts";
import type { Transaction } from "kysely";
import { paymentLabel } from "../../app/lib/order-labels.ts";
import { companyCan } from "../auth/company-roles.ts";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import {
  ConflictError,
  DomainError,
  InvalidError,
  NotAllowedError,
  NotFoundError,
  OutOfStockError,
} from "../errors.ts";
import { enqueueMail } from "../mail/queue.ts";
import { countPlacedOrder } from "../ops/metrics.ts";
import { recordOrderEvent } from "../orders/history.ts";
import { mailLinesOf, orderPlacedMail } from "../orders/mails.ts";
import { OrderConflictError, transitionOrder } from "../orders/states.ts";
import { approvalRequestMail, orderAwaitingApprovalMail, orderRejectedMail } from "./mails.ts";

export const REJECT_REASON_MAX = 300;

interface PendingOrder {
  id: number;
  number: string;
  email: string;
  ship_name: string;
  total_cents: number;
  po_number: string | null;
}

/**
 * Inside the checkout's transaction: records the approval the order waits for and mails the buyer
 * and every approver of the company (owners approve too), never the buyer themself.
 */
export async function requestApproval(
  trx: Transaction<Database>,
  input: {
    order: PendingOrder;
    userId: string;
    organizationId: string;
    companyName: string;
    limitCents: number;
    siteUrl: string;
    now: Date;
  },
) {
  const { order } = input;
  await trx
    .insertInto("order_approvals")
    .values({
      order_id: order.id,
      organization_id: input.organizationId,
      buyer_user_id: input.userId,
      limit_cents: input.limitCents,
      decision: null,
      decided_by: null,
      decided_at: null,
      reason: null,
      created_at: input.now.toISOString(),
    })
    .execute();
  await enqueueMail(
    trx,
    orderAwaitingApprovalMail({
      email: order.email,
      name: order.ship_name,
      order,
      limitCents: input.limitCents,
      link: `${input.siteUrl}/account/orders/${order.number}`,
    }),
  );
  const buyer = await trx.selectFrom("user").select("name").where("id", "=", input.userId).executeTakeFirst();
  const approvers = await trx
    .selectFrom("member as m")
    .innerJoin("user as u", "u.id", "m.userId")
    .select(["u.email", "m.role"])
    .where("m.organizationId", "=", input.organizationId)
    .where("m.userId", "!=", input.userId)
    .execute();
  for (const approver of approvers.filter((a) => companyCan(a.role, { order: ["approve"] }))) {
    await enqueueMail(
      trx,
      approvalRequestMail({
        email: approver.email,
        buyerName: buyer?.name || "A colleague",
        companyName: input.companyName,
        order,
        link: `${input.siteUrl}/account/company/approvals`,
      }),
    );
  }
}

/** The company's orders waiting for approval, oldest first, with their lines. */
export async function waitingForApproval(db: Db, organizationId: string) {
  const orders = await db
    .selectFrom("order_approvals as a")
    .innerJoin("orders as o", "o.id", "a.order_id")
    .innerJoin("user as u", "u.id", "a.buyer_user_id")
    .select([
      "o.id",
      "o.number",
      "o.total_cents",
      "o.po_number",
      "o.created_at",
      "o.version",
      "a.limit_cents",
      "a.buyer_user_id",
      "u.name as buyer_name",
    ])
    .where("a.organization_id", "=", organizationId)
    .where("o.status", "=", "awaiting_approval")
    .orderBy("o.created_at")
    .limit(200)
    .execute();
  const lines = orders.length
    ? await db
        .selectFrom("order_lines")
        .select(["order_id", "title", "color", "quantity", "line_total_cents"])
        .where(
          "order_id",
          "in",
          orders.map((o) => o.id),
        )
        .orderBy("id")
        .execute()
    : [];
  return orders.map(({ id, ...o }) => ({
    ...o,
    lines: lines.filter((l) => l.order_id === id).map(({ order_id: _, ...l }) => l),
  }));
}

export interface Approver {
  userId: string;
  name: string;
  organizationId: string;
  role: string;
}

/** Approves (places) or rejects an order waiting for this approver's company. */
export async function decideApproval(
  db: Db,
  approver: Approver,
  number: string,
  decision: { approve: boolean; reason?: string | null; siteUrl: string; now?: Date },
): Promise<string> {
  if (!companyCan(approver.role, { order: ["approve"] }))
    throw new NotAllowedError(
      "NOT_ALLOWED",
      "Only your company's approvers and owners decide on orders above a limit.",
    );
  const reason = (decision.reason ?? "").trim().slice(0, REJECT_REASON_MAX);
  if (!decision.approve && !reason)
    throw new InvalidError("REASON_REQUIRED", "Say why the order is rejected: the buyer is told.");
  if (!/^TH-[0-9A-F]{10}$/.test(number))
    throw new NotFoundError("ORDER_NOT_FOUND", "That order isn't waiting for your company's approval.");
  const order = await db
    .selectFrom("orders as o")
    .innerJoin("order_approvals as a", "a.order_id", "o.id")
    .select([
      "o.id",
      "o.number",
      "o.status",
      "o.email",
      "o.ship_name",
      "o.subtotal_cents",
      "o.member_discount_cents",
      "o.shipping_cents",
      "o.tax_cents",
      "o.total_cents",
      "o.currency",
      "o.po_number",
      "o.payment_method",
      "o.user_id",
      "a.organization_id",
    ])
    .where("o.number", "=", number)
    .executeTakeFirst();
  if (!order || order.organization_id !== approver.organizationId)
    throw new NotFoundError("ORDER_NOT_FOUND", "That order isn't waiting for your company's approval.");
  if (order.user_id === approver.userId)
    throw new NotAllowedError("OWN_ORDER", "You can't approve your own order: another approver decides.");
  if (order.status !== "awaiting_approval")
    throw new ConflictError("ALREADY_DECIDED", "This order was already decided.");
  const now = decision.now ?? new Date();
  const to = decision.approve ? "placed" : "cancelled";
  const actor = `user:${approver.userId}`;
  try {
    await transitionOrder(db, {
      orderId: order.id,
      to,
      expectedStatus: "awaiting_approval",
      actor,
      now,
      then: async (trx) => {
        await trx
          .updateTable("order_approvals")
          .set({
            decision: decision.approve ? "approved" : "rejected",
            decided_by: approver.userId,
            decided_at: now.toISOString(),
            reason: decision.approve ? null : reason,
          })
          .where("order_id", "=", order.id)
          .execute();
        await recordOrderEvent(trx, {
          orderId: order.id,
          actor,
          kind: "status",
          from: "awaiting_approval",
          to,
          details: decision.approve ? { by: approver.name } : { by: approver.name, reason: `Not approved: ${reason}` },
          now,
        });
        const link = `${decision.siteUrl}/account/orders/${order.number}`;
        if (decision.approve && order.payment_method === NET30_METHOD) {
          // The credit is checked again now: invoices may have been paid, or other orders placed, since.
          const company = await trx
            .selectFrom("companies")
            .select(["name", "net30", "credit_limit_cents"])
            .where("organization_id", "=", order.organization_id)
            .executeTakeFirstOrThrow();
          await checkCredit(
            trx,
            {
              organizationId: order.organization_id,
              companyName: company.name,
              net30: Boolean(company.net30),
              creditLimitCents: Number(company.credit_limit_cents),
            },
            order.total_cents,
          );
          await issueInvoiceInTransaction(trx, order.id, now);
        }
        if (decision.approve) {
          const lines = await mailLinesOf(trx, order.id);
          await enqueueMail(
            trx,
            orderPlacedMail(order, lines, { link, paymentLabel: paymentLabel(order.payment_method) }),
          );
        } else {
          await enqueueMail(trx, orderRejectedMail({ email: order.email, name: order.ship_name, order, reason, link }));
        }
      },
    });
  } catch (error) {
    if (error instanceof OrderConflictError)
      throw new ConflictError("ALREADY_DECIDED", "This order was already decided by another approver.");
    if (error instanceof DomainError && (error.code === "CREDIT_LIMIT" || error.code === "NET30_NOT_OFFERED")) {
      throw new ConflictError(
        error.code,
        `${error.message} The order is still waiting: reject it, or approve it once there is credit for it.`,
      );
    }
    if (error instanceof DomainError && error.code === "OUT_OF_STOCK") {
      throw new OutOfStockError(
        "OUT_OF_STOCK",
        `${error.message.replace(/ Nothing was charged.*$/, "")} The order is still waiting: reject it, or approve it once the stock is back.`,
      );
    }
    throw error;
  }
  if (decision.approve) countPlacedOrder(order.payment_method);
  return decision.approve
    ? `Order ${order.number} is approved and placed; the buyer was emailed.`
    : `Order ${order.number} is rejected; the buyer was emailed the reason.`;
}
