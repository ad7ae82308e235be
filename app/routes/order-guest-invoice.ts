import { data } from "react-router";
import type { Route } from "./+types/order-guest-invoice";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { invoiceResponse } from "../../server/invoices/InvoiceDocument.tsx";
import { invoiceForAccessToken } from "../../server/invoices/invoices.ts";

/** GET /orders/:token/invoice.pdf — a guest's order's invoice, behind the order mail's link. */
export async function loader({ params }: Route.LoaderArgs) {
  try {
    const invoice = await invoiceForAccessToken(getDb(), params.token);
    if (!invoice) throw data("Order not found", { status: 404 });
    return await invoiceResponse(invoice);
  } catch (error) {
    if (isDomainError(error)) throw data(error.message, { status: error.status });
    throw error;
  }
}
