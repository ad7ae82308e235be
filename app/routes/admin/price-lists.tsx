import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/price-lists";
import { ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { PriceListNameForm } from "../../components/admin/trade/PriceListNameForm.tsx";
import { noListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { can } from "../../../server/auth/permissions.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { createPriceList, listPriceLists, PriceListFieldError } from "../../../server/trade/price-lists.ts";
import { formText } from "../../lib/form-text.ts";
import { withoutControl } from "../../lib/control-characters.ts";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";

export function meta() {
  return [{ title: "Price lists | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const { staff, list } = await loadListPage(request, {
    permission: { trade: ["view"] },
    filters: noListFilters,
    list: (db) => listPriceLists(db),
  });
  return { lists: list, canChange: can(staff.role, { trade: ["update"] }) };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, { trade: ["update"] });
  const form = await readSmallForm(request);
  if (form.get("intent") !== "create")
    return data({ ok: false as const, message: "Unknown action.", field: undefined, name: "" }, { status: 400 });
  const name = withoutControl(formText(form, "name")).slice(0, 200);
  try {
    const { id } = await createPriceList(getDb(), { userId: staff.userId, name: staff.name }, form.get("name"));
    throw redirect(`/admin/price-lists/${id}?done=created`, { status: 303 });
  } catch (error) {
    if (isDomainError(error))
      return data(
        {
          ok: false as const,
          message: error.message,
          field: error instanceof PriceListFieldError ? error.field : undefined,
          name,
        },
        { status: error.status },
      );
    throw error;
  }
}

export default function PriceLists({ loaderData, actionData }: Route.ComponentProps) {
  const { lists, canChange } = loaderData;
  return (
    <section aria-labelledby="price-lists-heading">
      <h1 id="price-lists-heading" className="text-3xl font-bold text-ink">
        Price lists
      </h1>
      <p className="mt-2 max-w-3xl text-slate-700">
        Trade prices for companies: give a company a list on its trade application's page. Within a list, a product's
        own rule wins over its category's, and that over the rule for everything; the buyer then pays the lowest of the
        list price, the volume price and this trade price.
      </p>
      <ResultMessage result={actionData && !actionData.field ? actionData : null} />
      <AdminList
        caption="Price lists"
        rows={lists}
        rowKey={(list) => list.id}
        columns={[
          {
            header: "Name",
            cell: (list) => (
              <Link to={`/admin/price-lists/${list.id}`} className="underline">
                {list.name}
              </Link>
            ),
          },
          { header: "Rules", cell: (list) => list.rule_count },
          { header: "Companies", cell: (list) => list.company_count },
          { header: "Created", cell: (list) => <When iso={list.created_at} /> },
        ]}
        empty="No price lists yet."
      />
      {canChange ? (
        <HeadedSection
          id="new-price-list-heading"
          title="New price list"
          headingClassName="text-xl font-semibold text-ink"
          className="mt-8 max-w-3xl border-t border-slate-200 pt-6"
        >
          <div className="mt-3">
            <PriceListNameForm
              intent="create"
              id="new-price-list-name"
              label="Name"
              button="Create price list"
              defaultValue={actionData?.name}
              error={actionData?.field ? actionData.message : undefined}
            />
          </div>
        </HeadedSection>
      ) : null}
    </section>
  );
}
