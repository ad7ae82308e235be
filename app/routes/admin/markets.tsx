import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/markets";
import { doneMessage, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { MarketsTable } from "../../components/admin/markets/MarketsTable.tsx";
import { UkPriceRuleSection } from "../../components/admin/markets/UkPriceRuleSection.tsx";
import { formText } from "../../lib/form-text.ts";
import { can } from "../../../server/auth/permissions.ts";
import {
  PriceRuleConflictError,
  PriceRuleInvalidError,
  readUkPriceRule,
  setUkPriceRule,
  ukPriceCounts,
} from "../../../server/catalog/market-prices.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Markets | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

/** After a refusal for a stale form (409) the rule is read again, so the form shows what the other admin saved. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

const DONE = {
  saved: "UK price rule saved. Every UK price it derives has been worked out again.",
  unchanged: "Nothing to save: the rule is the same.",
};

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { market: ["view"] });
  const db = getDb();
  const [rule, counts] = await Promise.all([readUkPriceRule(db), ukPriceCounts(db)]);
  return {
    rule,
    counts,
    canChange: can(staff.role, { market: ["update"] }),
    done: doneMessage(new URL(request.url), DONE),
  };
}

/**
 * A refused save: the field at fault, if one is; `typed` (what the admin typed) is left out after
 * a stale form, which shows the saved rule.
 */
export type MarketsAnswer = {
  ok: false;
  message: string;
  field?: "rate" | "ending";
  typed?: { rate: string; ending: string };
};

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, { market: ["update"] });
  const form = await readSmallForm(request);
  const typed = { rate: formText(form, "rate"), ending: formText(form, "ending") };
  try {
    const { changed } = await setUkPriceRule(getDb(), staff, { ...typed, version: Number(formText(form, "version")) });
    throw redirect(`/admin/markets?done=${changed ? "saved" : "unchanged"}`);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const stale = error instanceof PriceRuleConflictError;
    const field = error instanceof PriceRuleInvalidError ? error.field : undefined;
    return data<MarketsAnswer>(
      { ok: false, message: error.message, field, typed: stale ? undefined : typed },
      { status: error.status },
    );
  }
}

export default function MarketsPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-3xl font-bold text-ink">Markets</h1>
        <p className="mt-2 max-w-3xl text-sm text-slate-700">
          The store sells in two markets, each in its own currency. UK prices include VAT; US prices are before sales
          tax, which the checkout adds by delivery address (see Tax).
        </p>
        <ResultMessage result={actionData ? null : loaderData.done} />
      </div>
      <MarketsTable />
      <UkPriceRuleSection
        rule={loaderData.rule}
        counts={loaderData.counts}
        canChange={loaderData.canChange}
        answer={actionData ?? null}
      />
    </div>
  );
}
