import { data, Link, redirect, useFetcher, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/order";
import { InCurrency } from "../../components/ui/Money.tsx";
import { OrderActions } from "../../components/admin/orders/OrderActions.tsx";
import type { ActionResult } from "../../components/admin/orders/MoveForms.tsx";
import { OrderHistory, OrderReturns } from "../../components/admin/orders/OrderHistory.tsx";
import { OrderFacts, OrderLines } from "../../components/admin/orders/OrderInfo.tsx";
import { STATUS_BADGE, statusName } from "../../components/admin/orders/labels.ts";
import { formatWhen } from "../../components/orders/OrderProgress.tsx";
import { ORDER_ACTIONS, returnFormInput, type OrderAction } from "../../lib/order-admin-schema.ts";
import { can, type Permissions } from "../../../server/auth/permissions.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { isDataRequest } from "../../../server/http/request.ts";
import { getOrderForStaff } from "../../../server/orders/admin-queries.ts";
import { cancelOrder, deliverOrder, packOrder, shipOrder } from "../../../server/orders/fulfilment.ts";
import { OrderInputError } from "../../../server/orders/input.ts";
import { recordReturn } from "../../../server/orders/returns.ts";
import { refundOrder } from "../../../server/payments/refunds.ts";
import { paymentsFromConfig } from "../../../server/payments/stripe.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { markInvoicePaid } from "../../../server/invoices/mark-paid.ts";
import { formText } from "../../lib/form-text.ts";
import { PostAnswer } from "../../components/ui/PostAnswer.tsx";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";

export function meta({ params }: Route.MetaArgs) {
  return [
    { title: `Order ${params.number} | Back office | ToolHub Wholesale` },
    { name: "robots", content: "noindex" },
  ];
}

/** What the page says after a move made without JavaScript (POST, then redirect here). */
const DONE: Record<OrderAction, string> = {
  pack: "Marked as packed. The customer has been emailed.",
  ship: "Marked as shipped. The customer has been emailed the tracking number.",
  deliver: "Marked as delivered. The customer has been emailed.",
  cancel: "The order is cancelled and its items are back in stock. The customer has been emailed.",
  return: "The return is recorded. The customer has been emailed.",
  refund: "The refund is sent. The customer has been emailed.",
  "mark-paid": "The invoice is marked paid.",
};

const PERMISSION: Record<OrderAction, Permissions> = {
  pack: { order: ["update"] },
  ship: { order: ["update"] },
  deliver: { order: ["update"] },
  cancel: { order: ["cancel"] },
  return: { order: ["return"] },
  refund: { order: ["refund"] },
  "mark-paid": { invoice: ["mark-paid"] },
};

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { order: ["view"] });
  const order = await getOrderForStaff(getDb(), params.number);
  if (!order) throw data("Order not found", { status: 404 });
  const { id: _id, user_id, ...view } = order;
  const done = new URL(request.url).searchParams.get("done");
  return { order: view, customerId: user_id, done: done && done in DONE ? DONE[done as OrderAction] : null };
}

/** After any move (won, refused or lost to someone else) the page shows the order as it is now. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod && formMethod.toUpperCase() === "POST" ? true : defaultShouldRevalidate;
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { order: ["view"] });
  const form = await readSmallForm(request);
  const intent = formText(form, "intent") as OrderAction;
  if (!ORDER_ACTIONS.includes(intent))
    return data<ActionResult>(
      { ok: false, message: "Unknown action. Reload the page and try again." },
      { status: 400 },
    );
  if (!can(staff.role, PERMISSION[intent])) throw data("Not found", { status: 404 });
  const db = getDb();
  const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<
    string,
    string
  >;
  try {
    const run = {
      pack: () => packOrder(db, staff, params.number, fields),
      ship: () => shipOrder(db, staff, params.number, fields),
      deliver: () => deliverOrder(db, staff, params.number, fields),
      cancel: () => cancelOrder(db, staff, params.number, fields),
      return: () => recordReturn(db, staff, params.number, returnFormInput(form)),
      refund: () => refundOrder(db, paymentsFromConfig(), staff, params.number, fields),
      "mark-paid": () => markInvoicePaid(db, staff, params.number),
    }[intent];
    const outcome = await run();
    if (isDataRequest(request)) return data<ActionResult>({ ok: true, message: outcome.message, intent });
    throw redirect(`/admin/orders/${outcome.number}?done=${intent}`);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const fieldErrors = error instanceof OrderInputError ? error.fields : undefined;
    const { version: _v, intent: _i, ...typed } = fields;
    const values = Object.fromEntries(Object.entries(typed).map(([k, v]) => [k, v.slice(0, 600)]));
    return data<ActionResult>(
      { ok: false, message: error.message, intent, fields: fieldErrors, values },
      { status: error.status },
    );
  }
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, customerId, done } = loaderData;
  const fetcher = useFetcher<ActionResult>();
  const result: ActionResult | undefined =
    fetcher.data ?? actionData ?? (done ? { ok: true, message: done } : undefined);
  return (
    <InCurrency currency={order.currency}>
      <p className="text-sm">
        <Link to="/admin/orders" className="font-semibold text-brand-800 underline">
          ← All orders
        </Link>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold text-ink">Order {order.number}</h1>
        <span
          className={`rounded-full px-3 py-1 text-sm font-semibold ${STATUS_BADGE[order.status] ?? "bg-slate-200 text-slate-900"}`}
          data-testid="order-status"
        >
          {statusName(order.status)}
          {order.partlyReturned ? " (partly returned)" : ""}
        </span>
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Placed {formatWhen(order.created_at)}
        {order.updated_at ? ` · last changed ${formatWhen(order.updated_at)}` : ""} ·{" "}
        <Link to={`/admin/orders/${order.number}/packing-slip`} className="font-semibold text-brand-800 underline">
          Packing slip
        </Link>
        {["awaiting_confirmation", "awaiting_payment", "awaiting_approval", "expired"].includes(order.status) ? null : (
          <>
            {" · "}
            <a
              href={`/admin/orders/${order.number}/invoice.pdf`}
              className="font-semibold text-brand-800 underline"
              download
            >
              Invoice (PDF)
            </a>
          </>
        )}
      </p>
      <div aria-live="polite">
        <PostAnswer answer={result} className="mt-4 rounded-lg p-4" />
      </div>
      <div className="mt-6">
        <OrderFacts order={order} customerId={customerId} />
      </div>
      <HeadedSection
        id="lines-heading"
        title="Items"
        headingClassName="text-xl font-semibold text-ink"
        className="mt-8"
      >
        <div className="mt-2">
          <OrderLines order={order} />
        </div>
      </HeadedSection>
      <OrderActions order={order} fetcher={fetcher} result={result} />
      <OrderReturns returns={order.returns} />
      <OrderHistory createdAt={order.created_at} events={order.events} />
    </InCurrency>
  );
}
