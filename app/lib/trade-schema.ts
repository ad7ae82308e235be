import { z } from "zod";
import { postcodeProblem } from "./order-rules.ts";
import { CONTROL_IN_LINE } from "./control-characters.ts";

const noControl = (s: string) => !CONTROL_IN_LINE.test(s);
const text = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(noControl, `${label} contains invalid characters`);
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(noControl, `${label} contains invalid characters`)
    .optional()
    .transform((v) => (v ? v : null));

export const TAX_ID_HINTS = {
  GB: "Enter the VAT number as GB followed by 9 or 12 digits, like GB123456789",
  US: "Enter the EIN as two digits, a dash and seven digits, like 12-3456789",
} as const;

/**
 * A UK VAT number (GB + 9 or 12 digits) or a US EIN (NN-NNNNNNN) in its stored form, or null
 * when it isn't one. Spaces are ignored; an EIN typed without its dash gets one.
 */
export function normalizeTaxId(country: "US" | "GB", value: string): string | null {
  const v = value.replace(/[\s.]/g, "").toUpperCase();
  if (country === "GB") return /^GB(\d{9}|\d{12})$/.test(v) ? v : null;
  const m = /^(\d{2})-?(\d{7})$/.exec(v);
  return m ? `${m[1]}-${m[2]}` : null;
}

/** The trade account application form, on the server (and the same rules in the browser). */
export const tradeApplicationSchema = z
  .object({
    companyName: text("Company name", 120),
    country: z.enum(["US", "GB"], { message: "Choose the United States or the United Kingdom" }),
    taxId: z.string({ message: "Tax number is required" }).trim().max(40, "Tax number is too long"),
    line1: text("Address line 1", 120),
    line2: optionalText("Address line 2", 120),
    city: text("Town or city", 80),
    region: optionalText("County or state", 80),
    postcode: text("ZIP or postcode", 12),
    phone: text("Phone", 30).refine(
      (v) => /^\+?[\d\s().-]{6,30}$/.test(v) && (v.match(/\d/g) ?? []).length >= 6,
      "Enter a phone number, like +44 20 7946 0000",
    ),
  })
  .transform((value, ctx) => {
    const taxId = normalizeTaxId(value.country, value.taxId);
    if (!taxId) ctx.addIssue({ code: "custom", path: ["taxId"], message: TAX_ID_HINTS[value.country] });
    const postcodeError = postcodeProblem(value.country, value.postcode);
    if (postcodeError) ctx.addIssue({ code: "custom", path: ["postcode"], message: postcodeError });
    return { ...value, taxId: taxId ?? value.taxId, postcode: value.postcode.toUpperCase() };
  });

export type TradeApplicationInput = z.output<typeof tradeApplicationSchema>;
