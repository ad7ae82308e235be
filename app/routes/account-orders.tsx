import { Link } from "react-router";
import type { Route } from "./+types/account-orders";
import { PageHeader } from "../components/layout/PageHeader.tsx";
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
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Your orders</caption>
            <thead className="border-b border-slate-300 text-ink">
              <tr>
                <th scope="col" className="py-2">
                  Order
                </th>
                <th scope="col" className="py-2">
                  Date
                </th>
                <th scope="col" className="py-2">
                  Status
                </th>
                <th scope="col" className="py-2 text-right">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.number} className="border-b border-slate-200">
                  <td className="py-2">
                    <Link to={`/account/orders/${o.number}`} className="font-semibold text-brand-800 hover:underline">
                      {o.number}
                    </Link>
                  </td>
                  <td className="py-2">{new Date(o.created_at).toLocaleDateString("en-GB", { timeZone: "UTC" })}</td>
                  <td className="py-2">{customerStatusLabel(o)}</td>
                  <td className="py-2 text-right">{formatMoney(o.total_cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </>
  );
}
