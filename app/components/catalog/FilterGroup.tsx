import { useState } from "react";
import type { FacetOption } from "../../lib/catalog-types.ts";
import { FILTER_PREVIEW_COUNT } from "../../lib/site.ts";
import { formatCount } from "../../lib/numbers.ts";

export type FilterOption = FacetOption & { count?: number };

/**
 * A checkbox list that shows the first five options and toggles with +View More / -View Less.
 * Chosen options stay visible when the list is collapsed. Each option may show how many products it would give. With `onToggle` the boxes follow
 * `selected` (the URL) and report each change; without it they are a plain form field.
 * Without JavaScript, `FilterGroupNoScript` shows every option and hides the toggle (which is why
 * collapsed options use a class rather than the `hidden` attribute: Tailwind's base layer makes
 * `[hidden]` an !important display:none that an unlayered rule cannot undo).
 */
export function FilterGroup({
  legend,
  name,
  options,
  selected,
  onToggle,
}: {
  legend: string;
  name: string;
  options: FilterOption[];
  selected: string[];
  onToggle?: (input: HTMLInputElement) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const listId = `${name}-options`;
  return (
    <fieldset className="border-b border-slate-200 pb-4">
      <legend className="mb-2 text-base font-semibold text-ink">{legend}</legend>
      <ul id={listId} className="space-y-1">
        {options.map((option, i) => {
          const checked = selected.includes(option.slug);
          const hidden = !expanded && !checked && i >= FILTER_PREVIEW_COUNT;
          // The count is read out as the box's description, so its name stays the option's name.
          const countId = `${name}-${option.slug}-count`;
          const count = option.count === undefined ? undefined : formatCount(option.count);
          return (
            <li
              key={option.slug}
              className={`${hidden ? "hidden" : "flex"} min-h-6 items-center gap-2${i >= FILTER_PREVIEW_COUNT ? " filter-more" : ""}`}
            >
              <label className="flex flex-1 cursor-pointer items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name={name}
                  value={option.slug}
                  aria-describedby={count != null ? countId : undefined}
                  {...(onToggle
                    ? { checked, onChange: (e) => onToggle(e.currentTarget) }
                    : { defaultChecked: checked })}
                  className="h-4 w-4 accent-brand-600"
                />
                <span className={option.count === 0 && !checked ? "text-slate-600" : undefined}>{option.name}</span>
              </label>
              {count != null ? (
                <span id={countId} className="text-xs text-slate-600 tabular-nums">
                  <span aria-hidden="true">({count})</span>
                  <span className="sr-only">{`${count} product${option.count === 1 ? "" : "s"}`}</span>
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {options.length > FILTER_PREVIEW_COUNT ? (
        <button
          type="button"
          className="filter-toggle mt-2 text-sm font-semibold text-brand-800 hover:underline"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? "-View Less" : "+View More"}
        </button>
      ) : null}
    </fieldset>
  );
}

/** Without JavaScript the toggle cannot work, so every option is shown instead. */
export function FilterGroupNoScript() {
  return (
    <noscript>
      <style>{".filter-more{display:flex!important}.filter-toggle{display:none!important}"}</style>
    </noscript>
  );
}
