import { useState, type FormEvent } from "react";
import { Options } from "../ui/Options.tsx";
import { Form, Link, useLocation, useNavigate, useNavigation } from "react-router";
import { FilterGroup, FilterGroupNoScript } from "./FilterGroup.tsx";
import type { CardProduct } from "./ProductCard.tsx";
import { ProductGrid } from "./ProductGrid.tsx";
import { Pagination } from "./Pagination.tsx";
import { NoResults } from "../search/NoResults.tsx";
import { categoryTiles } from "../../content/home.ts";
import { formatCount } from "../../lib/numbers.ts";
import type { SearchResult } from "../../../server/catalog/search-types.ts";
import {
  hasFilters,
  parseShopQuery,
  priceRangeErrors,
  shopHref,
  SORT_OPTIONS,
  withoutFilters,
  type ShopQuery,
} from "../../lib/shop-query.ts";
import { formText } from "../../lib/form-text.ts";

/** What the shop's loader gives its page: the query and one page of results with only the cards' fields. */
export interface ShopData {
  query: ShopQuery;
  results: Omit<SearchResult, "items"> & { items: CardProduct[] };
}

/** The shop and its search results (app/routes/shop.tsx); a change of filters, sort or words is a navigation to that URL. */
export function ShopPage({ loaderData }: { loaderData: ShopData }) {
  const { query, results } = loaderData;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  // While a filter change is on its way, show the controls as the shopper just set them: first
  // from this page's own record of the change (immediate), then from the pending navigation.
  const [optimistic, setOptimistic] = useState<{ key: string; state: ShopQuery } | null>(null);
  const pending =
    navigation.location?.pathname === "/shop" ? parseShopQuery(new URLSearchParams(navigation.location.search)) : null;
  const view = (optimistic?.key === location.key ? optimistic.state : null) ?? pending ?? query;
  // Once the page has moved on, forget it, so that coming back (history) shows that URL's state.
  const [shownKey, setShownKey] = useState(location.key);
  if (shownKey !== location.key) {
    setShownKey(location.key);
    setOptimistic(null);
  }
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
    const errors = priceRangeErrors(formText(data, "min"), formText(data, "max"));
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
          <Link
            to={shopHref(query, { q: results.didYouMean, page: 1 })}
            className="font-semibold text-brand-800 underline"
          >
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
          {[
            { legend: "Categories", name: "category", options: results.facets.categories, selected: view.categories },
            { legend: "Brands", name: "brand", options: results.facets.brands, selected: view.brands },
          ].map((group) => (
            <FilterGroup key={group.name} {...group} onToggle={(input) => apply(input.form)} />
          ))}
          <fieldset className="border-b border-slate-200 pb-4">
            <legend className="mb-2 text-base font-semibold text-ink">Price</legend>
            <div className="flex gap-2">
              {(["min", "max"] as const).map((bound) => (
                <PriceInput
                  key={bound}
                  name={bound}
                  label={bound === "min" ? "Min" : "Max"}
                  value={query[bound]}
                  invalid={Boolean(priceErrors[bound] || priceErrors.range)}
                  describedBy={errors.length ? "price-errors" : undefined}
                />
              ))}
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
            <AvailabilityBox name="inStock" label="In stock only" checked={view.inStockOnly} onChange={apply} />
            <AvailabilityBox name="onSale" label="On sale only" checked={view.onSaleOnly} onChange={apply} />
          </fieldset>
          <noscript>
            <button type="submit" className="btn-outline w-full">
              Apply filters
            </button>
          </noscript>
          {filtered ? (
            <Link
              to={shopHref(withoutFilters(query))}
              className="block text-sm font-semibold text-brand-800 hover:underline"
            >
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
                <Options options={SORT_OPTIONS.filter((o) => o.value !== "relevance" || query.q)} />
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
            <ProductGrid products={results.items} eagerCount={5} />
          )}
          <Pagination page={results.page} pageCount={results.pageCount} hrefFor={(page) => shopHref(query, { page })} />
        </section>
      </div>
    </div>
  );
}

function AvailabilityBox({
  name,
  label,
  checked,
  onChange,
}: {
  name: "inStock" | "onSale";
  label: string;
  checked: boolean;
  onChange: (form: HTMLFormElement | null) => void;
}) {
  return (
    <label className="flex min-h-6 items-center gap-2 text-sm">
      <input
        type="checkbox"
        name={name}
        value="1"
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.form)}
        className="h-4 w-4 accent-brand-600"
      />
      {label}
    </label>
  );
}

function PriceInput({
  name,
  label,
  value,
  invalid,
  describedBy,
}: {
  name: "min" | "max";
  label: string;
  value: string;
  invalid: boolean;
  describedBy?: string;
}) {
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
