import { data, Link, useNavigation } from "react-router";
import type { Route } from "./+types/customers";
import { AdminList, type ColumnSort } from "../../components/admin/list/AdminList.tsx";
import { FilterField, FilterForm } from "../../components/admin/list/FilterForm.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { MAX_SEARCH_LENGTH, methodLabels, ROLE_LABELS } from "../../lib/admin/customer-labels.ts";
import { hrefWith, numberedPager } from "../../lib/admin/list-pager.ts";
import { formatPerCurrency } from "../../lib/money.ts";
import { customerListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { listCustomers, type CustomerSort } from "../../../server/customers/list.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Customers | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const { filter, list, pager } = await loadListPage(request, {
    permission: { customer: ["view"] },
    filters: customerListFilters,
    list: (db, query) => listCustomers(db, query),
    pager: numberedPager,
  });
  return { query: filter, rows: list.rows, pager };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { customer: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

type Query = Route.ComponentProps["loaderData"]["query"];

const queryOf = (q: Query) => ({
  q: q.q,
  role: q.role === "all" ? null : q.role,
  banned: q.bannedOnly ? "1" : null,
  sort: q.sort === "newest" ? null : q.sort,
});

/** Sorts by `sort`; a column with an `alt` sort (Joined: newest, oldest) turns it round when pressed again. */
function sortBy(query: Query, sort: CustomerSort, alt?: CustomerSort): ColumnSort {
  const active = query.sort === sort || query.sort === alt;
  const next = alt && query.sort === sort ? alt : sort;
  return {
    href: hrefWith("/admin/customers", queryOf({ ...query, sort: next })),
    direction: !active ? null : query.sort === "newest" ? "descending" : "ascending",
  };
}

export default function Customers({ loaderData }: Route.ComponentProps) {
  const { query, rows, pager } = loaderData;
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/admin/customers";
  return (
    <section aria-labelledby="customers-heading">
      <h1 id="customers-heading" className="text-3xl font-bold text-ink">
        Customers
      </h1>
      <FilterForm
        label="Customers"
        button={searching ? "Searching…" : "Search"}
        hidden={{ sort: query.sort === "newest" ? null : query.sort }}
      >
        <FilterField id="customer-q" label="Name or email">
          <input
            id="customer-q"
            name="q"
            type="search"
            defaultValue={query.q}
            maxLength={MAX_SEARCH_LENGTH}
            className="field mt-1"
          />
        </FilterField>
        <FilterField id="customer-role" label="Role">
          <select
            id="customer-role"
            name="role"
            defaultValue={query.role === "all" ? "" : query.role}
            className="field mt-1"
          >
            <option value="">All accounts</option>
            <option value="customer">Customers</option>
            <option value="staff">Staff and admins</option>
          </select>
        </FilterField>
        <div className="flex items-center gap-2 pb-2">
          <input id="customer-banned" name="banned" type="checkbox" value="1" defaultChecked={query.bannedOnly} />
          <label htmlFor="customer-banned" className="text-sm font-semibold text-ink">
            Banned only
          </label>
        </div>
      </FilterForm>
      <AdminList
        caption={`Customers, page ${pager.page}`}
        rows={rows}
        rowKey={(c) => c.id}
        columns={[
          {
            header: "Name",
            sort: sortBy(query, "name"),
            cell: (c) => (
              <>
                <Link to={`/admin/customers/${encodeURIComponent(c.id)}`} className="font-medium text-ink underline">
                  {c.name || "(no name)"}
                </Link>
                {c.banned ? (
                  <span className="ml-2 rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-900">
                    Banned
                  </span>
                ) : null}
              </>
            ),
          },
          { header: "Email", sort: sortBy(query, "email"), cell: (c) => c.email },
          { header: "Sign-in methods", cell: (c) => methodLabels(c.methods).join(", ") },
          { header: "Role", cell: (c) => ROLE_LABELS[c.role] },
          { header: "Orders", cell: (c) => c.orders },
          { header: "Lifetime value", cell: (c) => formatPerCurrency(c.lifetimeValue) },
          { header: "Joined", sort: sortBy(query, "newest", "oldest"), cell: (c) => <When iso={c.createdAt} /> },
        ]}
        empty={`No account matches ${query.q ? `"${query.q}"` : "these filters"}.`}
        announceEmpty
        pager={{ label: "Customer pages", pager, path: "/admin/customers", query: queryOf(query) }}
      />
    </section>
  );
}
