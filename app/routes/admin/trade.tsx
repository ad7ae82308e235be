import { data, Link } from "react-router";
import type { Route } from "./+types/trade";
import { FilterLinks, hrefWith, Pager, pageParam, TABLE_CLASS, TD_CLASS, TH_CLASS, When } from "../../components/admin/messages/ListParts.tsx";
import { APPLICATION_FILTERS, countPendingApplications, listApplications, type ApplicationFilter } from "../../../server/trade/applications.ts";
import { getDb } from "../../../server/db/connection.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Trade accounts | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABELS: Record<ApplicationFilter, string> = { pending: "Waiting for a decision", approved: "Approved", rejected: "Rejected", all: "All" };
const STATUS_LABELS: Record<string, string> = { pending: "Waiting", approved: "Approved", rejected: "Rejected" };

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { trade: ["view"] });
  const url = new URL(request.url);
  const filter = APPLICATION_FILTERS.find((f) => f === url.searchParams.get("filter")) ?? "pending";
  const db = getDb();
  const [list, pending] = await Promise.all([listApplications(db, { filter, page: pageParam(url.searchParams.get("page")) }), countPendingApplications(db)]);
  return { filter, pending, ...list };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { trade: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function TradeApplications({ loaderData }: Route.ComponentProps) {
  const { filter, rows, page, hasNext, pending } = loaderData;
  const href = (f: ApplicationFilter, p = 1) => hrefWith("/admin/trade", { filter: f === "pending" ? null : f, page: p });
  return (
    <section aria-labelledby="trade-heading">
      <h1 id="trade-heading" className="text-3xl font-bold text-ink">
        Trade accounts
      </h1>
      <p className="mt-2 text-slate-700">
        Applications for a trade account. {pending === 1 ? "1 application is" : `${pending} applications are`} waiting for a decision.
      </p>
      <FilterLinks label="Application filter" filters={APPLICATION_FILTERS} current={filter} labels={FILTER_LABELS} hrefFor={(f) => href(f)} />
      {rows.length === 0 ? (
        <p className="mt-6 text-slate-700">No applications here.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className={TABLE_CLASS}>
            <caption className="sr-only">
              {FILTER_LABELS[filter]}: trade account applications, page {page}
            </caption>
            <thead>
              <tr>
                <th scope="col" className={TH_CLASS}>Received</th>
                <th scope="col" className={TH_CLASS}>Company</th>
                <th scope="col" className={TH_CLASS}>Applicant</th>
                <th scope="col" className={TH_CLASS}>Country</th>
                <th scope="col" className={TH_CLASS}>Tax number</th>
                <th scope="col" className={TH_CLASS}>State</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.id}>
                  <td className={TD_CLASS}>
                    <When iso={a.created_at} />
                  </td>
                  <td className={TD_CLASS}>
                    <Link to={`/admin/trade/${a.id}`} className="underline">
                      {a.company_name}
                    </Link>
                  </td>
                  <td className={TD_CLASS}>
                    {a.applicant_name} <span className="text-slate-700">&lt;{a.applicant_email}&gt;</span>
                  </td>
                  <td className={TD_CLASS}>{a.country === "GB" ? "United Kingdom" : "United States"}</td>
                  <td className={TD_CLASS}>{a.tax_id}</td>
                  <td className={TD_CLASS}>{STATUS_LABELS[a.status] ?? a.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} hasNext={hasNext} hrefFor={(p) => href(filter, p)} label="Application pages" />
    </section>
  );
}
