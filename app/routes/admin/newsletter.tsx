import { data, Link } from "react-router";
import { Options } from "../../components/ui/Options.tsx";
import type { Route } from "./+types/newsletter";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { FilterField, FilterForm } from "../../components/admin/list/FilterForm.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { MAX_SEARCH_LENGTH } from "../../lib/admin/customer-labels.ts";
import { hrefWith, numberedPager } from "../../lib/admin/list-pager.ts";
import { NEWSLETTER_STATUSES } from "../../lib/admin/message-constants.ts";
import { subscriberListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { countSubscribersByStatus, listSubscribers } from "../../../server/newsletter/admin.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Newsletter | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const STATUS_LABELS = { pending: "Pending", confirmed: "Confirmed", unsubscribed: "Unsubscribed" } as const;

export async function loader({ request }: Route.LoaderArgs) {
  const { filter, list, beside, pager } = await loadListPage(request, {
    permission: { message: ["view"] },
    filters: subscriberListFilters,
    list: (db, query) => listSubscribers(db, query),
    beside: (db) => countSubscribersByStatus(db),
    pager: numberedPager,
  });
  return { status: filter.status, q: filter.q, counts: beside, rows: list.rows, pager };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { message: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function Newsletter({ loaderData }: Route.ComponentProps) {
  const { status, q, counts, rows, pager } = loaderData;
  const exportHref = hrefWith("/admin/newsletter/export.csv", { status });
  return (
    <section aria-labelledby="newsletter-heading">
      <h1 id="newsletter-heading" className="text-3xl font-bold text-ink">
        Newsletter subscribers
      </h1>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        {NEWSLETTER_STATUSES.map((s) => (
          <div key={s} className="rounded border border-slate-200 bg-white p-4">
            <dt className="text-sm text-slate-700">{STATUS_LABELS[s]}</dt>
            <dd className="mt-1 text-2xl font-bold text-ink">{counts[s]}</dd>
          </div>
        ))}
      </dl>
      <FilterForm
        label="Subscribers"
        button="Show"
        className="mt-6 flex flex-wrap items-end gap-3"
        after={
          <a href={exportHref} className="btn-outline" download>
            Download CSV{status ? ` (${STATUS_LABELS[status].toLowerCase()})` : ""}
          </a>
        }
      >
        <FilterField id="subscriber-q" label="Email contains">
          <input
            id="subscriber-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={MAX_SEARCH_LENGTH}
            className="field mt-1"
          />
        </FilterField>
        <FilterField id="subscriber-status" label="Status">
          <select id="subscriber-status" name="status" defaultValue={status ?? ""} className="field mt-1">
            <option value="">Any status</option>
            <Options options={NEWSLETTER_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))} />
          </select>
        </FilterField>
      </FilterForm>
      <AdminList
        caption={`Newsletter subscribers, newest first, page ${pager.page}`}
        rows={rows}
        rowKey={(r) => r.id}
        columns={[
          { header: "Email", cell: (r) => r.email },
          { header: "Status", cell: (r) => STATUS_LABELS[r.status] },
          { header: "Signed up", fixedSort: "descending", cell: (r) => <When iso={r.created_at} /> },
          { header: "Confirmed", cell: (r) => <When iso={r.confirmed_at} /> },
          { header: "Unsubscribed", cell: (r) => <When iso={r.unsubscribed_at} /> },
        ]}
        empty="No subscribers match."
        pager={{ label: "Subscriber pages", pager, path: "/admin/newsletter", query: { status, q } }}
      />
      <p className="mt-6 text-sm text-slate-700">
        Subscribers confirm by email (double opt-in); only confirmed addresses get the newsletter. See also the{" "}
        <Link to="/admin/mail" className="underline">
          mail queue
        </Link>
        .
      </p>
    </section>
  );
}
