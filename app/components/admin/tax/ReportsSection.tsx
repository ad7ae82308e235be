import { HeadedSection } from "../../ui/HeadedSection.tsx";
import { sameOptions, Select } from "../fields.tsx";

/**
 * Two GET forms that download the tax reports as CSV (server/tax/reports.ts): the UK VAT summary
 * of a quarter and the US sales tax of a month by state. Plain links to files: no JavaScript needed.
 */
export function ReportsSection({ quarters, months }: { quarters: string[]; months: string[] }) {
  return (
    <HeadedSection
      id="reports-heading"
      title="Reports"
      headingClassName="text-xl font-semibold text-ink"
      className="space-y-4"
    >
      <p className="text-sm text-slate-700">
        From the tax lines kept with each order when it was placed, so they match the orders to the cent. An order
        counts in the period it was placed, once it became a sale (not while held or awaiting approval, and not when
        expired or cancelled).
      </p>
      <form method="get" action="/admin/tax/reports/uk-vat" className="flex flex-wrap items-end gap-4">
        <Select id="report-quarter" name="quarter" label="Quarter" options={sameOptions(quarters)} />
        <button type="submit" className="btn-outline">
          Download UK VAT summary
        </button>
      </form>
      <form method="get" action="/admin/tax/reports/us-sales-tax" className="flex flex-wrap items-end gap-4">
        <Select id="report-month" name="month" label="Month" options={sameOptions(months)} />
        <button type="submit" className="btn-outline">
          Download US sales tax report
        </button>
      </form>
    </HeadedSection>
  );
}
