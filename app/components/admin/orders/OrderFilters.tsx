import { Link } from "react-router";
import { FILTER_STATUSES } from "../../../lib/order-admin-constants.ts";
import { ADMIN_STATUS_LABELS } from "../../../lib/order-labels.ts";
import { COUNTRIES, PAYMENT_METHODS } from "../../../lib/order-rules.ts";
import { fieldAria, FieldShell } from "../fields.tsx";
import { FilterForm } from "../list/FilterForm.tsx";

export type FilterValues = Partial<
  Record<"status" | "from" | "to" | "payment" | "country" | "email" | "number" | "attention", string>
>;

/** The order list's filters, each with its error beside it. */
export function OrderFilters({
  values,
  errors,
  sort,
}: {
  values: FilterValues;
  errors: Record<string, string>;
  sort: { sort?: string; dir?: string };
}) {
  const v = (k: keyof FilterValues) => values[k] ?? "";
  return (
    <FilterForm
      label="Filter orders"
      search={false}
      button="Filter"
      hidden={sort}
      className="mt-4 grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-4"
      after={
        <Link to="/admin/orders" className="font-semibold text-brand-800 underline">
          Clear filters
        </Link>
      }
    >
      <FieldShell id="f-number" label="Order number" error={errors.number}>
        <input
          id="f-number"
          name="number"
          defaultValue={v("number")}
          maxLength={20}
          placeholder="TH-1A2B3C4D5E"
          className="field mt-1"
          {...fieldAria("f-number", errors.number)}
        />
      </FieldShell>
      <FieldShell id="f-email" label="Customer email" error={errors.email}>
        <input
          id="f-email"
          name="email"
          type="email"
          defaultValue={v("email")}
          maxLength={254}
          className="field mt-1"
          {...fieldAria("f-email", errors.email)}
        />
      </FieldShell>
      <FieldShell id="f-status" label="Status" error={errors.status}>
        <select
          id="f-status"
          name="status"
          defaultValue={v("status")}
          className="field mt-1"
          {...fieldAria("f-status", errors.status)}
        >
          <option value="">Any placed order</option>
          {FILTER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ADMIN_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </FieldShell>
      <FieldShell id="f-payment" label="Payment method" error={errors.payment}>
        <select
          id="f-payment"
          name="payment"
          defaultValue={v("payment")}
          className="field mt-1"
          {...fieldAria("f-payment", errors.payment)}
        >
          <option value="">Any</option>
          {PAYMENT_METHODS.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      </FieldShell>
      <FieldShell id="f-country" label="Country" error={errors.country}>
        <select
          id="f-country"
          name="country"
          defaultValue={v("country")}
          className="field mt-1"
          {...fieldAria("f-country", errors.country)}
        >
          <option value="">Any</option>
          {COUNTRIES.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </FieldShell>
      <FieldShell id="f-from" label="Placed from" error={errors.from}>
        <input
          id="f-from"
          name="from"
          type="date"
          defaultValue={v("from")}
          className="field mt-1"
          {...fieldAria("f-from", errors.from)}
        />
      </FieldShell>
      <FieldShell id="f-to" label="Placed until" error={errors.to}>
        <input
          id="f-to"
          name="to"
          type="date"
          defaultValue={v("to")}
          className="field mt-1"
          {...fieldAria("f-to", errors.to)}
        />
      </FieldShell>
      <div className="flex items-end">
        <label htmlFor="f-attention" className="inline-flex items-center gap-2 text-sm font-semibold text-ink">
          <input
            id="f-attention"
            name="attention"
            type="checkbox"
            value="payment"
            defaultChecked={v("attention") === "payment"}
          />
          Only payments needing attention
        </label>
      </div>
    </FilterForm>
  );
}
