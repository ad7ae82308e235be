import type { ReactNode } from "react";
import { Link } from "react-router";

export type SortDirection = "ascending" | "descending";

/**
 * A column header that sorts the list: a link to the sorted URL, aria-sort on the active column.
 * `marker` is the arrow (hidden from screen readers); `hint` is read after the label instead.
 */
export function SortHeader({
  label,
  href,
  direction,
  className,
  linkClassName,
  marker,
  hint,
  inactiveSort,
}: {
  label: string;
  href: string;
  /** The active column's direction; null when the list is sorted by another column. */
  direction: SortDirection | null;
  className: string;
  linkClassName: string;
  marker?: ReactNode;
  hint?: string;
  /** aria-sort on the columns that aren't sorting (left off by default). */
  inactiveSort?: "none";
}) {
  return (
    <th scope="col" aria-sort={direction ?? inactiveSort} className={className}>
      <Link to={href} className={linkClassName}>
        {label}
        {marker ? <span aria-hidden="true">{marker}</span> : null}
        {hint ? <span className="sr-only">{hint}</span> : null}
      </Link>
    </th>
  );
}
