import { data, Link } from "react-router";
import type { Route } from "./+types/quotes";
import { FilterLinks, hrefWith, TABLE_CLASS, TD_CLASS, TH_CLASS, When } from "../../components/admin/messages/ListParts.tsx";
import { QUOTE_STATE_LABELS, STAFF_QUOTE_FILTERS, type StaffQuoteFilter } from "../../lib/quotes.ts";
import { getDb } from "../../../server/db/connection.ts";
import { countQuoteRequests, listQuotesForStaff } from "../../../server/quotes/staff-quotes.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Quotes | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABELS: Record<StaffQuoteFilter, string> = { requested: "Waiting for prices", quoted: "Sent", accepted: "Accepted", declined: "Declined", expired: "Expired", all: "All" };

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { quote: ["view"] });
  const url = new URL(request.url);
  const filter = STAFF_QUOTE_FILTERS.find((f) => f === url.searchParams.get("filter")) ?? "requested";
  const db = getDb();
  const [rows, waiting] = await Promise.all([listQuotesForStaff(db, filter), countQuoteRequests(db)]);
  return { filter, rows, waiting };
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
      <p className="mt-2 text-slate-700">Buyers' requests for a price on their cart. {waiting === 1 ? "1 request is" : `${waiting} requests are`} waiting for prices.</p>
      <FilterLinks label="Quote filter" filters={STAFF_QUOTE_FILTERS} current={filter} labels={FILTER_LABELS} hrefFor={(f) => hrefWith("/admin/quotes", { filter: f === "requested" ? null : f })} />
      {rows.length === 0 ? (
        <p className="mt-6 text-slate-700">No quotes here.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className={TABLE_CLASS}>
            <caption className="sr-only">{FILTER_LABELS[filter]}: quotes</caption>
            <thead>
              <tr>
                <th scope="col" className={TH_CLASS}>Asked</th>
                <th scope="col" className={TH_CLASS}>Quote</th>
                <th scope="col" className={TH_CLASS}>Buyer</th>
                <th scope="col" className={TH_CLASS}>Lines</th>
                <th scope="col" className={TH_CLASS}>State</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((q) => (
                <tr key={q.number}>
                  <td className={TD_CLASS}>
                    <When iso={q.createdAt} />
                  </td>
                  <td className={TD_CLASS}>
                    <Link to={`/admin/quotes/${q.number}`} className="underline">
                      {q.number}
                    </Link>
                  </td>
                  <td className={TD_CLASS}>
                    {q.companyName ? `${q.companyName} · ` : ""}
                    <span className="text-slate-700">{q.email}</span>
                  </td>
                  <td className={TD_CLASS}>{q.lineCount}</td>
                  <td className={TD_CLASS}>{QUOTE_STATE_LABELS[q.state]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
