import { data } from "react-router";
import type { Route } from "./+types/orders";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { OrderFilters, type FilterValues } from "../../components/admin/orders/OrderFilters.tsx";
import { orderColumns, orderListCaption, type SortState } from "../../components/admin/orders/order-columns.tsx";
import { cursorPager, hrefWith } from "../../lib/admin/list-pager.ts";
import { FILTER_FIELDS } from "../../lib/order-admin-schema.ts";
import { orderListFilters } from "../../../server/admin/list-filters.ts";
import { listQueryOf, loadListPage } from "../../../server/admin/list-page.ts";
import { listOrdersForStaff } from "../../../server/orders/admin-queries.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Orders | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

/** The filters live in the query string; a bad value is reported beside its field and lists nothing. */
export async function loader({ request }: Route.LoaderArgs) {
  const { filter, errors, list, pager } = await loadListPage(request, {
    permission: { order: ["view"] },
    filters: orderListFilters,
    list: (db, query) => listOrdersForStaff(db, query),
    pager: (page) =>
      cursorPager(page.previous ? { before: page.previous } : null, page.next ? { after: page.next } : null),
    whenInvalid: () => ({ filter: orderListFilters.parse({}), list: { rows: [], next: null, previous: null } }),
  });
  const query = listQueryOf(new URL(request.url));
  const values: FilterValues = Object.fromEntries(FILTER_FIELDS.map((k) => [k, query[k] ?? ""]));
  return {
    values,
    errors,
    sort: { sort: filter.sort ?? "date", dir: filter.dir ?? "desc" },
    rows: list.rows,
    pager,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { order: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

const sortParams = (s: SortState) => ({
  sort: s.sort === "date" ? undefined : s.sort,
  dir: s.dir === "desc" ? undefined : s.dir,
});

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { values, errors, sort, rows, pager } = loaderData;
  const filtered = Object.values(values).some(Boolean);
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <>
      <h1 className="text-3xl font-bold text-ink">Orders</h1>
      <p className="mt-1 text-slate-700">
        Placed orders, newest first. Guest orders that were never confirmed appear only when you filter by their status.
      </p>
      <OrderFilters values={values} errors={errors} sort={sortParams(sort)} />
      {hasErrors ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-4 text-red-900">
          {errors.after ??
            errors.before ??
            errors.sort ??
            errors.dir ??
            "Check the filters: the list shows nothing until they are valid."}
        </p>
      ) : (
        <AdminList
          caption={orderListCaption(sort)}
          scrollLabel="Orders table, scrollable"
          rows={rows}
          rowKey={(o) => o.number}
          rowClassName={() => "hover:bg-slate-50"}
          columns={orderColumns(sort, (s) => hrefWith("/admin/orders", { ...values, ...sortParams(s) }))}
          empty={filtered ? "No orders match these filters." : "There are no orders yet."}
          announceEmpty
          pager={{
            label: "Pages of orders",
            pager,
            path: "/admin/orders",
            query: { ...values, ...sortParams(sort) },
            prevText: "← Previous page",
            nextText: "Next page →",
          }}
        />
      )}
    </>
  );
}
