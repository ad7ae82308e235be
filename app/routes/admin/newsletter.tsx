import { data, Form, Link } from "react-router";
import type { Route } from "./+types/newsletter";
import { hrefWith, Pager, pageParam, TABLE_CLASS, TD_CLASS, TH_CLASS, When } from "../../components/admin/messages/ListParts.tsx";
import { getDb } from "../../../server/db/connection.ts";
import { countSubscribersByStatus, listSubscribers, parseNewsletterStatus } from "../../../server/newsletter/admin.ts";
import { MAX_SEARCH_LENGTH } from "../../lib/admin/customer-labels.ts";
import { NEWSLETTER_STATUSES } from "../../lib/admin/message-constants.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Newsletter | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const STATUS_LABELS = { pending: "Pending", confirmed: "Confirmed", unsubscribed: "Unsubscribed" } as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { message: ["view"] });
  const url = new URL(request.url);
  const status = parseNewsletterStatus(url.searchParams.get("status"));
  const q = (url.searchParams.get("q") ?? "").slice(0, MAX_SEARCH_LENGTH);
  const db = getDb();
  const [counts, list] = await Promise.all([countSubscribersByStatus(db), listSubscribers(db, { status, q, page: pageParam(url.searchParams.get("page")) })]);
  return { status, q, counts, ...list };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { message: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function Newsletter({ loaderData }: Route.ComponentProps) {
  const { status, q, counts, rows, page, hasNext } = loaderData;
  const href = (p: number) => hrefWith("/admin/newsletter", { status, q, page: p });
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
      <Form method="get" role="search" aria-label="Subscribers" className="mt-6 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="subscriber-q" className="block text-sm font-semibold text-ink">
            Email contains
          </label>
          <input id="subscriber-q" name="q" type="search" defaultValue={q} maxLength={MAX_SEARCH_LENGTH} className="field mt-1" />
        </div>
        <div>
          <label htmlFor="subscriber-status" className="block text-sm font-semibold text-ink">
            Status
          </label>
          <select id="subscriber-status" name="status" defaultValue={status ?? ""} className="field mt-1">
            <option value="">Any status</option>
            {NEWSLETTER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary">
          Show
        </button>
        <a href={exportHref} className="btn-outline" download>
          Download CSV{status ? ` (${STATUS_LABELS[status].toLowerCase()})` : ""}
        </a>
      </Form>
      {rows.length === 0 ? (
        <p className="mt-6 text-slate-700">No subscribers match.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className={TABLE_CLASS}>
            <caption className="sr-only">Newsletter subscribers, newest first, page {page}</caption>
            <thead>
              <tr>
                <th scope="col" className={TH_CLASS}>
                  Email
                </th>
                <th scope="col" className={TH_CLASS}>
                  Status
                </th>
                <th scope="col" className={TH_CLASS} aria-sort="descending">
                  Signed up
                </th>
                <th scope="col" className={TH_CLASS}>
                  Confirmed
                </th>
                <th scope="col" className={TH_CLASS}>
                  Unsubscribed
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td className={TD_CLASS}>{r.email}</td>
                  <td className={TD_CLASS}>{STATUS_LABELS[r.status]}</td>
                  <td className={TD_CLASS}>
                    <When iso={r.created_at} />
                  </td>
                  <td className={TD_CLASS}>
                    <When iso={r.confirmed_at} />
                  </td>
                  <td className={TD_CLASS}>
                    <When iso={r.unsubscribed_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} hasNext={hasNext} hrefFor={href} label="Subscriber pages" />
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
