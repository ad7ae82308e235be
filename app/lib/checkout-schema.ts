import { z } from "zod";
import { postcodeProblem } from "./order-rules.ts";
import { CONTROL_IN_LINE } from "./control-characters.ts";
import { stateOfRegion, stateOfZip, US_STATE_NAMES } from "./us-states.ts";

/** The checkout form's server-side schema (kept out of the browser bundle). */
const text = (label: string, max: number) =>
  z.string().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : null));
const noControl = (s: string) => !CONTROL_IN_LINE.test(s);

/** The checkout form, validated the same way in the browser and on the server. */
export const checkoutSchema = z
  .object({
    email: z
      .string()
      .trim()
      .max(254)
      .pipe(z.email({ message: "Enter a valid email address" })),
    name: text("Full name", 100).refine(noControl, "Full name contains invalid characters"),
    line1: text("Address line 1", 120).refine(noControl, "Address contains invalid characters"),
    line2: optionalText(120),
    city: text("Town or city", 80),
    region: optionalText(80),
    postcode: text("ZIP or postcode", 12),
    country: z.enum(["US", "GB"], { message: "Choose the United States or the United Kingdom" }),
    paymentMethod: z.enum(["card", "pay-on-delivery", "invoice-net30"], { message: "Choose a payment method" }),
    /** A trade account's purchase-order number (ignored for other shoppers). */
    poNumber: optionalText(40).refine((v) => v == null || noControl(v), "PO number contains invalid characters"),
    /** The sales tax the page showed before this post, in cents; absent until the checkout has shown one. */
    shownTaxCents: z
      .string()
      .trim()
      .regex(/^\d{1,9}$/, "Your checkout session expired. Reload the page and try again.")
      .transform(Number)
      .optional(),
    /** "1" once the page has shown California's Proposition 65 warning for this order. */
    prop65Shown: z
      .enum(["1"], { error: "Your checkout session expired. Reload the page and try again." })
      .optional()
      .transform((v) => v === "1"),
    checkoutToken: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,64}$/, "Your checkout session expired. Reload the page and try again."),
  })
  .superRefine((value, ctx) => {
    const postcodeError = postcodeProblem(value.country, value.postcode);
    if (postcodeError) ctx.addIssue({ code: "custom", path: ["postcode"], message: postcodeError });
    else if (value.country === "US") {
      const zipState = stateOfZip(value.postcode);
      if (!zipState)
        ctx.addIssue({
          code: "custom",
          path: ["postcode"],
          message: "We deliver in the 50 states and Washington, DC: enter a ZIP code of one of them",
        });
      const typedState = value.region ? stateOfRegion(value.region) : null;
      if (zipState && typedState && typedState !== zipState)
        ctx.addIssue({
          code: "custom",
          path: ["region"],
          message: `ZIP code ${value.postcode.trim()} is in ${US_STATE_NAMES[zipState]}: check the state or the ZIP code`,
        });
    }
  });

export type CheckoutInput = z.infer<typeof checkoutSchema>;
