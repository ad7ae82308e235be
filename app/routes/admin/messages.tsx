import { data, Link } from "react-router";
import type { Route } from "./+types/messages";
import { FilterLinks, hrefWith, Pager, pageParam, TABLE_CLASS, TD_CLASS, TH_CLASS, When } from "../../components/admin/messages/ListParts.tsx";
import { MESSAGE_FILTERS, type MessageFilter } from "../../lib/admin/message-constants.ts";
import { countUnhandledMessages, listMessages } from "../../../server/contact/inbox.ts";
import { getDb } from "../../../server/db/connection.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Messages | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABELS: Record<MessageFilter, string> = { all: "All", unhandled: "Unhandled", handled: "Handled" };

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { message: ["view"] });
  const url = new URL(request.url);
  const filter = MESSAGE_FILTERS.find((f) => f === url.searchParams.get("filter")) ?? "all";
  const db = getDb();
  const [list, unhandled] = await Promise.all([listMessages(db, { filter, page: pageParam(url.searchParams.get("page")) }), countUnhandledMessages(db)]);
  return { filter, unhandled, ...list };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { message: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { filter, rows, page, hasNext, unhandled } = loaderData;
  const href = (f: MessageFilter, p = 1) => hrefWith("/admin/messages", { filter: f === "all" ? null : f, page: p });
  return (
    <section aria-labelledby="messages-heading">
      <h1 id="messages-heading" className="text-3xl font-bold text-ink">
        Messages
      </h1>
      <p className="mt-2 text-slate-700">
        Contact form messages, newest first. {unhandled === 1 ? "1 message is" : `${unhandled} messages are`} not handled yet.
      </p>
      <FilterLinks label="Message filter" filters={MESSAGE_FILTERS} current={filter} labels={FILTER_LABELS} hrefFor={(f) => href(f)} />
      {rows.length === 0 ? (
        <p className="mt-6 text-slate-700">No messages here.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className={TABLE_CLASS}>
            <caption className="sr-only">
              {FILTER_LABELS[filter]} contact messages, newest first, page {page}
            </caption>
            <thead>
              <tr>
                <th scope="col" className={TH_CLASS} aria-sort="descending">
                  Received
                </th>
                <th scope="col" className={TH_CLASS}>
                  From
                </th>
                <th scope="col" className={TH_CLASS}>
                  Subject
                </th>
                <th scope="col" className={TH_CLASS}>
                  State
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id} className={m.handled_at ? "" : "font-semibold"}>
                  <td className={TD_CLASS}>
                    <When iso={m.created_at} />
                  </td>
                  <td className={TD_CLASS}>
                    {m.name} <span className="font-normal text-slate-700">&lt;{m.email}&gt;</span>
                  </td>
                  <td className={TD_CLASS}>
                    <Link to={`/admin/messages/${m.id}`} className="underline">
                      {m.subject}
                    </Link>
                  </td>
                  <td className={TD_CLASS}>{m.replied_at ? "Replied" : m.handled_at ? "Handled" : "Unhandled"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} hasNext={hasNext} hrefFor={(p) => href(filter, p)} label="Message pages" />
    </section>
  );
}
