import { SearchCombobox } from "../search/SearchCombobox.tsx";

/**
 * The header's product search: a GET form to /shop (so it works without JavaScript) with
 * suggestions as you type. See SearchCombobox.
 */
export function SearchForm({
  id,
  defaultValue,
  className = "",
}: {
  id: string;
  defaultValue?: string;
  className?: string;
}) {
  return <SearchCombobox id={id} defaultValue={defaultValue} className={className} />;
}
