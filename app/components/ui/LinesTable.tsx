import { Fragment, type Key, type ReactNode, type Ref } from "react";

/** One column of a lines table: its header and how a line fills its cell. */
export interface LineColumn<L> {
  header: ReactNode;
  /** Classes of both the header cell and the body cells, unless one of the two below is given. */
  className?: string;
  headerClassName?: string;
  cellClassName?: string | ((line: L) => string);
  testId?: string;
  /** The cell names its row (`<th scope="row">`) instead of being a plain cell. */
  rowHeader?: boolean;
  cell: (line: L, index: number) => ReactNode;
}

type RowAttributes = { [data: `data-${string}`]: string | undefined };

/** The cells of one line, for a row the page draws itself (one that keeps its own state). */
export function LineRow<L>({
  line,
  index,
  columns,
  className,
  attributes,
}: {
  line: L;
  index: number;
  columns: readonly LineColumn<L>[];
  className?: string;
  attributes?: RowAttributes;
}) {
  return (
    <tr className={className} {...attributes}>
      {columns.map((column, i) => {
        const cellClass = column.cellClassName ?? column.className;
        const props = {
          className: typeof cellClass === "function" ? cellClass(line) : cellClass,
          "data-testid": column.testId,
        };
        return column.rowHeader ? (
          <th key={i} scope="row" {...props}>
            {column.cell(line, index)}
          </th>
        ) : (
          <td key={i} {...props}>
            {column.cell(line, index)}
          </td>
        );
      })}
    </tr>
  );
}

/**
 * The one table of lines (a product, its quantity, prices and totals) used by the cart, orders,
 * the packing slip, quick order, quotes, saved lists and invoices. The caption is for screen readers.
 */
export function LinesTable<L>({
  caption,
  columns,
  lines,
  rowKey,
  className,
  headClassName,
  headRowClassName,
  rowClassName,
  rowAttributes,
  renderRow,
  empty,
  emptyClassName = "py-10 text-center text-slate-700",
  footer,
  bodyRef,
}: {
  caption: string;
  columns: readonly LineColumn<L>[];
  lines: readonly L[];
  rowKey: (line: L, index: number) => Key;
  /** Classes added to the table's own (full width, left-aligned small text), e.g. a margin. */
  className?: string;
  headClassName?: string;
  headRowClassName?: string;
  rowClassName?: string;
  rowAttributes?: (line: L) => RowAttributes;
  /** Draws a line's row instead of the plain one, e.g. a row with its own form state around `LineRow`. */
  renderRow?: (line: L, index: number) => ReactNode;
  /** Shown in a full-width row when there are no lines. */
  empty?: ReactNode;
  emptyClassName?: string;
  /** The rows of the table's foot (totals). */
  footer?: ReactNode;
  bodyRef?: Ref<HTMLTableSectionElement>;
}) {
  return (
    <table className={className ? `w-full text-left text-sm ${className}` : "w-full text-left text-sm"}>
      <caption className="sr-only">{caption}</caption>
      <thead className={headClassName}>
        <tr className={headRowClassName}>
          {columns.map((column, i) => (
            <th key={i} scope="col" className={column.headerClassName ?? column.className}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody ref={bodyRef}>
        {lines.length === 0 && empty != null ? (
          <tr>
            <td colSpan={columns.length} className={emptyClassName}>
              {empty}
            </td>
          </tr>
        ) : (
          lines.map((line, i) =>
            renderRow ? (
              <Fragment key={rowKey(line, i)}>{renderRow(line, i)}</Fragment>
            ) : (
              <LineRow
                key={rowKey(line, i)}
                line={line}
                index={i}
                columns={columns}
                className={rowClassName}
                attributes={rowAttributes?.(line)}
              />
            ),
          )
        )}
      </tbody>
      {footer ? <tfoot>{footer}</tfoot> : null}
    </table>
  );
}

interface LinesSectionProps<L> {
  headingId: string;
  title: string;
  className?: string;
  caption: string;
  columns: readonly LineColumn<L>[];
  lines: readonly L[];
  rowKey: (line: L) => Key;
  rowAttributes?: (line: L) => RowAttributes;
  children?: ReactNode;
}

/** A section headed by `title` over a table of lines, then anything else the section holds. */
export function LinesSection<L>({
  headingId,
  title,
  className,
  caption,
  columns,
  lines,
  rowKey,
  rowAttributes,
  children,
}: LinesSectionProps<L>) {
  return (
    <section aria-labelledby={headingId} className={className}>
      <h2 id={headingId} className="text-lg font-bold text-ink">
        {title}
      </h2>
      <LinesTable
        caption={caption}
        className="mt-2"
        headClassName="border-b border-slate-300 text-ink"
        rowClassName="border-b border-slate-100"
        rowAttributes={rowAttributes}
        columns={columns}
        lines={lines}
        rowKey={rowKey}
      />
      {children}
    </section>
  );
}

/** A `LinesSection` reporting what happened to each line: every row carries the line's status (`data-status`). */
export function StatusLinesReport<L extends { status: string }>(props: Omit<LinesSectionProps<L>, "rowAttributes">) {
  return <LinesSection {...props} rowAttributes={(line) => ({ "data-status": line.status })} />;
}
