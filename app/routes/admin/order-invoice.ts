import { data } from "react-router";
import type { Route } from "./+types/order-invoice";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { invoiceResponse } from "../../../server/invoices/InvoiceDocument.tsx";
import { invoiceForStaff } from "../../../server/invoices/invoices.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

/** GET /admin/orders/:number/invoice.pdf — any order's invoice, for staff who may view orders. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { order: ["view"] });
  try {
    const invoice = await invoiceForStaff(getDb(), params.number);
    if (!invoice) throw data("Order not found", { status: 404 });
    return await invoiceResponse(invoice);
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status });
    throw error;
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { order: ["view"] });
  throw data("Method not allowed", { status: 405 });
}
