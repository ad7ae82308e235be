import { useState } from "react";
import { Options } from "../../ui/Options.tsx";
import { Form } from "react-router";
import { fieldAria, fieldClass, FieldShell } from "../fields.tsx";
import { PERCENT_OFF_MAX, PERCENT_OFF_MIN, SKU_MAX } from "../../../lib/admin/trade-limits.ts";
import { useHydrated } from "../../../lib/use-hydrated.ts";

type Field = "appliesTo" | "categoryId" | "sku" | "percentOff" | "fixedPrice";
export type RuleFormValues = Partial<Record<Field, string>>;
type Kind = "all" | "category" | "product";

const KINDS: { value: Kind; label: string }[] = [
  { value: "all", label: "Everything" },
  { value: "category", label: "A category" },
  { value: "product", label: "A product (by SKU)" },
];

const isKind = (value: string | undefined): value is Kind => KINDS.some((k) => k.value === value);

interface TextProps {
  id: string;
  name: Field;
  label: string;
  hint: string;
  error?: string;
  defaultValue?: string;
  /** Hidden and disabled (so not posted) when "Applies to" doesn't ask for it. */
  off?: boolean;
  inputMode: "text" | "numeric" | "decimal";
  maxLength: number;
  width?: string;
}

function TextControl({
  id,
  name,
  label,
  hint,
  error,
  defaultValue,
  off = false,
  inputMode,
  maxLength,
  width,
}: TextProps) {
  return (
    <div hidden={off}>
      <FieldShell id={id} label={label} error={error} hint={hint}>
        <input
          id={id}
          name={name}
          type="text"
          inputMode={inputMode}
          autoComplete="off"
          maxLength={maxLength}
          defaultValue={defaultValue ?? ""}
          disabled={off}
          className={fieldClass(error, width)}
          {...fieldAria(id, error, hint)}
        />
      </FieldShell>
    </div>
  );
}

/**
 * "Add a rule": what it applies to (everything, a category, a product by SKU) and a percent off
 * or, for a product, a fixed price. Without JavaScript every field shows and the server uses the
 * ones that fit; once scripts run, only the fields "Applies to" asks for.
 */
export function AddRuleForm({
  categories,
  values = {},
  errors = {},
}: {
  categories: { id: number; name: string }[];
  values?: RuleFormValues;
  errors?: RuleFormValues;
}) {
  const [kind, setKind] = useState<Kind>(isKind(values.appliesTo) ? values.appliesTo : "all");
  const hydrated = useHydrated();
  const off = (k: Kind) => hydrated && kind !== k;
  const categoryHint = hydrated ? undefined : "Only when the rule applies to a category.";
  return (
    <Form method="post" noValidate className="mt-3 grid max-w-xl gap-3" aria-labelledby="add-rule-heading">
      <input type="hidden" name="intent" value="add-rule" />
      <FieldShell id="rule-applies-to" label="Applies to" error={errors.appliesTo}>
        <select
          id="rule-applies-to"
          name="appliesTo"
          defaultValue={kind}
          onChange={(e) => setKind(e.currentTarget.value as Kind)}
          className={fieldClass(errors.appliesTo)}
          {...fieldAria("rule-applies-to", errors.appliesTo)}
        >
          <Options options={KINDS} />
        </select>
      </FieldShell>
      <div hidden={off("category")}>
        <FieldShell id="rule-category" label="Category" error={errors.categoryId} hint={categoryHint}>
          <select
            id="rule-category"
            name="categoryId"
            defaultValue={values.categoryId ?? ""}
            disabled={off("category")}
            className={fieldClass(errors.categoryId)}
            {...fieldAria("rule-category", errors.categoryId, categoryHint)}
          >
            <option value="">Choose a category</option>
            <Options options={categories.map((c) => ({ value: c.id, label: c.name }))} />
          </select>
        </FieldShell>
      </div>
      <TextControl
        id="rule-sku"
        name="sku"
        label="SKU"
        hint={hydrated ? "Like TH-0000123." : "Only when the rule applies to one product. Like TH-0000123."}
        error={errors.sku}
        defaultValue={values.sku}
        off={off("product")}
        inputMode="text"
        maxLength={SKU_MAX}
      />
      <TextControl
        id="rule-percent"
        name="percentOff"
        label="Percent off"
        hint={`A whole number from ${PERCENT_OFF_MIN} to ${PERCENT_OFF_MAX}.`}
        error={errors.percentOff}
        defaultValue={values.percentOff}
        inputMode="numeric"
        maxLength={4}
        width="w-32"
      />
      <TextControl
        id="rule-fixed"
        name="fixedPrice"
        label="Fixed price (USD)"
        hint="For one product, instead of a percent off. Like 12.50."
        error={errors.fixedPrice}
        defaultValue={values.fixedPrice}
        off={off("product")}
        inputMode="decimal"
        maxLength={16}
        width="w-40"
      />
      <p>
        <button type="submit" className="btn-primary">
          Add rule
        </button>
      </p>
    </Form>
  );
}
