import { formatMoney } from "../../lib/money.ts";
import { LinesTable, type LineColumn } from "../ui/LinesTable.tsx";
import { longDate } from "../../lib/dates.ts";
import { HeadedSection } from "../ui/HeadedSection.tsx";

export interface CompanyInvoiceRow {
  number: string;
  orderNumber: string;
  totalCents: number;
  dueAt: string;
  daysOverdue: number;
  /** The viewer's own order: its invoice PDF can be downloaded from here. */
  yours: boolean;
}

function invoiceColumns(orderHref?: (orderNumber: string) => string): LineColumn<CompanyInvoiceRow>[] {
  return [
    {
      header: "Invoice",
      className: "py-2 pr-4",
      cell: (i) =>
        i.yours ? (
          <a
            href={`/account/orders/${i.orderNumber}/invoice.pdf`}
            className="font-semibold text-brand-800 underline"
            download
          >
            {i.number}
          </a>
        ) : (
          i.number
        ),
    },
    {
      header: "Order",
      className: "py-2 pr-4",
      cell: (i) =>
        orderHref ? (
          <a href={orderHref(i.orderNumber)} className="font-semibold text-brand-800 underline">
            {i.orderNumber}
          </a>
        ) : (
          i.orderNumber
        ),
    },
    { header: "Amount", className: "py-2 pr-4 text-right", cell: (i) => formatMoney(i.totalCents) },
    { header: "Due", className: "py-2 pr-4", cell: (i) => longDate(i.dueAt) },
    {
      header: "Status",
      headerClassName: "py-2",
      cellClassName: (i) => `py-2 ${i.daysOverdue > 0 ? "font-semibold text-red-800" : ""}`,
      cell: (i) => (i.daysOverdue > 0 ? `Overdue by ${i.daysOverdue} day${i.daysOverdue === 1 ? "" : "s"}` : "Unpaid"),
    },
  ];
}

/**
 * A net-30 company's credit and its unpaid invoices, overdue ones marked: on the company's own
 * page (its member's own invoices downloadable) and, with `orderHref`, in the back office.
 */
export function CompanyInvoices({
  credit,
  invoices,
  orderHref,
}: {
  credit: { limitCents: number; owedCents: number; availableCents: number };
  invoices: CompanyInvoiceRow[];
  orderHref?: (orderNumber: string) => string;
}) {
  const overdue = invoices.filter((i) => i.daysOverdue > 0);
  return (
    <HeadedSection id="invoices-heading" title="Invoices and credit" headingClassName="text-lg font-bold text-ink">
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1">
        <dt className="font-semibold">Credit limit</dt>
        <dd>{formatMoney(credit.limitCents)}</dd>
        <dt className="font-semibold">Unpaid invoices</dt>
        <dd>{formatMoney(credit.owedCents)}</dd>
        <dt className="font-semibold">Credit available</dt>
        <dd>{formatMoney(credit.availableCents)}</dd>
      </dl>
      {overdue.length > 0 ? (
        <p role="alert" className="mt-3 rounded bg-red-50 p-3 text-sm font-semibold text-red-800">
          {overdue.length === 1 ? "1 invoice is overdue" : `${overdue.length} invoices are overdue`} (
          {formatMoney(overdue.reduce((n, i) => n + i.totalCents, 0))}).
          {orderHref ? "" : " Please pay by bank transfer, quoting the invoice number."}
        </p>
      ) : null}
      {invoices.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">No unpaid invoices.</p>
      ) : (
        <LinesTable
          caption="Unpaid invoices, the earliest due first"
          className="mt-3"
          headRowClassName="border-b border-slate-300"
          rowClassName="border-b border-slate-200"
          columns={invoiceColumns(orderHref)}
          lines={invoices}
          rowKey={(i) => i.number}
        />
      )}
    </HeadedSection>
  );
}
