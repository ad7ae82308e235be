import { useState } from "react";
import type { FacetOption } from "../../lib/catalog-types.ts";
import { FILTER_PREVIEW_COUNT } from "../../lib/site.ts";

/** A checkbox list that shows the first five options and toggles with +View More / -View Less. */
export function FilterGroup({ legend, name, options, selected }: { legend: string; name: string; options: FacetOption[]; selected: string[] }) {
  const selectedHidden = options.slice(FILTER_PREVIEW_COUNT).some((o) => selected.includes(o.slug));
  const [expanded, setExpanded] = useState(selectedHidden);
  const listId = `${name}-options`;
  return (
    <fieldset className="border-b border-slate-200 pb-4">
      <legend className="mb-2 text-base font-semibold text-ink">{legend}</legend>
      <ul id={listId} className="space-y-1.5">
        {options.map((option, i) => (
          <li key={option.slug} hidden={!expanded && i >= FILTER_PREVIEW_COUNT}>
            <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name={name} value={option.slug} defaultChecked={selected.includes(option.slug)} className="h-4 w-4 accent-brand-600" />
              {option.name}
            </label>
          </li>
        ))}
      </ul>
      {options.length > FILTER_PREVIEW_COUNT ? (
        <button type="button" className="mt-2 text-sm font-semibold text-brand-800 hover:underline" aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded((e) => !e)}>
          {expanded ? "-View Less" : "+View More"}
        </button>
      ) : null}
    </fieldset>
  );
}
