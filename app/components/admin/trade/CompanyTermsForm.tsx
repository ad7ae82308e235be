import { Form } from "react-router";
import { Options } from "../../ui/Options.tsx";
import { centsToDecimalString, formatMoney } from "../../../lib/money.ts";
import { fieldAria, fieldClass, FieldShell, TextInput } from "../fields.tsx";
import { MAX_CREDIT_LIMIT_CENTS } from "../../../lib/admin/trade-limits.ts";

export interface TermsFormValues {
  priceListId: string;
  poRequired: boolean;
  net30: boolean;
  creditLimit: string;
}

export interface CurrentTerms {
  priceListId: number | null;
  poRequired: boolean;
  net30: boolean;
  creditLimitCents: number;
  updatedAt: string;
}

const termsFormValues = (terms: CurrentTerms): TermsFormValues => ({
  priceListId: terms.priceListId == null ? "" : String(terms.priceListId),
  poRequired: terms.poRequired,
  net30: terms.net30,
  creditLimit: centsToDecimalString(terms.creditLimitCents),
});

function Checkbox({
  id,
  name,
  label,
  defaultChecked,
}: {
  id: string;
  name: string;
  label: string;
  defaultChecked: boolean;
}) {
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        name={name}
        type="checkbox"
        defaultChecked={defaultChecked}
        className="h-4 w-4 rounded border-slate-400"
      />
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
    </div>
  );
}

/**
 * The company's terms: price list, PO numbers, net-30 and credit limit. It carries the version
 * (companies.updated_at) it was rendered with, so a save over someone else's is refused.
 */
export function CompanyTermsForm({
  terms,
  priceLists,
  values = termsFormValues(terms),
  errors = {},
}: {
  terms: CurrentTerms;
  priceLists: { id: number; name: string }[];
  values?: TermsFormValues;
  errors?: Partial<Record<"priceListId" | "creditLimit", string>>;
}) {
  const creditHint = `From $0 to ${formatMoney(MAX_CREDIT_LIMIT_CENTS)}.`;
  return (
    <Form method="post" noValidate className="mt-3 grid max-w-xl gap-4" aria-labelledby="terms-heading">
      <input type="hidden" name="intent" value="terms" />
      <input type="hidden" name="updatedAt" value={terms.updatedAt} />
      <FieldShell id="terms-price-list" label="Price list" error={errors.priceListId}>
        <select
          id="terms-price-list"
          name="priceListId"
          defaultValue={values.priceListId}
          className={fieldClass(errors.priceListId)}
          {...fieldAria("terms-price-list", errors.priceListId)}
        >
          <option value="">None (list prices)</option>
          <Options options={priceLists.map((list) => ({ value: list.id, label: list.name }))} />
        </select>
      </FieldShell>
      <Checkbox
        id="terms-po-required"
        name="poRequired"
        label="PO number required on every order"
        defaultChecked={values.poRequired}
      />
      <Checkbox id="terms-net30" name="net30" label="Net-30 invoices" defaultChecked={values.net30} />
      <TextInput
        id="terms-credit-limit"
        name="creditLimit"
        label="Credit limit (USD)"
        inputMode="decimal"
        maxLength={20}
        defaultValue={values.creditLimit}
        error={errors.creditLimit}
        hint={creditHint}
        controlClassName="w-48"
        autoComplete="off"
      />
      <p>
        <button type="submit" className="btn-primary">
          Save company terms
        </button>
      </p>
    </Form>
  );
}

/** The terms as text, for staff who may see but not change them. */
export function CompanyTermsSummary({
  terms,
  priceLists,
}: {
  terms: CurrentTerms;
  priceLists: { id: number; name: string }[];
}) {
  const list = priceLists.find((l) => l.id === terms.priceListId);
  return (
    <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
      <dt className="font-semibold text-ink">Price list</dt>
      <dd>{list?.name ?? "None (list prices)"}</dd>
      <dt className="font-semibold text-ink">PO number required</dt>
      <dd>{terms.poRequired ? "Yes" : "No"}</dd>
      <dt className="font-semibold text-ink">Net-30 invoices</dt>
      <dd>{terms.net30 ? "Yes" : "No"}</dd>
      <dt className="font-semibold text-ink">Credit limit</dt>
      <dd>{formatMoney(terms.creditLimitCents)}</dd>
    </dl>
  );
}
