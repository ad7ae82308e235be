/**
 * The live check of a UK VAT number against HMRC's "Check a UK VAT number" API (issue 51): a hook
 * configured by VAT_CHECK_URL, like Stripe's, with a stand-in in the tests
 * (tests/support/fake-services.mjs). The format is checked elsewhere (app/lib/trade-schema.ts);
 * this says whether HMRC knows the number and whose it is.
 */
import { normalizeTaxId } from "../../app/lib/trade-schema.ts";

export type VatNumberCheck =
  | { status: "registered"; name: string }
  | { status: "not-registered" }
  /** HMRC didn't answer in time, or answered with an error: try again later. */
  | { status: "unavailable" }
  /** No check is configured, or the number is of a kind HMRC's API doesn't look up (GD, HA). */
  | { status: "not-checked" };

const TIMEOUT_MS = 3_000;

/**
 * The 9 or 12 digits HMRC looks up, from a number like GB123456789 (a bare number is read as one
 * with GB before it), by the trade form's own rule; null for GD/HA numbers and anything else.
 */
export function vatRegistrationNumber(vatNumber: string): string | null {
  const trimmed = vatNumber.trim();
  return normalizeTaxId("GB", /^gb/i.test(trimmed) ? trimmed : `GB${trimmed}`)?.slice(2) ?? null;
}

export async function checkUkVatNumber(
  vatNumber: string,
  baseUrl: string | undefined,
  fetcher: typeof fetch = fetch,
): Promise<VatNumberCheck> {
  const vrn = vatRegistrationNumber(vatNumber);
  if (!baseUrl || !vrn) return { status: "not-checked" };
  const url = new URL(
    `organisations/vat/check-vat-number/lookup/${vrn}`,
    baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`,
  );
  try {
    const response = await fetcher(url, {
      headers: { Accept: "application/vnd.hmrc.2.0+json" },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.status === 404) return { status: "not-registered" };
    if (!response.ok) return { status: "unavailable" };
    const body = (await response.json()) as { target?: { name?: unknown } };
    const name = typeof body.target?.name === "string" ? body.target.name.trim().slice(0, 200) : "";
    return name ? { status: "registered", name } : { status: "unavailable" };
  } catch {
    return { status: "unavailable" };
  }
}

/** What the back office says of a check. */
export function vatCheckText(check: VatNumberCheck): string {
  switch (check.status) {
    case "registered":
      return `HMRC: registered to ${check.name}`;
    case "not-registered":
      return "HMRC: not a registered VAT number";
    case "unavailable":
      return "HMRC's check didn't answer: try again later";
    case "not-checked":
      return "Format checked only (no HMRC check is set up)";
  }
}
