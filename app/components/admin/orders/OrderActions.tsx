import type { ReactNode } from "react";
import type { FetcherWithComponents } from "react-router";
import type { StaffOrderDetail } from "../../../../server/orders/admin-queries.ts";
import { CARRIERS, NOTE_MAX, RETURN_REASONS, type OrderAction } from "../../../lib/order-admin-constants.ts";
import { formatMoney } from "../../../lib/money.ts";
import { fieldAria, FieldMessages, Select, sameOptions, TextArea, TextInput } from "../fields.tsx";
import { longDate } from "../../../lib/dates.ts";
import { ReturnLines } from "./ReturnLines.tsx";

export interface ActionResult {
  ok: boolean;
  message: string;
  intent?: string;
  fields?: Record<string, string>;
  /** What was typed, put back into the form after a refusal (the page without JavaScript re-renders). */
  values?: Record<string, string>;
}

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
>;

function invoiceIntro(order: Order): string {
  const due = order.invoice_due_at ? new Date(order.invoice_due_at) : null;
  const when = due ? longDate(due) : "";
  const overdue = due && due.getTime() < Date.now() ? " It is overdue." : "";
  return `Invoice ${order.invoice_number} for ${formatMoney(order.total_cents)} is unpaid${when ? `, due ${when}` : ""}.${overdue} Mark it paid when the money has arrived.`;
}

function Hidden({ intent, version }: { intent: OrderAction; version: number }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}

type Fetcher = FetcherWithComponents<ActionResult>;

/** A move that needs nothing but the button: the form is named after it. */
function StepForm({
  fetcher,
  intent,
  version,
  label,
  busy,
}: {
  fetcher: Fetcher;
  intent: OrderAction;
  version: number;
  label: string;
  busy: boolean;
}) {
  return (
    <fetcher.Form method="post" aria-label={label}>
      <Hidden intent={intent} version={version} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {label}
      </button>
    </fetcher.Form>
  );
}

/** A move with fields: a form named by its heading (`<intent>-heading`), an optional explanation, then the fields. */
function MoveForm({
  fetcher,
  intent,
  version,
  title,
  intro,
  className,
  headingClassName = "",
  children,
}: {
  fetcher: Fetcher;
  intent: OrderAction;
  version: number;
  title: string;
  intro?: string;
  className: string;
  headingClassName?: string;
  children: ReactNode;
}) {
  return (
    <fetcher.Form method="post" aria-labelledby={`${intent}-heading`} className={className}>
      <h3 id={`${intent}-heading`} className={`font-semibold text-ink ${headingClassName}`.trim()}>
        {title}
      </h3>
      {intro ? <p className="text-sm text-slate-700">{intro}</p> : null}
      <Hidden intent={intent} version={version} />
      {children}
    </fetcher.Form>
  );
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
  const { actions, version } = order;
  const any =
    actions.pack ||
    actions.ship ||
    actions.deliver ||
    actions.cancel ||
    actions.return ||
    actions.refund ||
    actions["mark-paid"];
  const refund = errors("refund");
  const refundTyped = typed("refund");
  const ship = errors("ship");
  const cancel = errors("cancel");
  const ret = errors("return");
  const shipTyped = typed("ship");
  const cancelTyped = typed("cancel");
  const retTyped = typed("return");
  return (
    <section aria-labelledby="actions-heading" className="mt-8 rounded-lg border border-slate-300 p-4">
      <h2 id="actions-heading" className="text-xl font-semibold text-ink">
        Actions
      </h2>
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
            id="carrier"
            name="carrier"
            label="Carrier"
            defaultValue={shipTyped.carrier ?? ""}
            error={ship.carrier}
            placeholder="Choose a carrier"
            placeholderDisabled
            options={sameOptions(CARRIERS)}
          />
          <TextInput
            id="trackingNumber"
            name="trackingNumber"
            label="Tracking number"
            maxLength={60}
            autoComplete="off"
            defaultValue={shipTyped.trackingNumber}
            error={ship.trackingNumber}
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
        <MoveForm
          fetcher={fetcher}
          intent="return"
          version={version}
          title="Record a return"
          intro="Enter how many units of each line came back. The order becomes “returned” once every unit is back."
          className="mt-6 border-t border-slate-200 pt-4"
        >
          <FieldMessages id="return-lines" error={ret.lines} />
          <ReturnLines lines={order.lines} typed={retTyped} errors={ret} />
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            <Select
              id="return-reason"
              name="reason"
              label="Reason (told to the customer)"
              defaultValue={retTyped.reason ?? ""}
              error={ret.reason}
              placeholder="Choose a reason"
              placeholderDisabled
              options={sameOptions(RETURN_REASONS)}
            />
            <fieldset {...fieldAria("restock", ret.restock)}>
              <legend className="text-sm font-semibold text-ink">Put the goods back into stock?</legend>
              <div className="mt-1 flex flex-col gap-1 text-sm">
                <label className="inline-flex items-center gap-2">
                  <input type="radio" name="restock" value="yes" required defaultChecked={retTyped.restock === "yes"} />{" "}
                  Yes, they can be sold again
                </label>
                <label className="inline-flex items-center gap-2">
                  <input type="radio" name="restock" value="no" defaultChecked={retTyped.restock === "no"} /> No
                  (damaged or unsellable)
                </label>
              </div>
              <FieldMessages id="restock" error={ret.restock} />
            </fieldset>
            <TextArea
              id="return-note"
              name="note"
              label="Note for staff (optional)"
              required={false}
              rows={2}
              maxLength={NOTE_MAX}
              defaultValue={retTyped.note}
              error={ret.note}
              className="sm:col-span-2"
            />
          </div>
          <button type="submit" className="btn-primary mt-3" disabled={busy}>
            Record return
          </button>
        </MoveForm>
      ) : null}
      {actions.refund ? (
        <MoveForm
          fetcher={fetcher}
          intent="refund"
          version={version}
          title="Refund the card payment"
          intro={`Up to ${formatMoney(order.refundableCents)} can be refunded. Leave the amount blank to refund all of it. The refund goes through Stripe to the customer's card, and the customer is emailed.`}
          className="mt-6 grid gap-3 border-t border-slate-200 pt-4 sm:grid-cols-2"
          headingClassName="sm:col-span-2"
        >
          <TextInput
            id="refund-amount"
            name="amount"
            label="Amount to refund in US dollars (optional)"
            required={false}
            inputMode="decimal"
            maxLength={13}
            autoComplete="off"
            defaultValue={refundTyped.amount}
            error={refund.amount}
          />
          <TextArea
            id="refund-reason"
            name="reason"
            label="Reason (optional, told to the customer)"
            required={false}
            rows={2}
            maxLength={NOTE_MAX}
            defaultValue={refundTyped.reason}
            error={refund.reason}
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
            id="cancel-reason"
            name="reason"
            label="Reason (optional, told to the customer)"
            required={false}
            rows={2}
            maxLength={NOTE_MAX}
            defaultValue={cancelTyped.reason}
            error={cancel.reason}
            className="mt-2"
          />
          <button type="submit" className="btn mt-3 bg-red-700 text-white hover:bg-red-800" disabled={busy}>
            Cancel order
          </button>
        </MoveForm>
      ) : null}
    </section>
  );
}
