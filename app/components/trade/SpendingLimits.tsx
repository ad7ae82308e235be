import { Form } from "react-router";
import { formatMoney } from "../../lib/money.ts";
import { HeadedSection } from "../ui/HeadedSection.tsx";

interface MemberLimit {
  userId: string;
  name: string;
  limitCents: number | null;
}

/**
 * Each member's per-order spending limit. The owner sets or clears one (an empty amount means no
 * limit); above it, the member's orders wait for an approver.
 */
export function SpendingLimits({ members, manages }: { members: MemberLimit[]; manages: boolean }) {
  return (
    <HeadedSection id="limits-heading" title="Spending limits" headingClassName="text-lg font-bold text-ink">
      <p className="mt-1 text-sm">
        An order above its buyer's limit goes to the company's approvers, and is placed when one of them approves it.
      </p>
      <ul className="mt-3 space-y-3">
        {members.map((m) => (
          <li key={m.userId} className="flex flex-wrap items-end gap-3">
            <span className="min-w-48">
              {m.name}: <strong>{m.limitCents == null ? "no limit" : `${formatMoney(m.limitCents)} per order`}</strong>
            </span>
            {manages ? (
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="set-limit" />
                <input type="hidden" name="userId" value={m.userId} />
                <div>
                  <label htmlFor={`limit-${m.userId}`} className="block text-sm font-semibold text-ink">
                    {`Limit for ${m.name} in USD (empty: no limit)`}
                  </label>
                  <input
                    id={`limit-${m.userId}`}
                    name="limit"
                    inputMode="decimal"
                    maxLength={12}
                    defaultValue={m.limitCents == null ? "" : (m.limitCents / 100).toFixed(2)}
                    className="field mt-1 w-36"
                  />
                </div>
                <button type="submit" className="btn-outline">
                  {`Save limit for ${m.name}`}
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </HeadedSection>
  );
}
