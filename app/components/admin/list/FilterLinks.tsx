import { Link } from "react-router";

/** A row of filter links (the current one marked with aria-current), above a list. */
export function FilterLinks<F extends string>({
  label,
  filters,
  current,
  labels,
  hrefFor,
}: {
  label: string;
  filters: readonly F[];
  current: F;
  labels: Record<F, string>;
  hrefFor: (filter: F) => string;
}) {
  return (
    <nav aria-label={label} className="mt-4">
      <ul className="flex flex-wrap gap-2">
        {filters.map((f) => (
          <li key={f}>
            <Link
              to={hrefFor(f)}
              aria-current={f === current ? "page" : undefined}
              className={`block rounded border px-3 py-1.5 text-sm font-medium ${f === current ? "border-ink bg-ink text-white" : "border-slate-300 text-ink hover:bg-slate-100"}`}
            >
              {labels[f]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
