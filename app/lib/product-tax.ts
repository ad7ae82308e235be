import { z } from "zod";

/**
 * A product's tax rules as staff set them (issue 51): its UK VAT rate class and whether it needs a
 * California Proposition 65 warning. Shared by the back office's form and the server's check.
 */
const VAT_CLASSES = ["standard", "reduced", "zero"] as const;
export type VatClass = (typeof VAT_CLASSES)[number];

export const VAT_CLASS_OPTIONS: readonly { value: VatClass; label: string }[] = [
  { value: "standard", label: "Standard rate (20%)" },
  { value: "reduced", label: "Reduced rate (5%)" },
  { value: "zero", label: "Zero rate (0%)" },
];

export const productTaxSchema = z.object({
  vat_class: z.enum(VAT_CLASSES, { error: "Choose the product's VAT rate." }),
  /** A checkbox: "on" when ticked, absent otherwise. */
  prop65: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === "" || v === "on", { error: "Tick the box or leave it empty." })
    .transform((v) => v === "on"),
});
export type ProductTaxInput = z.infer<typeof productTaxSchema>;

/** The warning California's Proposition 65 asks for (the short form, for goods bought online). */
export const PROP65_WARNING = "WARNING: Cancer and Reproductive Harm - www.P65Warnings.ca.gov.";
