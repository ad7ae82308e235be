import { Link } from "react-router";
import type { Route } from "./+types/account-orders";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { LinesTable, type LineColumn } from "../components/ui/LinesTable.tsx";
import { customerStatusLabel } from "../lib/order-labels.ts";
import { formatMoney } from "../lib/money.ts";
import { seo } from "../lib/seo.ts";
import { getSessionInfo } from "../../server/auth/session.ts";
import { getDb } from "../../server/db/connection.ts";
import { listOrdersForUser } from "../../server/orders/queries.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Order Status",
    description: "Track your orders.",
    path: "/account/orders",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await getSessionInfo(request);
  return { signedIn: Boolean(session), orders: session ? await listOrdersForUser(getDb(), session.userId) : [] };
}

type OrderRow = Awaited<ReturnType<typeof listOrdersForUser>>[number];

const ORDER_LIST_COLUMNS: LineColumn<OrderRow>[] = [
  {
    header: "Order",
    className: "py-2",
    cell: (o) => (
      <Link to={`/account/orders/${o.number}`} className="font-semibold text-brand-800 hover:underline">
        {o.number}
      </Link>
    ),
  },
  {
    header: "Date",
    className: "py-2",
    cell: (o) => new Date(o.created_at).toLocaleDateString("en-GB", { timeZone: "UTC" }),
  },
  { header: "Status", className: "py-2", cell: (o) => customerStatusLabel(o) },
  { header: "Total", className: "py-2 text-right", cell: (o) => formatMoney(o.total_cents, o.currency) },
];

export default function AccountOrders({ loaderData }: Route.ComponentProps) {
  const { signedIn, orders } = loaderData;
  return (
    <>
      <PageHeader title="Order Status" intro="See the status of your orders." />
      <div className="mx-auto max-w-4xl px-4 py-10 text-slate-700">
        {!signedIn ? (
          <p>
            <Link to="/login" className="font-semibold text-brand-800 hover:underline">
              Log in
            </Link>{" "}
            to see your orders. Guests can open their order from the link in the confirmation email.
          </p>
        ) : orders.length === 0 ? (
          <p>
            You haven't placed any orders yet.{" "}
            <Link to="/shop" className="font-semibold text-brand-800 hover:underline">
              Start shopping
            </Link>
          </p>
        ) : (
          <LinesTable
            caption="Your orders"
            headClassName="border-b border-slate-300 text-ink"
            rowClassName="border-b border-slate-200"
            columns={ORDER_LIST_COLUMNS}
            lines={orders}
            rowKey={(o) => o.number}
          />
        )}
      </div>
    </>
  );
}
