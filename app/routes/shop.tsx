import { Form, Link, useSubmit } from "react-router";
import type { Route } from "./+types/shop";
import { FilterGroup } from "../components/catalog/FilterGroup.tsx";
import { Pagination } from "../components/catalog/Pagination.tsx";
import { ProductGrid } from "../components/catalog/ProductCard.tsx";
import { seo } from "../lib/seo.ts";
import { parseShopQuery, shopHref, SORT_OPTIONS } from "../lib/shop-query.ts";
import { listFacets, listProducts } from "../../server/catalog/catalog.ts";
import { getDb } from "../../server/db/connection.ts";

export async function loader({ request }: Route.LoaderArgs) {
  const query = parseShopQuery(new URL(request.url).searchParams);
  const db = getDb();
  const [facets, results] = await Promise.all([
    listFacets(db),
    listProducts(db, {
      categories: query.categories,
      brands: query.brands,
      minCents: query.minCents,
      maxCents: query.maxCents,
      inStockOnly: query.inStockOnly,
      onSaleOnly: query.onSaleOnly,
      sort: query.sort,
      page: query.page,
    }),
  ]);
  return { query: { ...query, page: results.page }, facets, results };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const page = loaderData?.results.page ?? 1;
  return seo({
    title: page > 1 ? `Shop — page ${page}` : "Shop",
    description: "Browse wholesale-priced power tools, hand tools, safety gear, electrical, automotive, gardening and construction equipment.",
    path: page > 1 ? `/shop?page=${page}` : "/shop",
    matches,
  });
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { query, facets, results } = loaderData;
  const submit = useSubmit();
  const first = (results.page - 1) * 15 + 1;
  const last = first + results.items.length - 1;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold text-ink">{query.q ? `Results for “${query.q}”` : "Shop"}</h1>
      <div className="mt-6 grid gap-8 lg:grid-cols-[16rem_1fr]">
        <Form method="get" action="/shop" id="shop-filters" aria-label="Filters" className="space-y-4">
          {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
          <FilterGroup legend="Categories" name="category" options={facets.categories} selected={query.categories} />
          <FilterGroup legend="Brands" name="brand" options={facets.brands} selected={query.brands} />
          <fieldset className="border-b border-slate-200 pb-4">
            <legend className="mb-2 text-base font-semibold text-ink">Price</legend>
            <div className="flex gap-2">
              <label className="flex-1 text-sm">
                Min
                <input type="number" name="min" min={0} step="0.01" inputMode="decimal" defaultValue={query.min} className="field mt-1" />
              </label>
              <label className="flex-1 text-sm">
                Max
                <input type="number" name="max" min={0} step="0.01" inputMode="decimal" defaultValue={query.max} className="field mt-1" />
              </label>
            </div>
            {query.priceErrors.length ? (
              <ul role="alert" className="mt-2 text-sm text-red-700">
                {query.priceErrors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
          </fieldset>
          <fieldset className="space-y-1.5">
            <legend className="sr-only">Availability</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="inStock" value="1" defaultChecked={query.inStockOnly} className="h-4 w-4 accent-brand-600" />
              In stock only
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="onSale" value="1" defaultChecked={query.onSaleOnly} className="h-4 w-4 accent-brand-600" />
              On sale only
            </label>
          </fieldset>
          <button type="submit" className="btn-primary w-full">
            Apply
          </button>
        </Form>
        <section aria-labelledby="results-heading">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2 id="results-heading" className="text-sm text-slate-700" aria-live="polite">
              {results.total === 0 ? "No products found" : `Showing ${first}–${last} of ${results.total.toLocaleString("en-US")} products`}
            </h2>
            <label className="flex items-center gap-2 text-sm">
              Sort by
              <select
                name="sort"
                form="shop-filters"
                defaultValue={query.sort}
                key={query.sort}
                className="field w-auto"
                onChange={(e) => submit(e.currentTarget.form)}
              >
                {SORT_OPTIONS.filter((o) => o.value !== "relevance" || query.q).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {results.total === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
              <p className="font-semibold">No products match these filters.</p>
              <Link to="/shop" className="btn-outline mt-4">
                Clear all filters
              </Link>
            </div>
          ) : (
            <ProductGrid products={results.items} eagerCount={5} />
          )}
          <Pagination page={results.page} pageCount={results.pageCount} hrefFor={(page) => shopHref(query, { page })} />
        </section>
      </div>
    </div>
  );
}
