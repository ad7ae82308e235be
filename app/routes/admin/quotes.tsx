import { data, Link } from "react-router";
import type { Route } from "./+types/quotes";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { FilterLinks } from "../../components/admin/list/FilterLinks.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { hrefWith } from "../../lib/admin/list-pager.ts";
import { QUOTE_STATE_LABELS, STAFF_QUOTE_FILTERS, type StaffQuoteFilter } from "../../lib/quotes.ts";
import { quoteListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { countQuoteRequests, listQuotesForStaff } from "../../../server/quotes/staff-quotes.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Quotes | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABELS: Record<StaffQuoteFilter, string> = {
  requested: "Waiting for prices",
  quoted: "Sent",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  all: "All",
};

export async function loader({ request }: Route.LoaderArgs) {
  const { filter, list, beside } = await loadListPage(request, {
    permission: { quote: ["view"] },
    filters: quoteListFilters,
    list: (db, query) => listQuotesForStaff(db, query.filter),
    beside: (db) => countQuoteRequests(db),
  });
  return { filter: filter.filter, rows: list, waiting: beside };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { quote: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function AdminQuotes({ loaderData }: Route.ComponentProps) {
  const { filter, rows, waiting } = loaderData;
  return (
    <section aria-labelledby="quotes-heading">
      <h1 id="quotes-heading" className="text-3xl font-bold text-ink">
        Quotes
      </h1>
      <p className="mt-2 text-slate-700">
        Buyers' requests for a price on their cart. {waiting === 1 ? "1 request is" : `${waiting} requests are`} waiting
        for prices.
      </p>
      <FilterLinks
        label="Quote filter"
        filters={STAFF_QUOTE_FILTERS}
        current={filter}
        labels={FILTER_LABELS}
        hrefFor={(f) => hrefWith("/admin/quotes", { filter: f === "requested" ? null : f })}
      />
      <AdminList
        caption={`${FILTER_LABELS[filter]}: quotes`}
        rows={rows}
        rowKey={(q) => q.number}
        columns={[
          { header: "Asked", cell: (q) => <When iso={q.createdAt} /> },
          {
            header: "Quote",
            cell: (q) => (
              <Link to={`/admin/quotes/${q.number}`} className="underline">
                {q.number}
              </Link>
            ),
          },
          {
            header: "Buyer",
            cell: (q) => (
              <>
                {q.companyName ? `${q.companyName} · ` : ""}
                <span className="text-slate-700">{q.email}</span>
              </>
            ),
          },
          { header: "Lines", cell: (q) => q.lineCount },
          { header: "State", cell: (q) => QUOTE_STATE_LABELS[q.state] },
        ]}
        empty="No quotes here."
      />
    </section>
  );
}
