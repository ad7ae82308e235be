import type { InputHTMLAttributes } from "react";
import { Options } from "../../ui/Options.tsx";
import { Link } from "react-router";
import { FILTER_STATUSES } from "../../../lib/order-admin-constants.ts";
import { ADMIN_STATUS_LABELS } from "../../../lib/order-labels.ts";
import { COUNTRIES, PAYMENT_METHODS } from "../../../lib/order-rules.ts";
import { CURRENCIES, CURRENCY_NAMES } from "../../../lib/money.ts";
import { fieldAria, FieldShell } from "../fields.tsx";
import { FilterForm } from "../list/FilterForm.tsx";

export type FilterValues = Partial<
  Record<"status" | "from" | "to" | "payment" | "country" | "currency" | "email" | "number" | "attention", string>
>;

interface FilterControl {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
}

/** A labelled filter box (id `f-<name>`) with its error under it. */
function FilterInput({
  name,
  label,
  error,
  ...input
}: FilterControl & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "defaultValue">) {
  const id = `f-${name}`;
  return (
    <FieldShell id={id} label={label} error={error}>
      <input id={id} name={name} {...input} className="field mt-1" {...fieldAria(id, error)} />
    </FieldShell>
  );
}

/** A labelled filter list whose first, empty choice is `anyLabel`. */
function FilterSelect({
  name,
  label,
  error,
  defaultValue,
  anyLabel,
  options,
}: FilterControl & { anyLabel: string; options: { value: string; label: string }[] }) {
  const id = `f-${name}`;
  return (
    <FieldShell id={id} label={label} error={error}>
      <select id={id} name={name} defaultValue={defaultValue} className="field mt-1" {...fieldAria(id, error)}>
        <option value="">{anyLabel}</option>
        <Options options={options} />
      </select>
    </FieldShell>
  );
}

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
  const props = (k: keyof FilterValues) => ({ defaultValue: v(k), error: errors[k] });
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
      <FilterInput name="number" label="Order number" maxLength={20} placeholder="TH-1A2B3C4D5E" {...props("number")} />
      <FilterInput name="email" label="Customer email" type="email" maxLength={254} {...props("email")} />
      <FilterSelect
        name="status"
        label="Status"
        anyLabel="Any placed order"
        options={FILTER_STATUSES.map((s) => ({ value: s, label: ADMIN_STATUS_LABELS[s] }))}
        {...props("status")}
      />
      <FilterSelect
        name="payment"
        label="Payment method"
        anyLabel="Any"
        options={PAYMENT_METHODS.map((m) => ({ value: m.id, label: m.label }))}
        {...props("payment")}
      />
      <FilterSelect
        name="country"
        label="Country"
        anyLabel="Any"
        options={COUNTRIES.map((c) => ({ value: c.code, label: c.name }))}
        {...props("country")}
      />
      <FilterSelect
        name="currency"
        label="Currency"
        anyLabel="Any"
        options={CURRENCIES.map((c) => ({ value: c, label: CURRENCY_NAMES[c] }))}
        {...props("currency")}
      />
      <FilterInput name="from" label="Placed from" type="date" {...props("from")} />
      <FilterInput name="to" label="Placed until" type="date" {...props("to")} />
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
