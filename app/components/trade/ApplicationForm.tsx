import { Form } from "react-router";
import { TRADE_FIELD_LABELS } from "../../lib/trade-labels.ts";
import { Field } from "../forms/Field.tsx";

export type ApplicationErrors = Partial<Record<keyof typeof TRADE_FIELD_LABELS, string>>;
export type ApplicationValues = Partial<Record<keyof typeof TRADE_FIELD_LABELS, string>>;

/** The trade account application: company, country, VAT number or EIN, billing address and phone. Works without JavaScript. */
export function ApplicationForm({
  errors = {},
  values = {},
  message,
}: {
  errors?: ApplicationErrors;
  values?: ApplicationValues;
  message?: string | null;
}) {
  const field = (
    name: keyof typeof TRADE_FIELD_LABELS,
    extra: { autoComplete?: string; maxLength?: number; type?: "text" | "tel"; required?: boolean } = {},
  ) => (
    <Field
      id={`trade-${name}`}
      name={name}
      label={TRADE_FIELD_LABELS[name]}
      error={errors[name]}
      defaultValue={values[name] ?? ""}
      {...extra}
    />
  );
  return (
    <Form method="post" noValidate className="space-y-4 rounded-xl border border-slate-200 p-6">
      {message ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900">
          {message}
        </p>
      ) : null}
      {field("companyName", { autoComplete: "organization", maxLength: 120 })}
      <div>
        <label htmlFor="trade-country" className="block text-sm font-semibold text-ink">
          {TRADE_FIELD_LABELS.country}
        </label>
        <select
          id="trade-country"
          name="country"
          defaultValue={values.country ?? "GB"}
          className="field mt-1"
          aria-invalid={errors.country ? true : undefined}
          aria-describedby={errors.country ? "trade-country-error" : undefined}
        >
          <option value="GB">United Kingdom</option>
          <option value="US">United States</option>
        </select>
        {errors.country ? (
          <p id="trade-country-error" className="mt-1 text-sm font-medium text-red-700">
            {errors.country}
          </p>
        ) : null}
      </div>
      {field("taxId", { maxLength: 40 })}
      <p className="-mt-2 text-sm text-slate-600">UK: VAT number, like GB123456789. US: EIN, like 12-3456789.</p>
      {field("line1", { autoComplete: "billing address-line1", maxLength: 120 })}
      {field("line2", { autoComplete: "billing address-line2", maxLength: 120, required: false })}
      {field("city", { autoComplete: "billing address-level2", maxLength: 80 })}
      {field("region", { autoComplete: "billing address-level1", maxLength: 80, required: false })}
      {field("postcode", { autoComplete: "billing postal-code", maxLength: 12 })}
      {field("phone", { autoComplete: "tel", maxLength: 30, type: "tel" })}
      <button type="submit" className="btn-primary">
        Apply for a trade account
      </button>
    </Form>
  );
}
