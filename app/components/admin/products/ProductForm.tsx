import { useState } from "react";
import { Form, useNavigation } from "react-router";
import {
  PRODUCT_LIMITS,
  productEditSchema,
  productSchema,
  validateWith,
  type FieldErrors,
  type ProductField,
} from "../../../lib/product-schema.ts";
import { FormMessage, Select, TextArea, TextInput } from "../fields.tsx";

const fieldId = (f: string) => `product-${f.replaceAll("_", "-")}`;

interface Option {
  name: string;
  slug: string;
}

/**
 * Every product field the storefront shows. The server validates with the same zod schema; with
 * JavaScript the browser checks first, so errors appear beside the fields without a round trip.
 * `version` (edit only) is the save this form started from.
 */
export function ProductForm({
  mode,
  values,
  errors: serverErrors = {},
  message,
  brands,
  categories,
  version,
  ukPriceInUse,
}: {
  mode: "new" | "edit";
  values: Partial<Record<ProductField, string>>;
  errors?: FieldErrors;
  message?: { tone: "error" | "success" | "info"; text: string } | null;
  brands: Option[];
  categories: Option[];
  version?: string;
  /** The product's UK price now, formatted (edit only), for the hint of an empty UK price. */
  ukPriceInUse?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors;
  const v = (f: ProductField) => values[f] ?? "";
  const schema = mode === "new" ? productSchema : productEditSchema;

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const data = Object.fromEntries(new FormData(event.currentTarget));
    const result = validateWith(schema, data);
    if (!result.ok) {
      event.preventDefault();
      setClientErrors(result.errors);
      const first = Object.keys(result.errors)[0];
      if (first) document.getElementById(fieldId(first))?.focus();
    } else setClientErrors(null);
  }

  const field = (f: ProductField, fallback = "") => ({
    id: fieldId(f),
    name: f,
    defaultValue: v(f) || fallback,
    error: errors[f],
  });
  const count = Object.keys(errors).length;
  return (
    <Form
      method="post"
      noValidate
      onSubmit={onSubmit}
      className="space-y-6"
      aria-label={mode === "new" ? "New product" : "Product details"}
    >
      <input type="hidden" name="intent" value="save" />
      {version !== undefined ? <input type="hidden" name="version" value={version} /> : null}
      {message ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
      {count > 0 && !message ? (
        <FormMessage tone="error">
          {count === 1 ? "One field needs a fix." : `${count} fields need a fix.`} See the messages beside them.
        </FormMessage>
      ) : null}
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold text-ink">Basics</legend>
        <TextInput {...field("title")} label="Title" maxLength={PRODUCT_LIMITS.title} className="sm:col-span-2" />
        <TextInput
          {...field("sku")}
          label="SKU"
          hint="Unique. Letters, digits, dots and dashes."
          maxLength={PRODUCT_LIMITS.sku}
        />
        <TextInput {...field("model")} label="Model" />
        <Select
          {...field("brand")}
          label="Brand"
          placeholder="Choose a brand"
          options={brands.map((b) => ({ value: b.slug, label: b.name }))}
        />
        <Select
          {...field("category")}
          label="Category"
          placeholder="Choose a category"
          options={categories.map((c) => ({ value: c.slug, label: c.name }))}
        />
        <TextInput
          {...field("colors")}
          label="Colours"
          hint="Separate with commas, e.g. Yellow, Black."
          className="sm:col-span-2"
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-lg font-semibold text-ink">Price and stock</legend>
        <TextInput {...field("price")} label="Price (USD)" inputMode="decimal" hint="Before discount, e.g. 129.99." />
        <TextInput
          {...field("uk_price")}
          label="UK price (GBP)"
          inputMode="decimal"
          required={false}
          hint={`Including VAT, before discount. Empty: derived from the US price by the UK price rule${ukPriceInUse ? ` (now ${ukPriceInUse})` : ""}.`}
        />
        <TextInput
          {...field("discount_percent")}
          label="Discount (%)"
          inputMode="numeric"
          required={false}
          hint="1–90, or empty for none."
        />
        {mode === "new" ? (
          <TextInput
            {...field("stock", "0")}
            label="Stock"
            inputMode="numeric"
            hint="Recorded in the stock ledger as received."
          />
        ) : null}
        <TextInput
          {...field("low_stock_threshold", "5")}
          label="Low-stock threshold"
          inputMode="numeric"
          hint="Listed as low at or below this."
        />
      </fieldset>
      <fieldset className="grid gap-4">
        <legend className="mb-2 text-lg font-semibold text-ink">Description</legend>
        <TextArea {...field("description")} label="Description" rows={6} maxLength={PRODUCT_LIMITS.description} />
        <TextArea
          {...field("features")}
          label="Features"
          required={false}
          rows={4}
          hint="One per line; shown as a list on the product page."
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold text-ink">Specifications</legend>
        <TextInput {...field("material")} label="Material" />
        <TextInput {...field("weight_grams")} label="Weight (grams)" inputMode="numeric" />
        <TextInput {...field("country_of_origin")} label="Country of origin" />
        <TextInput {...field("manufacturer")} label="Manufacturer" />
        <TextArea
          {...field("return_policy")}
          label="Return policy"
          rows={2}
          maxLength={PRODUCT_LIMITS.returnPolicy}
          className="sm:col-span-2"
        />
      </fieldset>
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Saving…" : mode === "new" ? "Create product" : "Save changes"}
      </button>
    </Form>
  );
}
