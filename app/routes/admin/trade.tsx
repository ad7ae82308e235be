import { data, Link } from "react-router";
import type { Route } from "./+types/trade";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { FilterLinks } from "../../components/admin/list/FilterLinks.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { hrefWith, numberedPager } from "../../lib/admin/list-pager.ts";
import { applicationListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import {
  APPLICATION_FILTERS,
  countPendingApplications,
  listApplications,
  type ApplicationFilter,
} from "../../../server/trade/applications.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Trade accounts | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABELS: Record<ApplicationFilter, string> = {
  pending: "Waiting for a decision",
  approved: "Approved",
  rejected: "Rejected",
  all: "All",
};
const STATUS_LABELS: Record<string, string> = { pending: "Waiting", approved: "Approved", rejected: "Rejected" };

export async function loader({ request }: Route.LoaderArgs) {
  const { filter, list, beside, pager } = await loadListPage(request, {
    permission: { trade: ["view"] },
    filters: applicationListFilters,
    list: (db, query) => listApplications(db, query),
    beside: (db) => countPendingApplications(db),
    pager: numberedPager,
  });
  return { filter: filter.filter, pending: beside, rows: list.rows, pager };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { trade: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function TradeApplications({ loaderData }: Route.ComponentProps) {
  const { filter, rows, pager, pending } = loaderData;
  const query = (f: ApplicationFilter) => ({ filter: f === "pending" ? null : f });
  return (
    <section aria-labelledby="trade-heading">
      <h1 id="trade-heading" className="text-3xl font-bold text-ink">
        Trade accounts
      </h1>
      <p className="mt-2 text-slate-700">
        Applications for a trade account. {pending === 1 ? "1 application is" : `${pending} applications are`} waiting
        for a decision.
      </p>
      <FilterLinks
        label="Application filter"
        filters={APPLICATION_FILTERS}
        current={filter}
        labels={FILTER_LABELS}
        hrefFor={(f) => hrefWith("/admin/trade", query(f))}
      />
      <AdminList
        caption={`${FILTER_LABELS[filter]}: trade account applications, page ${pager.page}`}
        rows={rows}
        rowKey={(a) => a.id}
        columns={[
          { header: "Received", cell: (a) => <When iso={a.created_at} /> },
          {
            header: "Company",
            cell: (a) => (
              <Link to={`/admin/trade/${a.id}`} className="underline">
                {a.company_name}
              </Link>
            ),
          },
          {
            header: "Applicant",
            cell: (a) => (
              <>
                {a.applicant_name} <span className="text-slate-700">&lt;{a.applicant_email}&gt;</span>
              </>
            ),
          },
          { header: "Country", cell: (a) => (a.country === "GB" ? "United Kingdom" : "United States") },
          { header: "Tax number", cell: (a) => a.tax_id },
          { header: "State", cell: (a) => STATUS_LABELS[a.status] ?? a.status },
        ]}
        empty="No applications here."
        pager={{ label: "Application pages", pager, path: "/admin/trade", query: query(filter) }}
      />
    </section>
  );
}
