import { Form } from "react-router";
import { SearchIcon } from "../ui/icons.tsx";

/** The header's product search. A plain GET form to /shop, so it works without JavaScript. */
export function SearchForm({ id, defaultValue, className = "" }: { id: string; defaultValue?: string; className?: string }) {
  return (
    <Form method="get" action="/shop" role="search" className={`relative flex items-center ${className}`}>
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <input
        id={id}
        type="search"
        name="q"
        defaultValue={defaultValue}
        maxLength={200}
        placeholder="Search for tools…"
        autoComplete="off"
        className="field pr-10"
      />
      <button type="submit" className="absolute right-1 rounded p-1.5 text-slate-700 hover:text-ink" aria-label="Search">
        <SearchIcon width={18} height={18} />
      </button>
    </Form>
  );
}
