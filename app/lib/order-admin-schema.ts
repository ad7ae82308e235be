/**
 * The back office's order forms and the order list's filters: one zod schema per form. The
 * route actions parse the posted form with these, and the domain functions in server/orders/
 * parse their input with the same schemas again, so a caller that skips the form is held to
 * the same rules.
 */
import { z } from "zod";
import { PAYMENT_METHODS, type ShippingCountry } from "./order-rules.ts";

export * from "./order-admin-constants.ts";
import {
  CARRIERS,
  FILTER_STATUSES,
  MAX_RETURN_QUANTITY,
  NOTE_MAX,
  RETURN_REASONS,
  SORT_KEYS,
} from "./order-admin-constants.ts";
import { CONTROL_IN_TEXT } from "./control-characters.ts";

/** The order's version as the page read it: a whole number, as a form string or a number. */
const version = z.preprocess(
  (v) => (typeof v === "string" && /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : v),
  z
    .number({ error: "This form is out of date. Reload the page and try again." })
    .int()
    .min(0)
    .max(2_147_483_647, { error: "This form is out of date. Reload the page and try again." }),
);

const optionalText = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(NOTE_MAX, { error: `${label} must be ${NOTE_MAX} characters or fewer.` })
    .refine((v) => !CONTROL_IN_TEXT.test(v), { error: `${label} contains characters that aren't allowed.` })
    .optional()
    .transform((v) => (v ? v : null));

export const orderNumberSchema = z
  .string({ error: "Enter an order number." })
  .trim()
  .toUpperCase()
  .transform((v) => (/^[0-9A-F]{10}$/.test(v) ? `TH-${v}` : v))
  .pipe(z.string().regex(/^TH-[0-9A-F]{10}$/, { error: "An order number looks like TH-1A2B3C4D5E." }));

/** Pack, deliver: only the version. */
export const orderStepSchema = z.object({ version });
export type OrderStepInput = z.infer<typeof orderStepSchema>;

export const shipSchema = z.object({
  version,
  carrier: z.enum(CARRIERS, { error: "Choose the carrier." }),
  trackingNumber: z
    .string({ error: "Enter the tracking number." })
    .transform((v) => v.replace(/\s+/g, "").toUpperCase())
    .pipe(
      z
        .string()
        .min(1, { error: "Enter the tracking number." })
        .regex(/^[A-Z0-9-]{4,40}$/, { error: "A tracking number has 4 to 40 letters, digits or dashes." }),
    ),
});
export type ShipInput = z.infer<typeof shipSchema>;

export const cancelSchema = z.object({ version, reason: optionalText("The reason") });

/**
 * A card refund: an amount in the order's currency ("12.50"; blank = everything not yet refunded)
 * and a reason the customer is told.
 */
export const refundSchema = z.object({
  version,
  amount: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : v.trim().replace(/^[$£]/, "")) : v),
    z
      .string({ error: "Enter the amount to refund, like 12.50." })
      .regex(/^\d{1,9}(\.\d{1,2})?$/, { error: "Enter the amount to refund with two decimals at most, like 12.50." })
      .transform((v) => {
        const [whole, fraction = ""] = v.split(".");
        return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
      })
      .refine((cents) => cents > 0, { error: "The amount to refund must be more than 0.00." })
      .nullable(),
  ),
  reason: optionalText("The reason"),
});
export type RefundInput = z.infer<typeof refundSchema>;
export type CancelInput = z.infer<typeof cancelSchema>;

const quantity = z.preprocess(
  (v) => (typeof v === "string" ? (v.trim() === "" ? 0 : /^-?\d{1,12}$/.test(v.trim()) ? Number(v.trim()) : v) : v),
  z
    .number({ error: "Enter a whole number of units." })
    .int({ error: "Enter a whole number of units." })
    .min(0, { error: "A quantity can't be negative." })
    .max(MAX_RETURN_QUANTITY, { error: "That is more than this order holds." }),
);

export const returnSchema = z.object({
  version,
  reason: z.enum(RETURN_REASONS, { error: "Choose why the goods came back." }),
  restock: z.preprocess(
    (v) => (v === "yes" ? true : v === "no" ? false : v),
    z.boolean({ error: "Say whether the goods go back into stock." }),
  ),
  note: optionalText("The note"),
  lines: z
    .array(z.object({ lineId: z.number().int().positive().max(2_147_483_647), quantity }), {
      error: "Choose what came back.",
    })
    .max(200)
    .refine((lines) => lines.some((l) => l.quantity > 0), {
      error: "Enter how many units of at least one line came back.",
    })
    .refine((lines) => new Set(lines.map((l) => l.lineId)).size === lines.length, {
      error: "Each line can appear only once.",
    }),
});
export type ReturnInput = z.infer<typeof returnSchema>;

/** The return form's own fields: one `qty-<order line id>` field per line. */
export function returnFormInput(form: FormData): Record<string, unknown> {
  const lines: { lineId: number; quantity: unknown }[] = [];
  for (const [key, value] of form.entries()) {
    const match = /^qty-(\d{1,10})$/.exec(key);
    if (match) lines.push({ lineId: Number(match[1]), quantity: typeof value === "string" ? value : NaN });
  }
  return {
    version: form.get("version"),
    reason: form.get("reason"),
    restock: form.get("restock"),
    note: form.get("note") ?? undefined,
    lines,
  };
}

// ---- The order list's filters (a GET form; the query string is the state) ----

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "Enter a date like 2025-03-31." })
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    { error: "That date doesn't exist." },
  );

const blankToUndefined = (v: unknown) =>
  typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v;
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** A keyset position: the sort value and the order id of the row to continue after (or before). */
const cursor = z
  .string()
  .regex(/^[0-9A-Za-z:.+ -]{1,40}~\d{1,12}$/, { error: "That page link is broken; start from the first page." });

export const orderFilterSchema = z
  .object({
    status: opt(z.enum(FILTER_STATUSES, { error: "Choose a status from the list." })),
    from: opt(isoDate),
    to: opt(isoDate),
    payment: opt(
      z.enum(PAYMENT_METHODS.map((m) => m.id) as [string, ...string[]], {
        error: "Choose a payment method from the list.",
      }),
    ),
    country: opt(
      z.enum(["US", "GB"] as [ShippingCountry, ...ShippingCountry[]], { error: "Choose a country from the list." }),
    ),
    currency: opt(z.enum(["usd", "gbp"], { error: "Choose a currency from the list." })),
    attention: opt(z.enum(["payment"], { error: "Unknown filter." })),
    email: opt(z.string().max(254, { error: "An email address is at most 254 characters." }).toLowerCase()),
    number: opt(orderNumberSchema),
    sort: opt(z.enum(SORT_KEYS, { error: "Unknown sort." })),
    dir: opt(z.enum(["asc", "desc"], { error: "Unknown sort direction." })),
    after: opt(cursor),
    before: opt(cursor),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { error: "The end date is before the start date.", path: ["to"] });
export type OrderFilter = z.infer<typeof orderFilterSchema>;

export const FILTER_FIELDS = [
  "status",
  "from",
  "to",
  "payment",
  "country",
  "currency",
  "email",
  "number",
  "attention",
] as const;
