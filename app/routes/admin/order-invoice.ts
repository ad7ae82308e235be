import { data } from "react-router";
import type { Route } from "./+types/order-invoice";
import { getDb } from "../../../server/db/connection.ts";
import { invoiceResponse } from "../../../server/invoices/InvoiceDocument.tsx";
import { invoiceForStaff } from "../../../server/invoices/invoices.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

/** GET /admin/orders/:number/invoice.pdf — any order's invoice, for staff who may view orders. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { order: ["view"] });
  return invoiceResponse(() => invoiceForStaff(getDb(), params.number));
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { order: ["view"] });
  throw data("Method not allowed", { status: 405 });
}
