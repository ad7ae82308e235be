import { data, Link } from "react-router";
import type { Route } from "./+types/messages";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { FilterLinks } from "../../components/admin/list/FilterLinks.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { MESSAGE_FILTERS, type MessageFilter } from "../../lib/admin/message-constants.ts";
import { hrefWith, numberedPager } from "../../lib/admin/list-pager.ts";
import { messageListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { countUnhandledMessages, listMessages } from "../../../server/contact/inbox.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Messages | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const FILTER_LABELS: Record<MessageFilter, string> = { all: "All", unhandled: "Unhandled", handled: "Handled" };

export async function loader({ request }: Route.LoaderArgs) {
  const { filter, list, beside, pager } = await loadListPage(request, {
    permission: { message: ["view"] },
    filters: messageListFilters,
    list: (db, query) => listMessages(db, query),
    beside: (db) => countUnhandledMessages(db),
    pager: numberedPager,
  });
  return { filter: filter.filter, unhandled: beside, rows: list.rows, pager };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { message: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  const { filter, rows, pager, unhandled } = loaderData;
  const query = (f: MessageFilter) => ({ filter: f === "all" ? null : f });
  return (
    <section aria-labelledby="messages-heading">
      <h1 id="messages-heading" className="text-3xl font-bold text-ink">
        Messages
      </h1>
      <p className="mt-2 text-slate-700">
        Contact form messages, newest first. {unhandled === 1 ? "1 message is" : `${unhandled} messages are`} not
        handled yet.
      </p>
      <FilterLinks
        label="Message filter"
        filters={MESSAGE_FILTERS}
        current={filter}
        labels={FILTER_LABELS}
        hrefFor={(f) => hrefWith("/admin/messages", query(f))}
      />
      <AdminList
        caption={`${FILTER_LABELS[filter]} contact messages, newest first, page ${pager.page}`}
        rows={rows}
        rowKey={(m) => m.id}
        rowClassName={(m) => (m.handled_at ? "" : "font-semibold")}
        columns={[
          { header: "Received", fixedSort: "descending", cell: (m) => <When iso={m.created_at} /> },
          {
            header: "From",
            cell: (m) => (
              <>
                {m.name} <span className="font-normal text-slate-700">&lt;{m.email}&gt;</span>
              </>
            ),
          },
          {
            header: "Subject",
            cell: (m) => (
              <Link to={`/admin/messages/${m.id}`} className="underline">
                {m.subject}
              </Link>
            ),
          },
          { header: "State", cell: (m) => (m.replied_at ? "Replied" : m.handled_at ? "Handled" : "Unhandled") },
        ]}
        empty="No messages here."
        pager={{ label: "Message pages", pager, path: "/admin/messages", query: query(filter) }}
      />
    </section>
  );
}
