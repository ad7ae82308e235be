import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/customers";
import { methodLabels, ROLE_LABELS } from "../../lib/admin/customer-labels.ts";
import { SortHeader } from "../../components/admin/SortHeader.tsx";
import { hrefWith, Pager, pageParam, TABLE_CLASS, TD_CLASS, TH_CLASS, When } from "../../components/admin/messages/ListParts.tsx";
import { formatMoney } from "../../lib/money.ts";
import { MAX_SEARCH_LENGTH } from "../../lib/admin/customer-labels.ts";
import { CUSTOMER_SORTS, listCustomers, type CustomerSort, type RoleFilter } from "../../../server/customers/list.ts";
import { getDb } from "../../../server/db/connection.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Customers | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

function readQuery(url: URL) {
  const p = url.searchParams;
  const role = (["customer", "staff"] as const).find((r) => r === p.get("role")) ?? "all";
  const sort = CUSTOMER_SORTS.find((s) => s === p.get("sort")) ?? "newest";
  return { q: (p.get("q") ?? "").slice(0, MAX_SEARCH_LENGTH), role: role as RoleFilter, bannedOnly: p.get("banned") === "1", sort: sort as CustomerSort, page: pageParam(p.get("page")) };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { customer: ["view"] });
  const query = readQuery(new URL(request.url));
  const result = await listCustomers(getDb(), query);
  return { query, ...result };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { customer: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

type Query = ReturnType<typeof readQuery>;

const listHref = (query: Query, overrides: Partial<Query> = {}) => {
  const q = { ...query, ...overrides };
  return hrefWith("/admin/customers", { q: q.q, role: q.role === "all" ? null : q.role, banned: q.bannedOnly ? "1" : null, sort: q.sort === "newest" ? null : q.sort, page: q.page });
};

function CustomerSortHeader({ query, label, sort, alt }: { query: Query; label: string; sort: CustomerSort; alt?: CustomerSort }) {
  const active = query.sort === sort || query.sort === alt;
  const direction = !active ? null : query.sort === "newest" ? "descending" : "ascending";
  const next = alt && query.sort === sort ? alt : sort;
  return (
    <SortHeader
      label={label}
      href={listHref(query, { sort: next, page: 1 })}
      direction={direction}
      className={TH_CLASS}
      linkClassName="underline"
      marker={direction ? (direction === "descending" ? " ↓" : " ↑") : null}
    />
  );
}

export default function Customers({ loaderData }: Route.ComponentProps) {
  const { query, rows, page, hasNext } = loaderData;
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/admin/customers";
  return (
    <section aria-labelledby="customers-heading">
      <h1 id="customers-heading" className="text-3xl font-bold text-ink">
        Customers
      </h1>
      <Form method="get" role="search" aria-label="Customers" className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="customer-q" className="block text-sm font-semibold text-ink">
            Name or email
          </label>
          <input id="customer-q" name="q" type="search" defaultValue={query.q} maxLength={MAX_SEARCH_LENGTH} className="field mt-1" />
        </div>
        <div>
          <label htmlFor="customer-role" className="block text-sm font-semibold text-ink">
            Role
          </label>
          <select id="customer-role" name="role" defaultValue={query.role === "all" ? "" : query.role} className="field mt-1">
            <option value="">All accounts</option>
            <option value="customer">Customers</option>
            <option value="staff">Staff and admins</option>
          </select>
        </div>
        <div className="flex items-center gap-2 pb-2">
          <input id="customer-banned" name="banned" type="checkbox" value="1" defaultChecked={query.bannedOnly} />
          <label htmlFor="customer-banned" className="text-sm font-semibold text-ink">
            Banned only
          </label>
        </div>
        {query.sort !== "newest" ? <input type="hidden" name="sort" value={query.sort} /> : null}
        <button type="submit" className="btn-primary">
          {searching ? "Searching…" : "Search"}
        </button>
      </Form>

      {rows.length === 0 ? (
        <p className="mt-6 text-slate-700" role="status">
          No account matches {query.q ? `"${query.q}"` : "these filters"}.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className={TABLE_CLASS}>
            <caption className="sr-only">Customers, page {page}</caption>
            <thead>
              <tr>
                <CustomerSortHeader query={query} label="Name" sort="name" />
                <CustomerSortHeader query={query} label="Email" sort="email" />
                <th scope="col" className={TH_CLASS}>
                  Sign-in methods
                </th>
                <th scope="col" className={TH_CLASS}>
                  Role
                </th>
                <th scope="col" className={TH_CLASS}>
                  Orders
                </th>
                <th scope="col" className={TH_CLASS}>
                  Lifetime value
                </th>
                <CustomerSortHeader query={query} label="Joined" sort="newest" alt="oldest" />
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td className={TD_CLASS}>
                    <Link to={`/admin/customers/${encodeURIComponent(c.id)}`} className="font-medium text-ink underline">
                      {c.name || "(no name)"}
                    </Link>
                    {c.banned ? <span className="ml-2 rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-900">Banned</span> : null}
                  </td>
                  <td className={TD_CLASS}>{c.email}</td>
                  <td className={TD_CLASS}>{methodLabels(c.methods).join(", ")}</td>
                  <td className={TD_CLASS}>{ROLE_LABELS[c.role]}</td>
                  <td className={TD_CLASS}>{c.orders}</td>
                  <td className={TD_CLASS}>{formatMoney(c.lifetimeValueCents)}</td>
                  <td className={TD_CLASS}>
                    <When iso={c.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} hasNext={hasNext} hrefFor={(p) => listHref(query, { page: p })} label="Customer pages" />
    </section>
  );
}
