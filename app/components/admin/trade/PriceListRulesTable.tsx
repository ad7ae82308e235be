import { Form } from "react-router";
import type { RuleView } from "../../../../server/trade/price-lists.ts";
import { TABLE_CLASS, TD_CLASS, TH_CLASS } from "../messages/ListParts.tsx";
import { ruleAmountText } from "./rule-text.ts";

/** A price list's rules, each with a Remove button (a plain form post). */
export function PriceListRulesTable({ listName, rules, canChange }: { listName: string; rules: RuleView[]; canChange: boolean }) {
  if (rules.length === 0) return <p className="mt-3 text-slate-700">No rules yet: companies on this list pay list prices.</p>;
  return (
    <div className="overflow-x-auto">
      <table className={TABLE_CLASS}>
        <caption className="sr-only">Rules of the price list {listName}</caption>
        <thead>
          <tr>
            <th scope="col" className={TH_CLASS}>Applies to</th>
            <th scope="col" className={TH_CLASS}>Price</th>
            {canChange ? (
              <th scope="col" className={TH_CLASS}>
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rules.map((rule) => (
            <tr key={rule.target}>
              <td className={TD_CLASS}>
                {rule.label}
                {rule.archived ? <span className="ml-2 text-slate-700">(archived)</span> : null}
              </td>
              <td className={TD_CLASS}>{ruleAmountText(rule)}</td>
              {canChange ? (
                <td className={TD_CLASS}>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove-rule" />
                    <input type="hidden" name="target" value={rule.target} />
                    <button type="submit" className="rounded-md border border-red-300 px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50">
                      Remove<span className="sr-only"> the rule for {rule.label}</span>
                    </button>
                  </Form>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
