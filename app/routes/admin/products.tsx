import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Options } from "../../components/ui/Options.tsx";
import type { Route } from "./+types/products";
import { FormMessage } from "../../components/admin/fields.tsx";
import { AdminList, type Column } from "../../components/admin/list/AdminList.tsx";
import { FilterField, FilterForm } from "../../components/admin/list/FilterForm.tsx";
import { countedPager, hrefWith, type ListQuery } from "../../lib/admin/list-pager.ts";
import { formatMoney } from "../../lib/money.ts";
import { ADMIN_PER_PAGE } from "../../lib/admin-products.ts";
import { productListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import {
  listAdminProducts,
  listCatalogRefs,
  setArchived,
  setCategory,
  type AdminSort,
} from "../../../server/catalog/admin-products.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { formatCount } from "../../lib/numbers.ts";
import { formText } from "../../lib/form-text.ts";

export function meta() {
  return [{ title: "Products | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const {
    filter: query,
    list,
    beside: refs,
    pager,
  } = await loadListPage(request, {
    permission: { product: ["view"] },
    filters: productListFilters,
    list: (db, filter, staff) => listAdminProducts(db, staff, filter),
    beside: (db) => listCatalogRefs(db),
    pager: countedPager,
  });
  const url = new URL(request.url);
  return {
    items: list.items,
    total: list.total,
    pager,
    query,
    ...refs,
    done: url.searchParams.get("done"),
    n: Number(url.searchParams.get("n") ?? 0),
  };
}

/** Where the list was: only its own query string, never another address. */
function backTo(value: FormDataEntryValue | null, extra: Record<string, string>): string {
  const params = new URLSearchParams(typeof value === "string" && value.startsWith("?") ? value.slice(1, 2000) : "");
  for (const key of ["done", "n"]) params.delete(key);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return `/admin/products?${params}`;
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, { product: ["update"] });
  const form = await readSmallForm(request);
  const ids = form.getAll("id").map(Number);
  const bulk = formText(form, "bulk");
  try {
    let n: number;
    if (bulk === "archive" || bulk === "unarchive") n = await setArchived(getDb(), staff, ids, bulk === "archive");
    else if (bulk === "category") n = await setCategory(getDb(), staff, ids, formText(form, "category"));
    else return data({ message: "Choose what to do with the selected products." }, { status: 400 });
    throw redirect(backTo(form.get("back"), { done: bulk, n: String(n) }));
  } catch (error) {
    if (isDomainError(error)) return data({ message: error.message }, { status: error.status });
    throw error;
  }
}

type Product = Route.ComponentProps["loaderData"]["items"][number];

const SORTABLE: Partial<Record<string, AdminSort>> = {
  SKU: "sku",
  Title: "title",
  Price: "price",
  Stock: "stock",
  Updated: "updated",
};

const COLUMNS: Column<Product>[] = [
  { header: "SKU", className: "font-mono whitespace-nowrap", cell: (p) => p.sku },
  {
    header: "Title",
    cell: (p) => (
      <>
        <Link to={`/admin/products/${p.id}`} className="font-medium text-brand-800 underline">
          {p.title}
        </Link>
        {p.archivedAt ? (
          <span className="ml-2 rounded bg-slate-200 px-1.5 text-xs text-slate-800">Archived</span>
        ) : null}
      </>
    ),
  },
  { header: "Brand", cell: (p) => p.brandName },
  { header: "Category", cell: (p) => p.categoryName },
  {
    header: "Price",
    className: "whitespace-nowrap tabular-nums",
    cell: (p) => (
      <>
        {formatMoney(p.salePriceCents)}
        {p.discountPercent ? <span className="ml-1 text-xs text-slate-700">(−{p.discountPercent}%)</span> : null}
      </>
    ),
  },
  { header: "Stock", className: "tabular-nums", cell: (p) => <StockLevel product={p} /> },
  {
    header: "Updated",
    className: "whitespace-nowrap",
    cell: (p) => <time dateTime={p.updatedAt}>{p.updatedAt.slice(0, 10)}</time>,
  },
];

function StockLevel({ product: p }: { product: Product }) {
  const low = p.stock > 0 && p.stock <= p.lowStockThreshold;
  return (
    <span className={p.stock === 0 ? "font-semibold text-red-700" : low ? "font-semibold text-amber-800" : ""}>
      {p.stock}
      {p.stock === 0 ? " (out)" : low ? " (low)" : ""}
    </span>
  );
}

const DONE: Record<string, string> = {
  archive: "archived",
  unarchive: "put back on sale",
  category: "moved to the new category",
};

export default function ProductsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, pager, query, categories, brands, done, n } = loaderData;
  const navigation = useNavigation();
  const filters: ListQuery = {
    q: query.q,
    category: query.category,
    brand: query.brand,
    stock: query.stock,
    archived: query.archived === "live" ? undefined : query.archived,
    sort: query.sort,
    dir: query.dir,
  };
  const here = hrefWith("", { ...filters, page: query.page });
  const sortBy = (key: AdminSort) => ({
    href: hrefWith("/admin/products", {
      ...filters,
      sort: key,
      dir: query.sort === key && query.dir === "asc" ? "desc" : "asc",
    }),
    direction: query.sort === key ? (query.dir === "asc" ? ("ascending" as const) : ("descending" as const)) : null,
  });
  const columns = COLUMNS.map((c) => (SORTABLE[c.header] ? { ...c, sort: sortBy(SORTABLE[c.header]!) } : c));
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold text-ink">Products</h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/admin/products/new" className="btn-primary">
            New product
          </Link>
          <Link to="/admin/products/import" className="btn-outline">
            Import CSV
          </Link>
          <a href="/admin/products/export.csv" className="btn-outline" download>
            Export CSV
          </a>
        </div>
      </div>

      <FilterForm
        label="Find products"
        search={false}
        button="Apply filters"
        actionsClassName="lg:col-start-6"
        hidden={{ sort: query.sort, dir: query.dir }}
        className="mt-6 grid gap-3 rounded-lg border border-slate-200 p-4 sm:grid-cols-3 lg:grid-cols-6 lg:items-end"
      >
        <div className="sm:col-span-3 lg:col-span-2">
          <FilterField id="products-q" label="Search (words or SKU)">
            <input id="products-q" name="q" type="search" defaultValue={query.q} className="field mt-1" />
          </FilterField>
        </div>
        {[
          {
            id: "category",
            label: "Category",
            value: query.category,
            options: categories.map((c) => [c.slug, c.name]),
          },
          { id: "brand", label: "Brand", value: query.brand, options: brands.map((b) => [b.slug, b.name]) },
          {
            id: "stock",
            label: "Stock",
            value: query.stock,
            options: [
              ["in", "In stock"],
              ["low", "Low (at or below threshold)"],
              ["out", "Out of stock"],
            ],
          },
        ].map((f) => (
          <FilterField key={f.id} id={`products-${f.id}`} label={f.label}>
            <select id={`products-${f.id}`} name={f.id} defaultValue={f.value ?? ""} className="field mt-1">
              <option value="">Any</option>
              <Options options={f.options.map(([value, label]) => ({ value, label }))} />
            </select>
          </FilterField>
        ))}
        <FilterField id="products-archived" label="Archived">
          <select id="products-archived" name="archived" defaultValue={query.archived} className="field mt-1">
            <option value="live">Hide archived</option>
            <option value="all">Show archived too</option>
            <option value="archived">Only archived</option>
          </select>
        </FilterField>
      </FilterForm>

      <div className="mt-4 space-y-2">
        {done && DONE[done] ? (
          <FormMessage tone="success">{`${n} product${n === 1 ? "" : "s"} ${DONE[done]}.`}</FormMessage>
        ) : null}
        {actionData?.message ? <FormMessage tone="error">{actionData.message}</FormMessage> : null}
      </div>

      <Form
        method="post"
        id="bulk"
        className="mt-4 flex flex-wrap items-end gap-3"
        aria-label="Change the selected products"
      >
        <input type="hidden" name="back" value={here} />
        <FilterField id="bulk-action" label="With the selected products">
          <select id="bulk-action" name="bulk" className="field mt-1" defaultValue="archive">
            <option value="archive">Archive</option>
            <option value="unarchive">Put back on sale</option>
            <option value="category">Move to category…</option>
          </select>
        </FilterField>
        <FilterField id="bulk-category" label="Category (for moving)">
          <select id="bulk-category" name="category" className="field mt-1" defaultValue="">
            <option value="">—</option>
            <Options options={categories.map((c) => ({ value: c.slug, label: c.name }))} />
          </select>
        </FilterField>
        <button type="submit" className="btn-outline" disabled={navigation.state === "submitting"}>
          Apply to selected
        </button>
      </Form>

      <p className="mt-4 text-sm text-slate-700" role="status">
        {formatCount(total)} product{total === 1 ? "" : "s"}
        {(pager.pageCount ?? 1) > 1 ? ` · page ${pager.page} of ${pager.pageCount} (${ADMIN_PER_PAGE} per page)` : ""}
      </p>
      <AdminList
        caption={`Products, sorted by ${query.sort} (${query.dir === "asc" ? "ascending" : "descending"})`}
        rows={items}
        rowKey={(p) => p.id}
        rowClassName={(p) => (p.archivedAt ? "bg-slate-50 text-slate-700" : "")}
        select={{ form: "bulk", name: "id", value: (p) => p.id, label: (p) => `Select ${p.title}` }}
        columns={columns}
        empty="No products match."
        pager={{ label: "Pagination", pager, path: "/admin/products", query: filters }}
      />
    </div>
  );
}
