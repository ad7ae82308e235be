import type { Route } from "./+types/order-guest-invoice";
import { getDb } from "../../server/db/connection.ts";
import { invoiceResponse } from "../../server/invoices/InvoiceDocument.tsx";
import { invoiceForAccessToken } from "../../server/invoices/invoices.ts";

/** GET /orders/:token/invoice.pdf — a guest's order's invoice, behind the order mail's link. */
export async function loader({ params }: Route.LoaderArgs) {
  return invoiceResponse(() => invoiceForAccessToken(getDb(), params.token));
}
