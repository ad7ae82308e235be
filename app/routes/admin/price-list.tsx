import { parseRowId } from "../../lib/order-rules.ts";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/price-list";
import { BackHeading } from "../../components/admin/BackHeading.tsx";
import { doneMessage, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { AddRuleForm, type RuleFormValues } from "../../components/admin/trade/AddRuleForm.tsx";
import { PriceListNameForm } from "../../components/admin/trade/PriceListNameForm.tsx";
import { PriceListRulesTable } from "../../components/admin/trade/PriceListRulesTable.tsx";
import { countText } from "../../components/admin/trade/rule-text.ts";
import { can } from "../../../server/auth/permissions.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import {
  addPriceListRule,
  categoryChoices,
  getPriceList,
  parseRuleForm,
  PriceListFieldError,
  removePriceListRule,
  renamePriceList,
} from "../../../server/trade/price-lists.ts";

import { typedBack } from "../../lib/form-text.ts";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `${loaderData?.list.name ?? "Price list"} | Price lists | Back office | ToolHub Wholesale` },
    { name: "robots", content: "noindex" },
  ];
}

const DONE = {
  created: "Price list created. Add its rules below.",
  renamed: "Price list renamed.",
  "rule-added": "Rule added. Companies on this list pay the new price now.",
  "rule-removed": "Rule removed.",
  unchanged: "Nothing to save: the name was already this.",
};

export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { trade: ["view"] });
  const id = parseRowId(params.id);
  const db = getDb();
  const list = id ? await getPriceList(db, id) : null;
  if (!list) throw data("Not found", { status: 404 });
  const categories = await categoryChoices(db);
  return {
    list,
    categories,
    canChange: can(staff.role, { trade: ["update"] }),
    done: doneMessage(new URL(request.url), DONE),
  };
}

type FormName = "rename" | "rule" | "remove" | "other";
type Answer = { ok: false; form: FormName; message: string; field?: string; values?: Record<string, string> };
const refuse = (answer: Omit<Answer, "ok">, status: number) => data<Answer>({ ok: false, ...answer }, { status });

const RULE_FIELDS = ["appliesTo", "categoryId", "sku", "percentOff", "fixedPrice"];

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { trade: ["update"] });
  const id = parseRowId(params.id);
  if (!id) return refuse({ form: "other", message: "This price list doesn't exist." }, 404);
  const form = await readSmallForm(request);
  const intent = form.get("intent");
  const formName: FormName =
    intent === "rename" ? "rename" : intent === "add-rule" ? "rule" : intent === "remove-rule" ? "remove" : "other";
  const actor = { userId: staff.userId, name: staff.name };
  const db = getDb();
  let done: keyof typeof DONE;
  try {
    if (intent === "rename")
      done = (await renamePriceList(db, actor, id, form.get("name"))).changed ? "renamed" : "unchanged";
    else if (intent === "add-rule") {
      await addPriceListRule(
        db,
        actor,
        id,
        parseRuleForm(Object.fromEntries(RULE_FIELDS.map((n) => [n, form.get(n)]))),
      );
      done = "rule-added";
    } else if (intent === "remove-rule") {
      await removePriceListRule(db, actor, id, form.get("target"));
      done = "rule-removed";
    } else return refuse({ form: "other", message: "Unknown action." }, 400);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const values =
      formName === "rename"
        ? typedBack(form, ["name"], 200)
        : formName === "rule"
          ? typedBack(form, RULE_FIELDS, 200)
          : undefined;
    return refuse(
      {
        form: formName,
        message: error.message,
        field: error instanceof PriceListFieldError ? error.field : undefined,
        values,
      },
      error.status,
    );
  }
  throw redirect(`/admin/price-lists/${id}?done=${done}`, { status: 303 });
}

export default function PriceListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { list, categories, canChange, done } = loaderData;
  const answerFor = (form: FormName) => (actionData?.form === form ? actionData : undefined);
  const rename = answerFor("rename");
  const rule = answerFor("rule");
  const ruleErrors: RuleFormValues = rule?.field ? { [rule.field]: rule.message } : {};
  return (
    <article aria-labelledby="price-list-heading" className="max-w-3xl">
      <BackHeading backTo="/admin/price-lists" backLabel="Price lists" id="price-list-heading" title={list.name} />
      <ResultMessage result={actionData ? (actionData.field ? null : actionData) : done} />
      <p className="mt-2 text-slate-700">
        {list.companies.length === 0
          ? "No company uses this list yet."
          : `Used by ${countText(list.companies.length, "company", "companies")}: `}
        {list.companies.map((c, i) => (
          <span key={c.organization_id}>
            {i > 0 ? ", " : null}
            <Link to={`/admin/trade/${c.application_id}`} className="underline">
              {c.name}
            </Link>
          </span>
        ))}
      </p>
      <HeadedSection
        id="rules-heading"
        title="Rules"
        headingClassName="text-xl font-semibold text-ink"
        className="mt-6"
      >
        <PriceListRulesTable listName={list.name} rules={list.rules} canChange={canChange} />
      </HeadedSection>
      {canChange ? (
        <>
          <HeadedSection
            id="add-rule-heading"
            title="Add a rule"
            headingClassName="text-xl font-semibold text-ink"
            className="mt-8 border-t border-slate-200 pt-6"
          >
            <p className="mt-1 text-sm text-slate-700">
              One rule per product, per category and for everything. To change a rule, remove it and add the new one.
            </p>
            <AddRuleForm
              key={rule ? "refused" : list.rules.length}
              categories={categories}
              values={rule?.values}
              errors={ruleErrors}
            />
          </HeadedSection>
          <HeadedSection
            id="rename-heading"
            title="Rename"
            headingClassName="text-xl font-semibold text-ink"
            className="mt-8 border-t border-slate-200 pt-6"
          >
            <div className="mt-3">
              <PriceListNameForm
                key={list.name}
                intent="rename"
                id="price-list-name"
                label="Name"
                button="Rename"
                defaultValue={rename?.values?.name ?? list.name}
                error={rename?.field ? rename.message : undefined}
              />
            </div>
          </HeadedSection>
        </>
      ) : null}
    </article>
  );
}
