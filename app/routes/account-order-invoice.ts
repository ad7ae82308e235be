import { redirect } from "react-router";
import type { Route } from "./+types/account-order-invoice";
import { getSessionInfo } from "../../server/auth/session.ts";
import { getDb } from "../../server/db/connection.ts";
import { invoiceResponse } from "../../server/invoices/InvoiceDocument.tsx";
import { invoiceForCustomer } from "../../server/invoices/invoices.ts";

/** GET /account/orders/:number/invoice.pdf — the signed-in customer's own order's invoice. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const session = await getSessionInfo(request);
  if (!session) throw redirect("/login");
  return invoiceResponse(() => invoiceForCustomer(getDb(), session.userId, params.number));
}
