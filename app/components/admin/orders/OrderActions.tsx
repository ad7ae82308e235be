import type { StaffOrderDetail } from "../../../../server/orders/admin-queries.ts";
import { CARRIERS, NOTE_MAX, type OrderAction } from "../../../lib/order-admin-constants.ts";
import { CURRENCY_WORDS, formatMoney } from "../../../lib/money.ts";
import { Select, sameOptions, TextArea, TextInput } from "../fields.tsx";
import { longDate } from "../../../lib/dates.ts";
import { MoveForm, StepForm, type ActionResult, type Fetcher } from "./MoveForms.tsx";
import { ReturnMove } from "./ReturnLines.tsx";
import { HeadedSection } from "../../ui/HeadedSection.tsx";

type Order = Pick<
  StaffOrderDetail,
  | "number"
  | "version"
  | "status"
  | "actions"
  | "lines"
  | "refundableCents"
  | "invoice_number"
  | "invoice_due_at"
  | "total_cents"
  | "currency"
>;

function invoiceIntro(order: Order): string {
  const due = order.invoice_due_at ? new Date(order.invoice_due_at) : null;
  const when = due ? longDate(due) : "";
  const overdue = due && due.getTime() < Date.now() ? " It is overdue." : "";
  return `Invoice ${order.invoice_number} for ${formatMoney(order.total_cents, order.currency)} is unpaid${when ? `, due ${when}` : ""}.${overdue} Mark it paid when the money has arrived.`;
}

/**
 * The moves staff can make from the order's current status, each its own form. With JavaScript
 * they post through one fetcher (buttons wait while it's busy); without, they post the page.
 */
export function OrderActions({
  order,
  fetcher,
  result,
}: {
  order: Order;
  fetcher: Fetcher;
  result: ActionResult | undefined;
}) {
  const busy = fetcher.state !== "idle";
  const refused = (intent: OrderAction) => Boolean(result && !result.ok && result.intent === intent);
  const errors = (intent: OrderAction) => (refused(intent) ? (result?.fields ?? {}) : {});
  const typed = (intent: OrderAction) => (refused(intent) ? (result?.values ?? {}) : {});
  /** id, name, what was typed (else `fallback`) and the error of one field of a move. */
  const field = (intent: OrderAction, name: string, id = name, fallback?: string) => ({
    id,
    name,
    defaultValue: typed(intent)[name] ?? fallback,
    error: errors(intent)[name],
  });
  const { actions, version } = order;
  const any =
    actions.pack ||
    actions.ship ||
    actions.deliver ||
    actions.cancel ||
    actions.return ||
    actions.refund ||
    actions["mark-paid"];
  const optionalNote = { required: false, rows: 2, maxLength: NOTE_MAX } as const;
  return (
    <HeadedSection
      id="actions-heading"
      title="Actions"
      headingClassName="text-xl font-semibold text-ink"
      className="mt-8 rounded-lg border border-slate-300 p-4"
    >
      {!any ? <p className="mt-2 text-sm text-slate-700">Nothing more can be done with this order.</p> : null}
      {actions.pack || actions.deliver ? (
        <div className="mt-3 flex flex-wrap items-start gap-6">
          {actions.pack ? (
            <StepForm fetcher={fetcher} intent="pack" version={version} label="Mark as packed" busy={busy} />
          ) : null}
          {actions.deliver ? (
            <StepForm fetcher={fetcher} intent="deliver" version={version} label="Mark as delivered" busy={busy} />
          ) : null}
        </div>
      ) : null}
      {actions["mark-paid"] ? (
        <MoveForm
          fetcher={fetcher}
          intent="mark-paid"
          version={version}
          title="Invoice payment"
          intro={invoiceIntro(order)}
          className="mt-4"
        >
          <button type="submit" className="btn-primary mt-2" disabled={busy}>
            Mark invoice paid
          </button>
        </MoveForm>
      ) : null}
      {actions.ship ? (
        <MoveForm
          fetcher={fetcher}
          intent="ship"
          version={version}
          title="Ship the order"
          className="mt-4 grid gap-3 sm:grid-cols-3 sm:items-end"
          headingClassName="sm:col-span-3"
        >
          <Select
            {...field("ship", "carrier", "carrier", "")}
            label="Carrier"
            placeholder="Choose a carrier"
            placeholderDisabled
            options={sameOptions(CARRIERS)}
          />
          <TextInput
            {...field("ship", "trackingNumber")}
            label="Tracking number"
            maxLength={60}
            autoComplete="off"
            controlClassName="font-mono"
          />
          <div>
            <button type="submit" className="btn-primary" disabled={busy}>
              Mark as shipped
            </button>
          </div>
        </MoveForm>
      ) : null}
      {actions.return ? (
        <ReturnMove
          fetcher={fetcher}
          version={version}
          lines={order.lines}
          typed={typed("return")}
          errors={errors("return")}
          busy={busy}
        />
      ) : null}
      {actions.refund ? (
        <MoveForm
          fetcher={fetcher}
          intent="refund"
          version={version}
          title="Refund the card payment"
          intro={`Up to ${formatMoney(order.refundableCents, order.currency)} can be refunded. Leave the amount blank to refund all of it. The refund goes through Stripe to the customer's card, and the customer is emailed.`}
          className="mt-6 grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-2"
          headingClassName="sm:col-span-2"
        >
          <TextInput
            {...field("refund", "amount", "refund-amount")}
            label={`Amount to refund in ${CURRENCY_WORDS[order.currency]} (optional)`}
            required={false}
            inputMode="decimal"
            maxLength={13}
            autoComplete="off"
          />
          <TextArea
            {...field("refund", "reason", "refund-reason")}
            label="Reason (optional, told to the customer)"
            {...optionalNote}
          />
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary" disabled={busy}>
              Refund
            </button>
          </div>
        </MoveForm>
      ) : null}
      {actions.cancel ? (
        <MoveForm
          fetcher={fetcher}
          intent="cancel"
          version={version}
          title="Cancel the order"
          intro="The items go back into stock and the customer is emailed."
          className="mt-6 border-t border-slate-200 pt-4"
        >
          <TextArea
            {...field("cancel", "reason", "cancel-reason")}
            label="Reason (optional, told to the customer)"
            {...optionalNote}
            className="mt-2"
          />
          <button type="submit" className="btn mt-3 bg-red-700 text-white hover:bg-red-800" disabled={busy}>
            Cancel order
          </button>
        </MoveForm>
      ) : null}
    </HeadedSection>
  );
}
