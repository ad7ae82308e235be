import { data } from "react-router";
import type { Route } from "./+types/orders";
import { PrevNextNav } from "../../components/admin/messages/ListParts.tsx";
import { OrderFilters, type FilterValues } from "../../components/admin/orders/OrderFilters.tsx";
import { OrdersTable, type SortState } from "../../components/admin/orders/OrdersTable.tsx";
import { FILTER_FIELDS, orderFilterSchema } from "../../lib/order-admin-schema.ts";
import { getDb } from "../../../server/db/connection.ts";
import { listOrdersForStaff } from "../../../server/orders/admin-queries.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Orders | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

/** The filters live in the query string; a bad value is reported beside its field and lists nothing. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { order: ["view"] });
  const params = new URL(request.url).searchParams;
  const raw = Object.fromEntries([...FILTER_FIELDS, "sort", "dir", "after", "before"].map((k) => [k, (params.get(k) ?? "").slice(0, 300)]));
  const values: FilterValues = Object.fromEntries(FILTER_FIELDS.map((k) => [k, raw[k] ?? ""]));
  const parsed = orderFilterSchema.safeParse(raw);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
    return { values, errors, sort: { sort: "date", dir: "desc" } as SortState, page: { rows: [], next: null, previous: null } };
  }
  const filter = parsed.data;
  const page = await listOrdersForStaff(getDb(), filter);
  return { values, errors: {} as Record<string, string>, sort: { sort: filter.sort ?? "date", dir: filter.dir ?? "desc" } as SortState, page };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { order: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

function queryString(values: FilterValues, extra: Record<string, string | undefined>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v) q.set(k, v);
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `/admin/orders?${s}` : "/admin/orders";
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { values, errors, sort, page } = loaderData;
  const sortParams = (s: SortState) => ({ sort: s.sort === "date" ? undefined : s.sort, dir: s.dir === "desc" ? undefined : s.dir });
  const filtered = Object.values(values).some(Boolean);
  const hasErrors = Object.keys(errors).length > 0;
  return (
    <>
      <h1 className="text-3xl font-bold text-ink">Orders</h1>
      <p className="mt-1 text-slate-700">Placed orders, newest first. Guest orders that were never confirmed appear only when you filter by their status.</p>
      <OrderFilters values={values} errors={errors} sort={sortParams(sort)} />
      {hasErrors ? (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-4 text-red-900">
          {errors.after ?? errors.before ?? errors.sort ?? errors.dir ?? "Check the filters: the list shows nothing until they are valid."}
        </p>
      ) : page.rows.length === 0 ? (
        <p role="status" className="mt-6 text-slate-700">
          {filtered ? "No orders match these filters." : "There are no orders yet."}
        </p>
      ) : (
        <OrdersTable rows={page.rows} sort={sort} sortHref={(s) => queryString(values, sortParams(s))} />
      )}
      <PrevNextNav
        label="Pages of orders"
        prevHref={page.previous ? queryString(values, { ...sortParams(sort), before: page.previous }) : null}
        nextHref={page.next ? queryString(values, { ...sortParams(sort), after: page.next }) : null}
        prevText="← Previous page"
        nextText="Next page →"
        className="mt-4 flex gap-4"
        linkClassName="btn-outline"
      />
    </>
  );
}
