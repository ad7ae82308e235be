import { Link } from "react-router";

/**
 * What the shop shows when nothing matches: the query, a spelling suggestion from the catalog's
 * vocabulary, a way out of the filters, and popular categories to start from.
 */
export function NoResults({
  q,
  didYouMean,
  didYouMeanHref,
  withoutFiltersHref,
  categories,
}: {
  q: string;
  didYouMean: string | null;
  didYouMeanHref: string | null;
  withoutFiltersHref: string | null;
  categories: { name: string; href: string }[];
}) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8">
      <p className="text-lg font-semibold text-ink">
        {q ? `No products found for “${q}”` : "No products match these filters."}
      </p>
      {didYouMean && didYouMeanHref ? (
        <p className="mt-3 text-slate-800">
          Did you mean{" "}
          <Link to={didYouMeanHref} className="font-semibold text-brand-800 underline">
            {didYouMean}
          </Link>
          ?
        </p>
      ) : null}
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
        {q ? <li>Check the spelling, or try fewer or more general words (for example “drill” or “saw”).</li> : null}
        {withoutFiltersHref ? (
          <li>
            <Link to={withoutFiltersHref} className="font-semibold text-brand-800 underline">
              {q ? `Search all products for “${q}”` : "Clear all filters"}
            </Link>
          </li>
        ) : null}
      </ul>
      <h2 className="mt-6 text-base font-semibold text-ink">Popular categories</h2>
      <ul className="mt-2 flex flex-wrap gap-2">
        {categories.map((c) => (
          <li key={c.href}>
            <Link to={c.href} className="btn-outline">
              {c.name}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
