import { PostButton } from "../../ui/PostButton.tsx";
import type { RuleView } from "../../../../server/trade/price-lists.ts";
import { AdminList, type Column } from "../list/AdminList.tsx";
import { ruleAmountText } from "./rule-text.ts";

function RemoveRule({ rule }: { rule: RuleView }) {
  return (
    <PostButton
      fields={{ intent: "remove-rule", target: rule.target }}
      className="rounded-md border border-red-300 px-3 py-1 text-sm font-semibold text-red-800 hover:bg-red-50"
    >
      Remove<span className="sr-only"> the rule for {rule.label}</span>
    </PostButton>
  );
}

/** A price list's rules, each with a Remove button (a plain form post) for staff who may change it. */
export function PriceListRulesTable({
  listName,
  rules,
  canChange,
}: {
  listName: string;
  rules: RuleView[];
  canChange: boolean;
}) {
  const columns: Column<RuleView>[] = [
    {
      header: "Applies to",
      cell: (rule) => (
        <>
          {rule.label}
          {rule.archived ? <span className="ml-2 text-slate-700">(archived)</span> : null}
        </>
      ),
    },
    { header: "Price", cell: (rule) => ruleAmountText(rule) },
  ];
  if (canChange) columns.push({ header: "Actions", headerHidden: true, cell: (rule) => <RemoveRule rule={rule} /> });
  return (
    <AdminList
      caption={`Rules of the price list ${listName}`}
      rows={rules}
      rowKey={(rule) => rule.target}
      columns={columns}
      empty="No rules yet: companies on this list pay list prices."
    />
  );
}
