import { data } from "react-router";
import type { Route } from "./+types/tax-report";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { csvDownload } from "../../../server/http/csv-download.ts";
import { reportPeriod, ukVatCsv, ukVatRows, usSalesTaxCsv, usSalesTaxRows } from "../../../server/tax/reports.ts";

/** A tax report as CSV: `uk-vat?quarter=2026-Q4` or `us-sales-tax?month=2026-12`; anything else is a 404 or a 400 that says why. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { tax: ["view"] });
  const url = new URL(request.url);
  const db = getDb();
  let csv: string;
  let name: string;
  try {
    if (params.report === "uk-vat") {
      const period = reportPeriod("quarter", url.searchParams.get("quarter"));
      csv = ukVatCsv(await ukVatRows(db, staff, period));
      name = `uk-vat-${period.label}.csv`;
    } else if (params.report === "us-sales-tax") {
      const period = reportPeriod("month", url.searchParams.get("month"));
      csv = usSalesTaxCsv(await usSalesTaxRows(db, staff, period));
      name = `us-sales-tax-${period.label}.csv`;
    } else throw data("There is no such report.", { status: 404 });
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status });
    throw error;
  }
  return csvDownload(csv, name);
}

/** Nothing to post; the guard answers first, so guests and customers learn nothing. */
export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { tax: ["view"] });
  return new Response("Method not allowed", { status: 405, headers: { Allow: "GET" } });
}
