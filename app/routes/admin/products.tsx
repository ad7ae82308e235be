import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/products";
import { FormMessage } from "../../components/admin/fields.tsx";
import { SortHeader } from "../../components/admin/SortHeader.tsx";
import { Pagination } from "../../components/catalog/Pagination.tsx";
import { formatMoney } from "../../lib/money.ts";
import { ADMIN_PER_PAGE } from "../../lib/admin-products.ts";
import { listAdminProducts, listCatalogRefs, parseAdminProductQuery, setArchived, setCategory, type AdminSort } from "../../../server/catalog/admin-products.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { formatCount } from "../../lib/numbers.ts";

export function meta() {
  return [{ title: "Products | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { product: ["view"] });
  const url = new URL(request.url);
  const query = parseAdminProductQuery(url.searchParams);
  const db = getDb();
  const [result, refs] = await Promise.all([listAdminProducts(db, staff, query), listCatalogRefs(db)]);
  return { ...result, query, ...refs, done: url.searchParams.get("done"), n: Number(url.searchParams.get("n") ?? 0) };
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
  const bulk = String(form.get("bulk") ?? "");
  try {
    let n: number;
    if (bulk === "archive" || bulk === "unarchive") n = await setArchived(getDb(), staff, ids, bulk === "archive");
    else if (bulk === "category") n = await setCategory(getDb(), staff, ids, String(form.get("category") ?? ""));
    else return data({ message: "Choose what to do with the selected products." }, { status: 400 });
    throw redirect(backTo(form.get("back"), { done: bulk, n: String(n) }));
  } catch (error) {
    if (isDomainError(error)) return data({ message: error.message }, { status: error.status });
    throw error;
  }
}

const HEADER_CLASS = "px-2 py-2 font-semibold whitespace-nowrap";

const COLUMNS: { key: AdminSort | null; label: string }[] = [
  { key: "sku", label: "SKU" },
  { key: "title", label: "Title" },
  { key: null, label: "Brand" },
  { key: null, label: "Category" },
  { key: "price", label: "Price" },
  { key: "stock", label: "Stock" },
  { key: "updated", label: "Updated" },
];

const DONE: Record<string, string> = { archive: "archived", unarchive: "put back on sale", category: "moved to the new category" };

export default function ProductsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pageCount, query, categories, brands, done, n } = loaderData;
  const navigation = useNavigation();
  const params = (changes: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    const merged: Record<string, string | undefined> = { q: query.q || undefined, category: query.category, brand: query.brand, stock: query.stock, archived: query.archived === "live" ? undefined : query.archived, sort: query.sort, dir: query.dir, ...changes };
    for (const [k, v] of Object.entries(merged)) if (v) p.set(k, v);
    const s = p.toString();
    return s ? `?${s}` : "";
  };
  const here = params({ page: page > 1 ? String(page) : undefined });
  const sortLink = (key: AdminSort) => params({ sort: key, dir: query.sort === key && query.dir === "asc" ? "desc" : "asc", page: undefined });
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

      <Form method="get" className="mt-6 grid gap-3 rounded-lg border border-slate-200 p-4 sm:grid-cols-3 lg:grid-cols-6 lg:items-end" aria-label="Find products">
        <div className="sm:col-span-3 lg:col-span-2">
          <label htmlFor="products-q" className="block text-sm font-semibold text-ink">
            Search (words or SKU)
          </label>
          <input id="products-q" name="q" type="search" defaultValue={query.q} className="field mt-1" />
        </div>
        {[
          { id: "category", label: "Category", value: query.category, options: categories.map((c) => [c.slug, c.name]) },
          { id: "brand", label: "Brand", value: query.brand, options: brands.map((b) => [b.slug, b.name]) },
          { id: "stock", label: "Stock", value: query.stock, options: [["in", "In stock"], ["low", "Low (at or below threshold)"], ["out", "Out of stock"]] },
        ].map((f) => (
          <div key={f.id}>
            <label htmlFor={`products-${f.id}`} className="block text-sm font-semibold text-ink">
              {f.label}
            </label>
            <select id={`products-${f.id}`} name={f.id} defaultValue={f.value ?? ""} className="field mt-1">
              <option value="">Any</option>
              {f.options.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div>
          <label htmlFor="products-archived" className="block text-sm font-semibold text-ink">
            Archived
          </label>
          <select id="products-archived" name="archived" defaultValue={query.archived} className="field mt-1">
            <option value="live">Hide archived</option>
            <option value="all">Show archived too</option>
            <option value="archived">Only archived</option>
          </select>
        </div>
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <button type="submit" className="btn-primary lg:col-start-6">
          Apply filters
        </button>
      </Form>

      <div className="mt-4 space-y-2">
        {done && DONE[done] ? <FormMessage tone="success">{`${n} product${n === 1 ? "" : "s"} ${DONE[done]}.`}</FormMessage> : null}
        {actionData?.message ? <FormMessage tone="error">{actionData.message}</FormMessage> : null}
      </div>

      <Form method="post" id="bulk" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Change the selected products">
        <input type="hidden" name="back" value={here} />
        <div>
          <label htmlFor="bulk-action" className="block text-sm font-semibold text-ink">
            With the selected products
          </label>
          <select id="bulk-action" name="bulk" className="field mt-1" defaultValue="archive">
            <option value="archive">Archive</option>
            <option value="unarchive">Put back on sale</option>
            <option value="category">Move to category…</option>
          </select>
        </div>
        <div>
          <label htmlFor="bulk-category" className="block text-sm font-semibold text-ink">
            Category (for moving)
          </label>
          <select id="bulk-category" name="category" className="field mt-1" defaultValue="">
            <option value="">—</option>
            {categories.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-outline" disabled={navigation.state === "submitting"}>
          Apply to selected
        </button>
      </Form>

      <p className="mt-4 text-sm text-slate-700" role="status">
        {formatCount(total)} product{total === 1 ? "" : "s"}
        {pageCount > 1 ? ` · page ${page} of ${pageCount} (${ADMIN_PER_PAGE} per page)` : ""}
      </p>
      <div className="mt-2 max-h-[70vh] overflow-auto rounded-lg border border-slate-200">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Products, sorted by {query.sort} ({query.dir === "asc" ? "ascending" : "descending"})</caption>
          <thead className="sticky top-0 z-10 bg-slate-100">
            <tr>
              <th scope="col" className="px-2 py-2">
                <span className="sr-only">Select</span>
              </th>
              {COLUMNS.map((c) =>
                c.key ? (
                  <SortHeader
                    key={c.label}
                    label={c.label}
                    href={sortLink(c.key)}
                    direction={query.sort === c.key ? (query.dir === "asc" ? "ascending" : "descending") : null}
                    className={HEADER_CLASS}
                    linkClassName="underline decoration-dotted"
                    marker={query.sort === c.key ? (query.dir === "asc" ? " ▲" : " ▼") : null}
                  />
                ) : (
                  <th key={c.label} scope="col" className={HEADER_CLASS}>
                    {c.label}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {items.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length + 1} className="px-2 py-6 text-center text-slate-700">
                  No products match.
                </td>
              </tr>
            ) : null}
            {items.map((p) => {
              const low = p.stock > 0 && p.stock <= p.lowStockThreshold;
              return (
                <tr key={p.id} className={`border-t border-slate-200 ${p.archivedAt ? "bg-slate-50 text-slate-700" : ""}`}>
                  <td className="px-2 py-1">
                    <input type="checkbox" name="id" value={p.id} form="bulk" aria-label={`Select ${p.title}`} className="h-4 w-4" />
                  </td>
                  <td className="px-2 py-1 font-mono whitespace-nowrap">{p.sku}</td>
                  <td className="px-2 py-1">
                    <Link to={`/admin/products/${p.id}`} className="font-medium text-brand-800 underline">
                      {p.title}
                    </Link>
                    {p.archivedAt ? <span className="ml-2 rounded bg-slate-200 px-1.5 text-xs text-slate-800">Archived</span> : null}
                  </td>
                  <td className="px-2 py-1">{p.brandName}</td>
                  <td className="px-2 py-1">{p.categoryName}</td>
                  <td className="px-2 py-1 whitespace-nowrap tabular-nums">
                    {formatMoney(p.salePriceCents)}
                    {p.discountPercent ? <span className="ml-1 text-xs text-slate-700">(−{p.discountPercent}%)</span> : null}
                  </td>
                  <td className={`px-2 py-1 tabular-nums ${p.stock === 0 ? "font-semibold text-red-700" : low ? "font-semibold text-amber-800" : ""}`}>
                    {p.stock}
                    {p.stock === 0 ? " (out)" : low ? " (low)" : ""}
                  </td>
                  <td className="px-2 py-1 whitespace-nowrap">
                    <time dateTime={p.updatedAt}>{p.updatedAt.slice(0, 10)}</time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pagination page={page} pageCount={pageCount} hrefFor={(p) => params({ page: p > 1 ? String(p) : undefined })} />
    </div>
  );
}
