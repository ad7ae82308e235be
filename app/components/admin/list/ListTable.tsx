import type { ReactNode } from "react";
import type { SortDirection } from "../SortHeader.tsx";
import { SortHeader } from "../SortHeader.tsx";
import { SORT_LINK_CLASS, TABLE_CLASS, TD_CLASS, TH_CLASS } from "./classes.ts";

export interface ColumnSort {
  /** The list sorted by this column (or, when it sorts already, the other way). */
  href: string;
  /** The direction when the list is sorted by this column; null otherwise. */
  direction: SortDirection | null;
  /** Read after the label to screen readers, e.g. ", sort ascending". */
  hint?: string;
  /** aria-sort="none" on this column while another sorts the list. */
  markInactive?: boolean;
}

export interface Column<Row> {
  header: string;
  /** Shown to screen readers only (a column of buttons). */
  headerHidden?: boolean;
  cell: (row: Row) => ReactNode;
  /** A sort link in the header. */
  sort?: ColumnSort;
  /** The order the list always has, for a column it can't be sorted by. */
  fixedSort?: SortDirection;
  /** The cell names its row (a th scope="row"). */
  rowHeader?: boolean;
  className?: string;
}

interface RowSelection<Row> {
  /** The id of the form the checkboxes belong to. */
  form: string;
  name: string;
  value: (row: Row) => string | number;
  label: (row: Row) => string;
}

export interface ListTableProps<Row> {
  caption: ReactNode;
  /** A visible caption (a heading for the table) rather than one for screen readers only. */
  captionVisible?: boolean;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowClassName?: (row: Row) => string;
  /** A first column of checkboxes for the page's bulk actions. */
  select?: RowSelection<Row>;
  /** A scrollable region with this name around a long table. */
  scrollLabel?: string;
}

const MARKERS: Record<SortDirection, string> = { ascending: "▲", descending: "▼" };

function HeaderCell<Row>({ column }: { column: Column<Row> }) {
  const className = `${TH_CLASS} ${column.className ?? ""}`;
  if (column.sort) {
    const { href, direction, hint, markInactive } = column.sort;
    return (
      <SortHeader
        label={column.header}
        href={href}
        direction={direction}
        inactiveSort={markInactive ? "none" : undefined}
        className={className}
        linkClassName={SORT_LINK_CLASS}
        marker={direction ? MARKERS[direction] : "↕"}
        hint={hint}
      />
    );
  }
  return (
    <th scope="col" aria-sort={column.fixedSort} className={className}>
      {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
    </th>
  );
}

/** A back-office table: a caption, one header row (sort links where the list sorts), one row per item. */
export function ListTable<Row>({
  caption,
  captionVisible,
  columns,
  rows,
  rowKey,
  rowClassName,
  select,
  scrollLabel,
}: ListTableProps<Row>) {
  return (
    <div
      className={
        scrollLabel ? "mt-4 max-h-[75vh] overflow-auto rounded-lg border border-slate-200" : "mt-4 overflow-x-auto"
      }
      tabIndex={scrollLabel ? 0 : undefined}
      role={scrollLabel ? "region" : undefined}
      aria-label={scrollLabel}
    >
      <table className={TABLE_CLASS}>
        <caption className={captionVisible ? "py-2 text-left font-semibold text-ink" : "sr-only"}>{caption}</caption>
        <thead>
          <tr>
            {select ? (
              <th scope="col" className={TH_CLASS}>
                <span className="sr-only">Select</span>
              </th>
            ) : null}
            {columns.map((column) => (
              <HeaderCell key={column.header} column={column} />
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              {select ? (
                <td className={TD_CLASS}>
                  <input
                    type="checkbox"
                    name={select.name}
                    value={select.value(row)}
                    form={select.form}
                    aria-label={select.label(row)}
                    className="h-4 w-4"
                  />
                </td>
              ) : null}
              {columns.map((column) =>
                column.rowHeader ? (
                  <th key={column.header} scope="row" className={`${TD_CLASS} ${column.className ?? "font-normal"}`}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={`${TD_CLASS} ${column.className ?? ""}`}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
