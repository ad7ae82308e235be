import { useEffect, useState, type FormEvent } from "react";
import { Form, Link, redirect, useLocation, useNavigate, useNavigation } from "react-router";
import type { Route } from "./+types/shop";
import { FilterGroup, FilterGroupNoScript } from "../components/catalog/FilterGroup.tsx";
import { cardFields } from "../components/catalog/card-html.ts";
import { ProductGrid } from "../components/catalog/ProductGrid.tsx";
import { Pagination } from "../components/catalog/Pagination.tsx";
import { NoResults } from "../components/search/NoResults.tsx";
import { categoryTiles } from "../content/home.ts";
import { seo } from "../lib/seo.ts";
import { hasFilters, parseShopQuery, priceRangeErrors, shopHref, SORT_OPTIONS, withoutFilters, type ShopQuery } from "../lib/shop-query.ts";
import { searchProducts } from "../../server/catalog/search.ts";
import { getDb } from "../../server/db/connection.ts";
import { getSessionInfo } from "../../server/auth/session.ts";
import { tradeGridPrices } from "../../server/trade/prices.ts";
import { formatCount } from "../lib/numbers.ts";

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = parseShopQuery(url.searchParams);
  // One URL per state: a GET form without JavaScript sends empty fields and defaults; tidy them
  // (and any hand-made URL) into the canonical form, which is what links and sharing use.
  const canonical = shopHref(query);
  if (url.search !== new URL(canonical, url).search) throw redirect(canonical);
  const results = await searchProducts(getDb(), {
    q: query.q,
    categories: query.categories,
    brands: query.brands,
    minCents: query.minCents,
    maxCents: query.maxCents,
    inStockOnly: query.inStockOnly,
    onSaleOnly: query.onSaleOnly,
    sort: query.sort,
    page: query.page,
  });
  // A trade buyer sees their own prices (never on a cached page: only a session gets them).
  const session = await getSessionInfo(request);
  const yourPrices = session ? await tradeGridPrices(getDb(), session.userId, results.items) : {};
  // The cards' fields only: the rest of each hit (its slug, brand and category) is not shown.
  return { query: { ...query, page: results.page }, results: { ...results, items: results.items.map(cardFields) }, yourPrices };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  const page = loaderData?.results.page ?? 1;
  const q = loaderData?.query.q ?? "";
  return seo({
    title: q ? `Search results for “${q}”` : page > 1 ? `Shop — page ${page}` : "Shop",
    description: "Browse wholesale-priced power tools, hand tools, safety gear, electrical, automotive, gardening and construction equipment.",
    path: page > 1 && !q ? `/shop?page=${page}` : "/shop",
    matches,
    noindex: Boolean(q),
  });
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { query, results } = loaderData;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  // While a filter change is on its way, show the controls as the shopper just set them: first
  // from this page's own record of the change (immediate), then from the pending navigation.
  const [optimistic, setOptimistic] = useState<{ key: string; state: ShopQuery } | null>(null);
  const pending = navigation.location?.pathname === "/shop" ? parseShopQuery(new URLSearchParams(navigation.location.search)) : null;
  const view = (optimistic?.key === location.key ? optimistic.state : null) ?? pending ?? query;
  // Once the page has moved on, forget it, so that coming back (history) shows that URL's state.
  useEffect(() => setOptimistic(null), [location.key]);
  const [priceErrors, setPriceErrors] = useState<{ min?: string; max?: string; range?: string }>({});

  // With JavaScript, go straight to the canonical URL of the form's state (a new history entry).
  const apply = (form: HTMLFormElement | null) => {
    if (!form) return;
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === "string") params.append(key, value);
    const next = parseShopQuery(params);
    setOptimistic({ key: location.key, state: next });
    void navigate(shopHref(next), { preventScrollReset: true });
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const errors = priceRangeErrors(String(data.get("min") ?? ""), String(data.get("max") ?? ""));
    setPriceErrors(errors);
    if (errors.min || errors.max || errors.range) {
      const field = form.elements.namedItem(errors.max && !errors.min ? "max" : "min");
      if (field instanceof HTMLInputElement) field.focus();
      return;
    }
    apply(form);
  };

  const first = (results.page - 1) * results.perPage + 1;
  const last = first + results.items.length - 1;
  const shownPriceErrors = [priceErrors.min, priceErrors.max, priceErrors.range].filter(Boolean) as string[];
  const errors = shownPriceErrors.length ? shownPriceErrors : query.priceErrors;
  const filtered = hasFilters(query);
  const countText =
    results.total === 0
      ? "No products found"
      : `Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(results.total)} product${results.total === 1 ? "" : "s"}`;

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <FilterGroupNoScript />
      <h1 className="text-3xl font-bold text-ink">{query.q ? `Results for “${query.q}”` : "Shop"}</h1>
      {results.didYouMean && results.total > 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          Did you mean{" "}
          <Link to={shopHref(query, { q: results.didYouMean, page: 1 })} className="font-semibold text-brand-800 underline">
            {results.didYouMean}
          </Link>
          ?
        </p>
      ) : null}
      <div className="mt-6 grid gap-8 lg:grid-cols-[16rem_1fr]">
        <Form
          method="get"
          action="/shop"
          id="shop-filters"
          aria-label="Filters"
          noValidate
          preventScrollReset
          onSubmit={onSubmit}
          className="space-y-4"
        >
          {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
          <FilterGroup
            legend="Categories"
            name="category"
            options={results.facets.categories}
            selected={view.categories}
            onToggle={(input) => apply(input.form)}
          />
          <FilterGroup legend="Brands" name="brand" options={results.facets.brands} selected={view.brands} onToggle={(input) => apply(input.form)} />
          <fieldset className="border-b border-slate-200 pb-4">
            <legend className="mb-2 text-base font-semibold text-ink">Price</legend>
            <div className="flex gap-2">
              <PriceInput name="min" label="Min" value={query.min} invalid={Boolean(priceErrors.min || priceErrors.range)} describedBy={errors.length ? "price-errors" : undefined} />
              <PriceInput name="max" label="Max" value={query.max} invalid={Boolean(priceErrors.max || priceErrors.range)} describedBy={errors.length ? "price-errors" : undefined} />
            </div>
            {errors.length ? (
              <ul id="price-errors" role="alert" className="mt-2 text-sm text-red-700">
                {errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
            <button type="submit" className="btn-primary mt-3 w-full">
              Apply
            </button>
          </fieldset>
          <fieldset className="space-y-1">
            <legend className="sr-only">Availability</legend>
            <label className="flex min-h-6 items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="inStock"
                value="1"
                checked={view.inStockOnly}
                onChange={(e) => apply(e.currentTarget.form)}
                className="h-4 w-4 accent-brand-600"
              />
              In stock only
            </label>
            <label className="flex min-h-6 items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="onSale"
                value="1"
                checked={view.onSaleOnly}
                onChange={(e) => apply(e.currentTarget.form)}
                className="h-4 w-4 accent-brand-600"
              />
              On sale only
            </label>
          </fieldset>
          <noscript>
            <button type="submit" className="btn-outline w-full">
              Apply filters
            </button>
          </noscript>
          {filtered ? (
            <Link to={shopHref(withoutFilters(query))} className="block text-sm font-semibold text-brand-800 hover:underline">
              Clear all filters
            </Link>
          ) : null}
        </Form>
        <section aria-labelledby="results-heading">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <h2 id="results-heading" className="text-sm text-slate-700" aria-live="polite">
              {countText}
            </h2>
            <label className="flex items-center gap-2 text-sm">
              Sort by
              <select
                name="sort"
                form="shop-filters"
                value={view.sort}
                className="field w-auto"
                onChange={(e) => apply(e.currentTarget.form)}
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
            <NoResults
              q={query.q}
              didYouMean={results.didYouMean}
              didYouMeanHref={results.didYouMean ? shopHref(query, { q: results.didYouMean, page: 1 }) : null}
              withoutFiltersHref={filtered ? shopHref(withoutFilters(query)) : null}
              categories={categoryTiles.map((t) => ({ name: t.name, href: `/shop?category=${t.categorySlug}` }))}
            />
          ) : (
            <ProductGrid products={results.items} eagerCount={5} yourPrices={loaderData.yourPrices} />
          )}
          <Pagination page={results.page} pageCount={results.pageCount} hrefFor={(page) => shopHref(query, { page })} />
        </section>
      </div>
    </div>
  );
}

function PriceInput({ name, label, value, invalid, describedBy }: { name: "min" | "max"; label: string; value: string; invalid: boolean; describedBy?: string }) {
  return (
    <label className="flex-1 text-sm">
      {label}
      <input
        type="number"
        name={name}
        min={0}
        step="0.01"
        inputMode="decimal"
        defaultValue={value}
        key={`${name}-${value}`}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className="field mt-1"
      />
    </label>
  );
}
