import { Form } from "react-router";
import { formatMoney } from "../../../lib/money.ts";
import { HeadedSection } from "../../ui/HeadedSection.tsx";
import { Options } from "../../ui/Options.tsx";
import type { AddressCheck } from "../../../../server/tax/address-check.ts";

const SAMPLE = "a $100.00 order with $10.00 delivery";

function Outcome({ result }: { result: AddressCheck }) {
  const where = `${result.state} ${result.zip}`;
  if (result.basis.kind === "not-registered")
    return (
      <p>
        {where}: no sales tax collected. The store is not registered to collect it in {result.basis.stateName}.
      </p>
    );
  if (result.basis.kind === "exempt") return <p>{where}: exempt.</p>;
  return (
    <div className="space-y-2">
      <p>
        {where}, {SAMPLE}: sales tax {formatMoney(result.taxCents)}, total {formatMoney(result.totalCents)}. Delivery is{" "}
        {result.basis.shippingTaxable ? "taxed" : "not taxed"} there.
      </p>
      {result.lines.length ? (
        <ul className="list-disc pl-5">
          {result.lines.map((l) => (
            <li key={l.label}>
              {l.label}: {formatMoney(l.taxCents)} on {formatMoney(l.taxableCents)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A GET form: what an order delivered to one address pays, by the same rules as the checkout. */
export function AddressCheckSection({
  states,
  check,
}: {
  states: { code: string; name: string }[];
  check: { state: string; zip: string; result: AddressCheck | null } | null;
}) {
  return (
    <HeadedSection
      id="check-heading"
      title="Check an address"
      headingClassName="text-xl font-semibold text-ink"
      className="space-y-3"
    >
      <p className="text-sm text-slate-700">What {SAMPLE} delivered there pays, as the table stands.</p>
      <Form method="get" aria-labelledby="check-heading" className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="check-state" className="block text-sm font-semibold text-ink">
            State
          </label>
          <select id="check-state" name="state" defaultValue={check?.state ?? "CA"} className="field mt-1">
            <Options options={states.map((s) => ({ value: s.code, label: s.name }))} />
          </select>
        </div>
        <div>
          <label htmlFor="check-zip" className="block text-sm font-semibold text-ink">
            ZIP code
          </label>
          <input
            id="check-zip"
            name="zip"
            inputMode="numeric"
            defaultValue={check?.zip ?? ""}
            required
            className="field mt-1 w-32"
          />
        </div>
        <button type="submit" className="btn-outline">
          Check
        </button>
      </Form>
      {check ? (
        <div role="status" className="rounded-md bg-slate-50 p-3 text-sm">
          {check.result ? (
            <Outcome result={check.result} />
          ) : (
            <p>Enter a US state and a 5-digit ZIP code, like 90001.</p>
          )}
        </div>
      ) : null}
    </HeadedSection>
  );
}
