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
}: {
  mode: "new" | "edit";
  values: Partial<Record<ProductField, string>>;
  errors?: FieldErrors;
  message?: { tone: "error" | "success" | "info"; text: string } | null;
  brands: Option[];
  categories: Option[];
  version?: string;
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
      if (first) document.getElementById(`product-${first.replaceAll("_", "-")}`)?.focus();
    } else setClientErrors(null);
  }

  const id = (f: string) => `product-${f.replaceAll("_", "-")}`;
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
        <TextInput
          id={id("title")}
          name="title"
          label="Title"
          defaultValue={v("title")}
          error={errors.title}
          maxLength={PRODUCT_LIMITS.title}
          className="sm:col-span-2"
        />
        <TextInput
          id={id("sku")}
          name="sku"
          label="SKU"
          defaultValue={v("sku")}
          error={errors.sku}
          hint="Unique. Letters, digits, dots and dashes."
          maxLength={PRODUCT_LIMITS.sku}
        />
        <TextInput id={id("model")} name="model" label="Model" defaultValue={v("model")} error={errors.model} />
        <Select
          id={id("brand")}
          name="brand"
          label="Brand"
          defaultValue={v("brand")}
          error={errors.brand}
          placeholder="Choose a brand"
          options={brands.map((b) => ({ value: b.slug, label: b.name }))}
        />
        <Select
          id={id("category")}
          name="category"
          label="Category"
          defaultValue={v("category")}
          error={errors.category}
          placeholder="Choose a category"
          options={categories.map((c) => ({ value: c.slug, label: c.name }))}
        />
        <TextInput
          id={id("colors")}
          name="colors"
          label="Colours"
          defaultValue={v("colors")}
          error={errors.colors}
          hint="Separate with commas, e.g. Yellow, Black."
          className="sm:col-span-2"
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-lg font-semibold text-ink">Price and stock</legend>
        <TextInput
          id={id("price")}
          name="price"
          label="Price (USD)"
          inputMode="decimal"
          defaultValue={v("price")}
          error={errors.price}
          hint="Before discount, e.g. 129.99."
        />
        <TextInput
          id={id("discount_percent")}
          name="discount_percent"
          label="Discount (%)"
          inputMode="numeric"
          required={false}
          defaultValue={v("discount_percent")}
          error={errors.discount_percent}
          hint="1–90, or empty for none."
        />
        {mode === "new" ? (
          <TextInput
            id={id("stock")}
            name="stock"
            label="Stock"
            inputMode="numeric"
            defaultValue={v("stock") || "0"}
            error={errors.stock}
            hint="Recorded in the stock ledger as received."
          />
        ) : null}
        <TextInput
          id={id("low_stock_threshold")}
          name="low_stock_threshold"
          label="Low-stock threshold"
          inputMode="numeric"
          defaultValue={v("low_stock_threshold") || "5"}
          error={errors.low_stock_threshold}
          hint="Listed as low at or below this."
        />
      </fieldset>
      <fieldset className="grid gap-4">
        <legend className="mb-2 text-lg font-semibold text-ink">Description</legend>
        <TextArea
          id={id("description")}
          name="description"
          label="Description"
          rows={6}
          defaultValue={v("description")}
          error={errors.description}
          maxLength={PRODUCT_LIMITS.description}
        />
        <TextArea
          id={id("features")}
          name="features"
          label="Features"
          required={false}
          rows={4}
          defaultValue={v("features")}
          error={errors.features}
          hint="One per line; shown as a list on the product page."
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-semibold text-ink">Specifications</legend>
        <TextInput
          id={id("material")}
          name="material"
          label="Material"
          defaultValue={v("material")}
          error={errors.material}
        />
        <TextInput
          id={id("weight_grams")}
          name="weight_grams"
          label="Weight (grams)"
          inputMode="numeric"
          defaultValue={v("weight_grams")}
          error={errors.weight_grams}
        />
        <TextInput
          id={id("country_of_origin")}
          name="country_of_origin"
          label="Country of origin"
          defaultValue={v("country_of_origin")}
          error={errors.country_of_origin}
        />
        <TextInput
          id={id("manufacturer")}
          name="manufacturer"
          label="Manufacturer"
          defaultValue={v("manufacturer")}
          error={errors.manufacturer}
        />
        <TextArea
          id={id("return_policy")}
          name="return_policy"
          label="Return policy"
          rows={2}
          defaultValue={v("return_policy")}
          error={errors.return_policy}
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
