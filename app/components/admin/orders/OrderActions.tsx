import type { FetcherWithComponents } from "react-router";
import type { StaffOrderDetail } from "../../../../server/orders/admin-queries.ts";
import { CARRIERS, NOTE_MAX, RETURN_REASONS, type OrderAction } from "../../../lib/order-admin-constants.ts";

export interface ActionResult {
  ok: boolean;
  message: string;
  intent?: OrderAction | string;
  fields?: Record<string, string>;
  /** What was typed, put back into the form after a refusal (the page without JavaScript re-renders). */
  values?: Record<string, string>;
}

type Order = Pick<StaffOrderDetail, "number" | "version" | "status" | "actions" | "lines">;

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
      {error}
    </p>
  ) : null;
}
const invalid = (id: string, error?: string) => (error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {});

function Hidden({ intent, version }: { intent: OrderAction; version: number }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}

/**
 * The moves staff can make from the order's current status, each its own form. With JavaScript
 * they post through one fetcher (buttons wait while it's busy); without, they post the page.
 */
export function OrderActions({ order, fetcher, result }: { order: Order; fetcher: FetcherWithComponents<ActionResult>; result: ActionResult | undefined }) {
  const busy = fetcher.state !== "idle";
  const errors = (intent: OrderAction) => (result && !result.ok && result.intent === intent ? (result.fields ?? {}) : {});
  const typed = (intent: OrderAction) => (result && !result.ok && result.intent === intent ? (result.values ?? {}) : {});
  const { actions } = order;
  const any = actions.pack || actions.ship || actions.deliver || actions.cancel || actions.return;
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
            <fetcher.Form method="post" aria-label="Mark as packed">
              <Hidden intent="pack" version={order.version} />
              <button type="submit" className="btn-primary" disabled={busy}>
                Mark as packed
              </button>
            </fetcher.Form>
          ) : null}
          {actions.deliver ? (
            <fetcher.Form method="post" aria-label="Mark as delivered">
              <Hidden intent="deliver" version={order.version} />
              <button type="submit" className="btn-primary" disabled={busy}>
                Mark as delivered
              </button>
            </fetcher.Form>
          ) : null}
        </div>
      ) : null}
      {actions.ship ? (
        <fetcher.Form method="post" aria-labelledby="ship-heading" className="mt-4 grid gap-3 sm:grid-cols-3 sm:items-end">
          <h3 id="ship-heading" className="font-semibold text-ink sm:col-span-3">
            Ship the order
          </h3>
          <Hidden intent="ship" version={order.version} />
          <div>
            <label htmlFor="carrier" className="block text-sm font-semibold text-ink">
              Carrier
            </label>
            <select id="carrier" name="carrier" required defaultValue={shipTyped.carrier ?? ""} className="field mt-1" {...invalid("carrier", ship.carrier)}>
              <option value="" disabled>
                Choose a carrier
              </option>
              {CARRIERS.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <FieldError id="carrier" error={ship.carrier} />
          </div>
          <div>
            <label htmlFor="trackingNumber" className="block text-sm font-semibold text-ink">
              Tracking number
            </label>
            <input id="trackingNumber" name="trackingNumber" required maxLength={60} autoComplete="off" defaultValue={shipTyped.trackingNumber} className="field mt-1 font-mono" {...invalid("trackingNumber", ship.trackingNumber)} />
            <FieldError id="trackingNumber" error={ship.trackingNumber} />
          </div>
          <div>
            <button type="submit" className="btn-primary" disabled={busy}>
              Mark as shipped
            </button>
          </div>
        </fetcher.Form>
      ) : null}
      {actions.return ? (
        <fetcher.Form method="post" aria-labelledby="return-heading" className="mt-6 border-t border-slate-200 pt-4">
          <h3 id="return-heading" className="font-semibold text-ink">
            Record a return
          </h3>
          <p className="text-sm text-slate-700">Enter how many units of each line came back. The order becomes “returned” once every unit is back.</p>
          <Hidden intent="return" version={order.version} />
          {ret.lines ? <FieldError id="return-lines" error={ret.lines} /> : null}
          <table className="mt-2 w-full text-left text-sm">
            <caption className="sr-only">Units returned per line</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3">Line</th>
                <th scope="col" className="py-1 pr-3 text-right">Can come back</th>
                <th scope="col" className="py-1">Units returned</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((l) => {
                const id = `qty-${l.id}`;
                const left = l.quantity - l.returned;
                return (
                  <tr key={l.id} className="border-t border-slate-200">
                    <td className="py-1 pr-3">
                      <label htmlFor={id}>
                        {l.title}
                        {l.color ? ` (${l.color})` : ""}
                      </label>
                    </td>
                    <td className="py-1 pr-3 text-right">{left}</td>
                    <td className="py-1">
                      <input id={id} name={id} type="number" inputMode="numeric" min={0} max={left} step={1} defaultValue={retTyped[id] ?? 0} disabled={left === 0} className="field w-24" {...invalid(id, ret[id])} />
                      <FieldError id={id} error={ret[id]} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            <div>
              <label htmlFor="return-reason" className="block text-sm font-semibold text-ink">
                Reason (told to the customer)
              </label>
              <select id="return-reason" name="reason" required defaultValue={retTyped.reason ?? ""} className="field mt-1" {...invalid("return-reason", ret.reason)}>
                <option value="" disabled>
                  Choose a reason
                </option>
                {RETURN_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
              <FieldError id="return-reason" error={ret.reason} />
            </div>
            <fieldset {...invalid("restock", ret.restock)}>
              <legend className="text-sm font-semibold text-ink">Put the goods back into stock?</legend>
              <div className="mt-1 flex flex-col gap-1 text-sm">
                <label className="inline-flex items-center gap-2">
                  <input type="radio" name="restock" value="yes" required defaultChecked={retTyped.restock === "yes"} /> Yes, they can be sold again
                </label>
                <label className="inline-flex items-center gap-2">
                  <input type="radio" name="restock" value="no" defaultChecked={retTyped.restock === "no"} /> No (damaged or unsellable)
                </label>
              </div>
              <FieldError id="restock" error={ret.restock} />
            </fieldset>
            <div className="sm:col-span-2">
              <label htmlFor="return-note" className="block text-sm font-semibold text-ink">
                Note for staff (optional)
              </label>
              <textarea id="return-note" name="note" rows={2} maxLength={NOTE_MAX} defaultValue={retTyped.note} className="field mt-1" {...invalid("return-note", ret.note)} />
              <FieldError id="return-note" error={ret.note} />
            </div>
          </div>
          <button type="submit" className="btn-primary mt-3" disabled={busy}>
            Record return
          </button>
        </fetcher.Form>
      ) : null}
      {actions.cancel ? (
        <fetcher.Form method="post" aria-labelledby="cancel-heading" className="mt-6 border-t border-slate-200 pt-4">
          <h3 id="cancel-heading" className="font-semibold text-ink">
            Cancel the order
          </h3>
          <p className="text-sm text-slate-700">The items go back into stock and the customer is emailed.</p>
          <Hidden intent="cancel" version={order.version} />
          <label htmlFor="cancel-reason" className="mt-2 block text-sm font-semibold text-ink">
            Reason (optional, told to the customer)
          </label>
          <textarea id="cancel-reason" name="reason" rows={2} maxLength={NOTE_MAX} defaultValue={cancelTyped.reason} className="field mt-1" {...invalid("cancel-reason", cancel.reason)} />
          <FieldError id="cancel-reason" error={cancel.reason} />
          <button type="submit" className="btn mt-3 bg-red-700 text-white hover:bg-red-800" disabled={busy}>
            Cancel order
          </button>
        </fetcher.Form>
      ) : null}
    </section>
  );
}
