import { data, Form } from "react-router";
import { PostButton } from "../components/ui/PostButton.tsx";
import type { Route } from "./+types/account-company-approvals";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { BackToCompany } from "../components/trade/BackToCompany.tsx";
import { formatMoney } from "../lib/money.ts";
import { seo } from "../lib/seo.ts";
import { companyCan } from "../../server/auth/company-roles.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { decideApproval, REJECT_REASON_MAX, waitingForApproval } from "../../server/trade/approvals.ts";
import { requireCompanyMember } from "../../server/trade/guard.ts";
import { formText } from "../lib/form-text.ts";
import { PostAnswer } from "../components/ui/PostAnswer.tsx";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Orders waiting for approval",
    description: "Your company's orders above a buyer's spending limit.",
    path: "/account/company/approvals",
    matches,
    noindex: true,
  });
}

async function approver(request: Request) {
  const { session, company, role } = await requireCompanyMember(getDb(), request);
  if (!companyCan(role, { order: ["approve"] }))
    throw data("Only your company's approvers and owners decide on orders above a limit.", { status: 403 });
  return { session, organizationId: company.organization_id, role };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { session, organizationId } = await approver(request);
  const orders = await waitingForApproval(getDb(), organizationId);
  return { orders: orders.map(({ buyer_user_id, ...o }) => ({ ...o, yours: buyer_user_id === session.userId })) };
}

export async function action({ request }: Route.ActionArgs) {
  const { session, organizationId, role } = await approver(request);
  const form = await readSmallForm(request);
  const approve = form.get("intent") === "approve";
  try {
    const message = await decideApproval(
      getDb(),
      { userId: session.userId, name: session.user.fullName, organizationId, role },
      formText(form, "number").slice(0, 20),
      {
        approve,
        reason: formText(form, "reason") || null,
        siteUrl: config().siteUrl,
      },
    );
    return { ok: true, message };
  } catch (error) {
    if (isDomainError(error)) return data({ ok: false, message: error.message }, { status: error.status });
    throw error;
  }
}

const date = (iso: string) =>
  new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export default function Approvals({ loaderData, actionData }: Route.ComponentProps) {
  const { orders } = loaderData;
  return (
    <>
      <PageHeader
        title="Orders waiting for approval"
        intro="Orders your colleagues placed above their spending limit. Approving places the order and takes its stock; rejecting tells the buyer why."
      />
      <div className="mx-auto max-w-4xl space-y-8 px-4 py-10 text-slate-700">
        <PostAnswer answer={actionData} />
        {orders.length === 0 ? <p>No order is waiting for approval.</p> : null}
        {orders.map((order) => (
          <section
            key={order.number}
            aria-labelledby={`order-${order.number}`}
            className="rounded-xl border border-slate-200 p-6"
          >
            <h2 id={`order-${order.number}`} className="text-lg font-bold text-ink">
              {`Order ${order.number} by ${order.buyer_name}`}
            </h2>
            <p className="mt-1 text-sm">
              {formatMoney(order.total_cents)} · limit {formatMoney(order.limit_cents)} · {date(order.created_at)}
              {order.po_number ? ` · PO ${order.po_number}` : ""}
            </p>
            <ul className="mt-3 list-disc pl-5 text-sm">
              {order.lines.map((l, i) => (
                <li key={i}>
                  {l.quantity} × {l.title}
                  {l.color ? ` (${l.color})` : ""} — {formatMoney(l.line_total_cents)}
                </li>
              ))}
            </ul>
            {order.yours ? (
              <p className="mt-4 text-sm">This is your own order: another approver decides.</p>
            ) : (
              <div className="mt-4 flex flex-wrap items-end gap-6">
                <PostButton
                  fields={{ number: order.number }}
                  name="intent"
                  value="approve"
                  className="btn-primary"
                  aria-label={`Approve order ${order.number}`}
                >
                  Approve
                </PostButton>
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="number" value={order.number} />
                  <div>
                    <label htmlFor={`reason-${order.number}`} className="block text-sm font-semibold text-ink">
                      {`Reason for rejecting ${order.number}`}
                    </label>
                    <input
                      id={`reason-${order.number}`}
                      name="reason"
                      required
                      maxLength={REJECT_REASON_MAX}
                      className="field mt-1 w-72"
                    />
                  </div>
                  <button
                    type="submit"
                    name="intent"
                    value="reject"
                    className="btn-outline"
                    aria-label={`Reject order ${order.number}`}
                  >
                    Reject
                  </button>
                </Form>
              </div>
            )}
          </section>
        ))}
        <BackToCompany />
      </div>
    </>
  );
}
