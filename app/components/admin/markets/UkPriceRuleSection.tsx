import { Form, useNavigation } from "react-router";
import { formatMoney } from "../../../lib/money.ts";
import { formatCount } from "../../../lib/numbers.ts";
import {
  derivedPriceMinor,
  endingValue,
  formatRate,
  PRICE_ENDING_OPTIONS,
  type DerivationRule,
} from "../../../lib/price-derivation.ts";
import type { MarketsAnswer } from "../../../routes/admin/markets.tsx";
import { HeadedSection } from "../../ui/HeadedSection.tsx";
import { ResultMessage } from "../ResultMessage.tsx";
import { Select, TextInput } from "../fields.tsx";

const EXAMPLES_CENTS = [1_000, 4_999, 12_900];

/** The rule that derives UK prices from US prices, its effect on a few prices, and (for admins) its form. */
export function UkPriceRuleSection({
  rule,
  counts,
  canChange,
  answer,
}: {
  rule: DerivationRule & { version: number };
  counts: { set: number; derived: number };
  canChange: boolean;
  answer: MarketsAnswer | null;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const typed = answer?.typed;
  return (
    <HeadedSection
      id="uk-prices-heading"
      title="UK prices"
      headingClassName="text-xl font-semibold text-ink"
      className="space-y-3"
    >
      <p className="max-w-3xl text-sm text-slate-700">
        A product&apos;s UK price is the one staff set on its page or, when they set none, its US price times the rate
        below, raised to the price ending. Derived prices are saved with the products when the rule or a US price
        changes. {formatCount(counts.derived)} products have a derived UK price; {formatCount(counts.set)} have one set
        by staff.
      </p>
      <p className="text-sm text-slate-700" data-testid="uk-price-examples">
        With the rule in force:{" "}
        {EXAMPLES_CENTS.map(
          (cents) => `${formatMoney(cents)} → ${formatMoney(derivedPriceMinor(cents, rule), "gbp")}`,
        ).join("; ")}
        .
      </p>
      <ResultMessage result={answer} />
      {canChange ? (
        <Form method="post" key={rule.version} className="max-w-xl space-y-4 rounded-lg border border-slate-200 p-4">
          <input type="hidden" name="version" value={rule.version} />
          <TextInput
            id="uk-rate"
            name="rate"
            label="Rate (pounds per US dollar)"
            inputMode="decimal"
            maxLength={12}
            defaultValue={typed?.rate ?? formatRate(rule.rateMicros)}
            hint="Like 0.79: $10.00 becomes £7.90 before the ending."
            error={answer?.field === "rate" ? answer.message : undefined}
          />
          <Select
            id="uk-ending"
            name="ending"
            label="Price ending"
            options={PRICE_ENDING_OPTIONS}
            defaultValue={typed?.ending ?? endingValue(rule.ending)}
            hint="Each derived price is raised to the nearest amount with this ending."
            error={answer?.field === "ending" ? answer.message : undefined}
          />
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving…" : "Save the UK price rule"}
          </button>
        </Form>
      ) : (
        <p className="text-sm text-slate-700">Only admins can change the UK price rule.</p>
      )}
    </HeadedSection>
  );
}
