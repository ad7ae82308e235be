import type { ReactNode } from "react";
import { ListPager, type PagerProps } from "./ListPager.tsx";
import { ListTable, type ListTableProps } from "./ListTable.tsx";

export type { Column, ColumnSort } from "./ListTable.tsx";

/**
 * Every back-office list: its table, or the empty state when there is nothing to list, then its
 * pager. The filters (FilterLinks, FilterForm) and bulk actions stand above it on the page.
 */
export function AdminList<Row>({
  empty,
  announceEmpty,
  pager,
  ...table
}: ListTableProps<Row> & {
  /** What the page says instead of an empty table. */
  empty: ReactNode;
  /** The empty state is a status message (the answer to a search the staff member typed). */
  announceEmpty?: boolean;
  pager?: PagerProps;
}) {
  return (
    <>
      {table.rows.length === 0 ? (
        <p className="mt-6 text-slate-700" role={announceEmpty ? "status" : undefined}>
          {empty}
        </p>
      ) : (
        <ListTable {...table} />
      )}
      {pager ? <ListPager {...pager} /> : null}
    </>
  );
}
