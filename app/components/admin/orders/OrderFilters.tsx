import { Form, Link } from "react-router";
import { ADMIN_STATUS_LABELS, FILTER_STATUSES } from "../../../lib/order-admin-constants.ts";
import { COUNTRIES, PAYMENT_METHODS } from "../../../lib/order-rules.ts";

export type FilterValues = Partial<Record<"status" | "from" | "to" | "payment" | "country" | "email" | "number", string>>;

function FilterField({ id, label, error, children }: { id: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const invalid = (id: string, error?: string) => (error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {});

/** The order list's filters: a GET form, so the query string is the state and it works without JavaScript. */
export function OrderFilters({ values, errors, sort }: { values: FilterValues; errors: Record<string, string>; sort: { sort?: string; dir?: string } }) {
  const v = (k: keyof FilterValues) => values[k] ?? "";
  return (
    <Form method="get" className="mt-4 grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter orders">
      <FilterField id="f-number" label="Order number" error={errors.number}>
        <input id="f-number" name="number" defaultValue={v("number")} maxLength={20} placeholder="TH-1A2B3C4D5E" className="field mt-1" {...invalid("f-number", errors.number)} />
      </FilterField>
      <FilterField id="f-email" label="Customer email" error={errors.email}>
        <input id="f-email" name="email" type="email" defaultValue={v("email")} maxLength={254} className="field mt-1" {...invalid("f-email", errors.email)} />
      </FilterField>
      <FilterField id="f-status" label="Status" error={errors.status}>
        <select id="f-status" name="status" defaultValue={v("status")} className="field mt-1" {...invalid("f-status", errors.status)}>
          <option value="">Any placed order</option>
          {FILTER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ADMIN_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField id="f-payment" label="Payment method" error={errors.payment}>
        <select id="f-payment" name="payment" defaultValue={v("payment")} className="field mt-1" {...invalid("f-payment", errors.payment)}>
          <option value="">Any</option>
          {PAYMENT_METHODS.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField id="f-country" label="Country" error={errors.country}>
        <select id="f-country" name="country" defaultValue={v("country")} className="field mt-1" {...invalid("f-country", errors.country)}>
          <option value="">Any</option>
          {COUNTRIES.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField id="f-from" label="Placed from" error={errors.from}>
        <input id="f-from" name="from" type="date" defaultValue={v("from")} className="field mt-1" {...invalid("f-from", errors.from)} />
      </FilterField>
      <FilterField id="f-to" label="Placed until" error={errors.to}>
        <input id="f-to" name="to" type="date" defaultValue={v("to")} className="field mt-1" {...invalid("f-to", errors.to)} />
      </FilterField>
      {sort.sort ? <input type="hidden" name="sort" value={sort.sort} /> : null}
      {sort.dir ? <input type="hidden" name="dir" value={sort.dir} /> : null}
      <div className="flex items-end gap-3">
        <button type="submit" className="btn-primary">
          Filter
        </button>
        <Link to="/admin/orders" className="font-semibold text-brand-800 underline">
          Clear filters
        </Link>
      </div>
    </Form>
  );
}
