/**
 * The back office's product form, stock adjustment and CSV rows: one zod schema each, shared by
 * the browser and the server (every action validates with it, whatever the browser did). The
 * form's field names are the CSV's column names, so an exported file can be imported again.
 * Values arrive as text (form posts, CSV cells) and leave as what the database stores.
 */
import { z } from "zod";
import type { ProductSpecs } from "./catalog-types.ts";
import { centsToDecimalString, parseDollarsToCents } from "./money.ts";
import { formatCount } from "./numbers.ts";
import { CONTROL_IN_TEXT, NUL } from "./control-characters.ts";

export const PRODUCT_FIELDS = [
  "sku",
  "title",
  "brand",
  "category",
  "colors",
  "price",
  "uk_price",
  "discount_percent",
  "stock",
  "low_stock_threshold",
  "description",
  "features",
  "model",
  "material",
  "weight_grams",
  "country_of_origin",
  "manufacturer",
  "return_policy",
] as const;
export type ProductField = (typeof PRODUCT_FIELDS)[number];

export const PRODUCT_LIMITS = {
  sku: 40,
  title: 200,
  slugRef: 100,
  color: 40,
  colors: 8,
  maxPriceCents: 100_000_000,
  maxDiscount: 90,
  maxStock: 1_000_000,
  description: 5000,
  feature: 200,
  features: 12,
  text: 200,
  returnPolicy: 500,
  maxWeightGrams: 1_000_000,
} as const;

const LINE_BREAK = /[\r\n\u2028\u2029]/;

function line(label: string, max: number, required = true) {
  let s = z.string({ error: `Enter the ${label.toLowerCase()}.` }).trim();
  if (required) s = s.min(1, { error: `Enter the ${label.toLowerCase()}.` });
  return s
    .max(max, { error: `${label} must be ${max} characters or fewer.` })
    .refine((v) => !LINE_BREAK.test(v), { error: `${label} must be on one line.` })
    .refine((v) => !CONTROL_IN_TEXT.test(v), { error: `${label} contains characters that aren't allowed.` });
}

function wholeNumber(label: string, min: number, max: number) {
  return z
    .string({ error: `Enter the ${label.toLowerCase()}.` })
    .trim()
    .min(1, { error: `Enter the ${label.toLowerCase()}.` })
    .refine((v) => /^-?\d{1,10}$/.test(v), { error: `${label} must be a whole number.` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, {
      error: `${label} must be between ${formatCount(min)} and ${formatCount(max)}.`,
    });
}

/** Comma-separated names ("Yellow, Black") → a list without blanks or repeats. */
const colorList = z
  .string()
  .default("")
  .transform((v) => [
    ...new Set(
      v
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean),
    ),
  ])
  .refine((list) => list.length >= 1, { error: "Enter at least one colour." })
  .refine((list) => list.length <= PRODUCT_LIMITS.colors, { error: `Enter at most ${PRODUCT_LIMITS.colors} colours.` })
  .refine((list) => list.every((c) => c.length <= PRODUCT_LIMITS.color && !CONTROL_IN_TEXT.test(c)), {
    error: `Each colour must be ${PRODUCT_LIMITS.color} characters or fewer.`,
  });

/** One feature per line. */
const featureList = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(/\r?\n/)
      .map((f) => f.trim())
      .filter(Boolean),
  )
  .refine((list) => list.length <= PRODUCT_LIMITS.features, {
    error: `Enter at most ${PRODUCT_LIMITS.features} features.`,
  })
  .refine((list) => list.every((f) => f.length <= PRODUCT_LIMITS.feature && !CONTROL_IN_TEXT.test(f)), {
    error: `Each feature must be ${PRODUCT_LIMITS.feature} characters or fewer, on one line.`,
  });

export const productSchema = z.object({
  sku: line("SKU", PRODUCT_LIMITS.sku)
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9][A-Z0-9._-]*$/.test(v), {
      error: "SKU may use letters, digits, dots, dashes and underscores only.",
    }),
  title: line("Title", PRODUCT_LIMITS.title),
  /** A brand's slug (the form's select) or name (a CSV cell); the server resolves it. */
  brand: line("Brand", PRODUCT_LIMITS.slugRef),
  category: line("Category", PRODUCT_LIMITS.slugRef),
  colors: colorList,
  price: z
    .string({ error: "Enter the price." })
    .trim()
    .min(1, { error: "Enter the price." })
    .transform((v) => parseDollarsToCents(v.replace(/^\$/, "").replaceAll(",", "")))
    .refine((c): c is number => c !== null, { error: "Price must be an amount like 129.99." })
    .refine((c) => c > 0 && c <= PRODUCT_LIMITS.maxPriceCents, {
      error: "Price must be more than 0 and at most 1,000,000.00.",
    })
    .transform((c) => c),
  /** The UK price in pounds; empty = derived from the US price by the UK price rule (/admin/markets). */
  uk_price: z
    .string()
    .trim()
    .default("")
    .transform((v) => (v === "" ? null : (parseDollarsToCents(v.replace(/^£/, "").replaceAll(",", "")) ?? Number.NaN)))
    .refine((p) => p === null || (p > 0 && p <= PRODUCT_LIMITS.maxPriceCents), {
      error: "UK price must be an amount like 99.99 (more than 0, at most 1,000,000.00), or empty to derive it.",
    }),
  /** Empty = no discount. */
  discount_percent: z
    .string()
    .trim()
    .default("")
    .refine((v) => v === "" || /^\d{1,3}$/.test(v), { error: "Discount must be a whole percent." })
    .transform((v) => (v === "" || v === "0" ? null : Number(v)))
    .refine((n) => n === null || (n >= 1 && n <= PRODUCT_LIMITS.maxDiscount), {
      error: `Discount must be between 1 and ${PRODUCT_LIMITS.maxDiscount} percent, or empty.`,
    }),
  stock: wholeNumber("Stock", 0, PRODUCT_LIMITS.maxStock),
  low_stock_threshold: wholeNumber("Low-stock threshold", 0, PRODUCT_LIMITS.maxStock),
  description: z
    .string({ error: "Enter the description." })
    .trim()
    .min(1, { error: "Enter the description." })
    .max(PRODUCT_LIMITS.description, {
      error: `Description must be ${formatCount(PRODUCT_LIMITS.description)} characters or fewer.`,
    })
    .refine((v) => !NUL.test(v), { error: "Description contains characters that aren't allowed." }),
  features: featureList,
  model: line("Model", PRODUCT_LIMITS.text),
  material: line("Material", PRODUCT_LIMITS.text),
  weight_grams: wholeNumber("Weight", 0, PRODUCT_LIMITS.maxWeightGrams),
  country_of_origin: line("Country of origin", PRODUCT_LIMITS.text),
  manufacturer: line("Manufacturer", PRODUCT_LIMITS.text),
  return_policy: line("Return policy", PRODUCT_LIMITS.returnPolicy),
});
export type ProductInput = z.infer<typeof productSchema>;
/** Editing: stock moves only through the ledger ("Adjust stock"), so the edit form has no stock field. */
export const productEditSchema = productSchema.omit({ stock: true });
export type ProductEditInput = z.infer<typeof productEditSchema>;

/** Reasons staff give for changing stock by hand (the stock ledger's names). */
export const ADJUST_REASONS = [
  { value: "received", label: "Received from supplier" },
  { value: "count_correction", label: "Count correction" },
  { value: "damaged", label: "Damaged / written off" },
  { value: "return", label: "Returned by customer" },
] as const;

export const stockAdjustSchema = z
  .object({
    reason: z.enum(["received", "count_correction", "damaged", "return"], { error: "Choose a reason." }),
    /** Signed change, "+12" or "-3". */
    change: z
      .string({ error: "Enter the change, like 12 or -3." })
      .trim()
      .refine((v) => /^[+-]?\d{1,7}$/.test(v), { error: "Enter the change as a whole number, like 12 or -3." })
      .transform((v) => Number(v))
      .refine((n) => n !== 0, { error: "The change can't be zero." })
      .refine((n) => Math.abs(n) <= PRODUCT_LIMITS.maxStock, { error: "That change is too large." }),
    note: z.string().trim().max(500, { error: "Note must be 500 characters or fewer." }).default(""),
  })
  .superRefine((v, ctx) => {
    if ((v.reason === "received" || v.reason === "return") && v.change < 0)
      ctx.addIssue({
        code: "custom",
        path: ["change"],
        message: "Received and returned stock adds units: enter a positive number.",
      });
    if (v.reason === "damaged" && v.change > 0)
      ctx.addIssue({
        code: "custom",
        path: ["change"],
        message: "Damaged stock takes units away: enter a negative number.",
      });
  });
export type StockAdjustInput = z.infer<typeof stockAdjustSchema>;

/** The CSV import's stock-only rows. */
export const stockRowSchema = z.object({
  sku: productSchema.shape.sku,
  stock: wholeNumber("Stock", 0, PRODUCT_LIMITS.maxStock),
});

/** Parsed values or the first message per field. */
export type FieldErrors = Partial<Record<string, string>>;
export function validateWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return { ok: false, errors };
}

/** Text fields of a form post (files and repeats ignored; each value cut so a huge post can't be echoed back). */
export function formFields(form: FormData, names: readonly string[], maxLength = 20_000): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = form.get(name);
    out[name] = typeof v === "string" ? v.slice(0, maxLength) : "";
  }
  return out;
}

/** The form's text for a stored product (what an edit form starts with, and what the export writes). */
export function productToFields(
  p: {
    sku: string;
    title: string;
    brandSlug: string;
    categorySlug: string;
    colors: string[];
    priceCents: number;
    /** The UK price staff set, null when the UK price rule derives it. */
    ukPricePence: number | null;
    discountPercent: number | null;
    stock: number;
    lowStockThreshold: number;
    description: string;
    features: string[];
  } & ProductSpecs,
): Record<ProductField, string> {
  return {
    sku: p.sku,
    title: p.title,
    brand: p.brandSlug,
    category: p.categorySlug,
    colors: p.colors.join(", "),
    price: centsToDecimalString(p.priceCents),
    uk_price: p.ukPricePence === null ? "" : centsToDecimalString(p.ukPricePence),
    discount_percent: p.discountPercent == null ? "" : String(p.discountPercent),
    stock: String(p.stock),
    low_stock_threshold: String(p.lowStockThreshold),
    description: p.description,
    features: p.features.join("\n"),
    model: p.model,
    material: p.material,
    weight_grams: String(p.weightGrams),
    country_of_origin: p.countryOfOrigin,
    manufacturer: p.manufacturer,
    return_policy: p.returnPolicy,
  };
}
