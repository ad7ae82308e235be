import { Link } from "react-router";
import type { Route } from "./+types/account-orders";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { seo } from "../lib/seo.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({ title: "Order Status", description: "Track your orders.", path: "/account/orders", matches, noindex: true });
}

export default function AccountOrders() {
  return (
    <>
      <PageHeader title="Order Status" intro="See the status of your orders." />
      <div className="mx-auto max-w-3xl px-4 py-10 text-slate-700">
        <p>
          <Link to="/login" className="font-semibold text-brand-800 hover:underline">
            Log in
          </Link>{" "}
          to see your orders. Guests can open their order from the link in the confirmation email.
        </p>
      </div>
    </>
  );
}
