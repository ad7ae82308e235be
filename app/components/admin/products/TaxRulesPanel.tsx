import { Form, useNavigation } from "react-router";
import { PROP65_WARNING, VAT_CLASS_OPTIONS, type VatClass } from "../../../lib/product-tax.ts";
import { FormMessage, Select } from "../fields.tsx";

/**
 * The product's tax rules (issue 51): its UK VAT rate and whether a Californian sees the
 * Proposition 65 warning before paying for it. A plain form post; a stale form is refused.
 */
export function TaxRulesPanel({
  vatClass,
  prop65,
  version,
  error,
}: {
  vatClass: VatClass;
  prop65: boolean;
  version: string;
  error?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "tax";
  return (
    <section aria-labelledby="tax-rules-heading" className="rounded-lg border border-slate-200 p-4">
      <h2 id="tax-rules-heading" className="text-lg font-semibold text-ink">
        Tax rules
      </h2>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <Form method="post" className="mt-3 space-y-3" key={version}>
        <input type="hidden" name="intent" value="tax" />
        <input type="hidden" name="version" value={version} />
        <Select
          id="tax-vat-class"
          name="vat_class"
          label="UK VAT rate"
          options={VAT_CLASS_OPTIONS}
          defaultValue={vatClass}
        />
        <div className="flex items-start gap-2">
          <input
            id="tax-prop65"
            name="prop65"
            type="checkbox"
            defaultChecked={prop65}
            aria-describedby="tax-prop65-hint"
            className="mt-1 accent-ink"
          />
          <div>
            <label htmlFor="tax-prop65" className="text-sm font-semibold text-ink">
              California Proposition 65 warning
            </label>
            <p id="tax-prop65-hint" className="text-xs text-slate-700">
              Shown at checkout before a shopper delivering to California places the order: &ldquo;{PROP65_WARNING}
              &rdquo;
            </p>
          </div>
        </div>
        <button type="submit" className="btn-outline" disabled={busy}>
          Save tax rules
        </button>
      </Form>
    </section>
  );
}
