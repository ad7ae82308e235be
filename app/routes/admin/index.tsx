import { data } from "react-router";
import type { Route } from "./+types/index";
import { dashboardCounts } from "../../../server/admin/dashboard.ts";
import { getDb } from "../../../server/db/connection.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Dashboard | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export function headers() {
  return { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { dashboard: ["view"] });
  return { counts: await dashboardCounts(getDb()) };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { dashboard: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

const number = new Intl.NumberFormat("en-US");

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { counts } = loaderData;
  const figures = [
    { label: "Orders today", value: counts.ordersToday },
    { label: "Orders waiting to ship", value: counts.waitingToShip },
    { label: "Unanswered contact messages", value: counts.unansweredMessages },
  ];
  return (
    <section aria-labelledby="dashboard-heading">
      <h1 id="dashboard-heading" className="text-3xl font-bold text-ink">
        Dashboard
      </h1>
      <dl className="mt-6 grid gap-4 sm:grid-cols-3">
        {figures.map((f) => (
          <div key={f.label} className="rounded border border-slate-200 bg-white p-4">
            <dt className="text-sm text-slate-700">{f.label}</dt>
            <dd className="mt-1 text-3xl font-bold text-ink">{number.format(f.value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
