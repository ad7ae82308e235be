import { Form, useNavigation } from "react-router";
import { formatRate } from "../../../lib/tax.ts";
import { HeadedSection } from "../../ui/HeadedSection.tsx";
import { ResultMessage } from "../ResultMessage.tsx";
import type { TaxAnswer } from "../../../routes/admin/tax.tsx";
import type { UsStateSetting } from "../../../../server/tax/us-tax-settings.ts";
import { shownState } from "../../../lib/tax-table-form.ts";

type StateRow = UsStateSetting;

/** One of a state's yes/no settings, named by its column's header and its state's row header. */
function StateCheckbox({
  name,
  code,
  column,
  checked,
}: {
  name: string;
  code: string;
  column: string;
  checked: boolean;
}) {
  return (
    <td className="px-3 py-1.5">
      <input
        type="checkbox"
        name={`${name}_${code}`}
        value="1"
        defaultChecked={checked}
        aria-labelledby={`${column} state-${code}`}
        className="size-5"
      />
    </td>
  );
}

/** Rate as the form shows it: 72500 → "7.25". */
const rateText = (ppm: number) => formatRate(ppm).replace(/%$/, "");

/**
 * The states' table: for admins a form (every control named by its column and its state, both
 * visible), for other staff the same table to read. Works without JavaScript.
 */
export function StatesSection({
  states,
  canChange,
  answer,
}: {
  states: StateRow[];
  canChange: boolean;
  answer: TaxAnswer | null;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save-states";
  const problems = new Map((answer?.stateProblems ?? []).map((p) => [p.code, p.message]));
  const collecting = states.filter((s) => s.collect).map((s) => s.name);
  // Editable, the table scrolls within the page (its fields take the focus); read-only, it doesn't.
  const table = (
    <div className={`rounded-lg border border-slate-200 ${canChange ? "max-h-[70vh] overflow-auto" : ""}`}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Sales tax by state</caption>
        <thead className="sticky top-0 z-10 bg-slate-100">
          <tr>
            <th scope="col" className="px-3 py-2">
              State
            </th>
            <th scope="col" id="col-rate" className="px-3 py-2">
              Rate (%)
            </th>
            <th scope="col" id="col-shipping" className="px-3 py-2">
              Taxes delivery
            </th>
            <th scope="col" id="col-collect" className="px-3 py-2">
              Collect sales tax
            </th>
          </tr>
        </thead>
        <tbody>
          {states.map((s) => {
            const typed = answer?.typed?.[s.code];
            const error = problems.get(s.code);
            return (
              <tr key={s.code} className="border-t border-slate-200">
                <th scope="row" id={`state-${s.code}`} className="px-3 py-1.5 font-medium">
                  {s.name} ({s.code})
                </th>
                {canChange ? (
                  <>
                    <td className="px-3 py-1.5">
                      <input type="hidden" name={`version_${s.code}`} value={s.version} />
                      <input type="hidden" name={`shown_${s.code}`} value={shownState(s)} />
                      <input
                        name={`rate_${s.code}`}
                        inputMode="decimal"
                        defaultValue={typed?.rate ?? rateText(s.ratePpm)}
                        aria-labelledby={`col-rate state-${s.code}`}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? `rate-${s.code}-error` : undefined}
                        className="field w-24 tabular-nums"
                      />
                      {error ? (
                        <p id={`rate-${s.code}-error`} className="mt-1 text-sm font-medium text-red-700">
                          {error}
                        </p>
                      ) : null}
                    </td>
                    <StateCheckbox
                      name="shipping"
                      code={s.code}
                      column="col-shipping"
                      checked={typed?.shippingTaxable ?? s.shippingTaxable}
                    />
                    <StateCheckbox
                      name="collect"
                      code={s.code}
                      column="col-collect"
                      checked={typed?.collect ?? s.collect}
                    />
                  </>
                ) : (
                  <>
                    <td className="px-3 py-1.5 tabular-nums">{rateText(s.ratePpm)}</td>
                    <td className="px-3 py-1.5">{s.shippingTaxable ? "Yes" : "No"}</td>
                    <td className="px-3 py-1.5">{s.collect ? "Yes" : "No"}</td>
                  </>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
  return (
    <HeadedSection
      id="states-heading"
      title="Sales tax by state"
      headingClassName="text-xl font-semibold text-ink"
      className="space-y-3"
    >
      <p className="text-sm text-slate-700">
        {collecting.length
          ? `Collecting in ${collecting.length === 1 ? "1 state" : `${collecting.length} states`}: ${collecting.join(", ")}.`
          : "The store collects sales tax in no state yet."}
      </p>
      <ResultMessage result={answer} />
      {canChange ? (
        // A new key when any row's version moved (someone saved): the fields show the table as it is now.
        <Form
          key={states.map((s) => s.version).join(",")}
          method="post"
          aria-labelledby="states-heading"
          className="space-y-3"
        >
          <input type="hidden" name="intent" value="save-states" />
          {table}
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : "Save US sales tax"}
          </button>
        </Form>
      ) : (
        table
      )}
    </HeadedSection>
  );
}
