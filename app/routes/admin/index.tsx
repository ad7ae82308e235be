import { data, Link } from "react-router";
import type { Route } from "./+types/index";
import { RevenueChart } from "../../components/admin/dashboard/RevenueChart.tsx";
import { CURRENCIES, formatMoney, formatPerCurrency } from "../../lib/money.ts";
import { formatCount } from "../../lib/numbers.ts";
import { COUNT_CAP, loadDashboard } from "../../../server/admin/dashboard.ts";
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
  return { dashboard: await loadDashboard(getDb()), countCap: COUNT_CAP };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { dashboard: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

const capped = (n: number, cap: number) => (n > cap ? `${formatCount(cap)}+` : formatCount(n));

function Figure({
  label,
  value,
  detail,
  to,
  linkLabel,
}: {
  label: string;
  value: string;
  detail?: string;
  to?: string;
  linkLabel?: string;
}) {
  return (
    <div className="rounded border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-1 text-3xl font-bold text-ink">{value}</dd>
      {detail ? <dd className="mt-1 text-sm text-slate-700">{detail}</dd> : null}
      {to ? (
        <dd className="mt-2 text-sm">
          <Link to={to} className="font-medium text-ink underline">
            {linkLabel}
          </Link>
        </dd>
      ) : null}
    </div>
  );
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const d = loaderData.dashboard;
  const sales = [
    { label: "Orders today", value: d.today.orders, revenue: d.today.revenue, revenueLabel: "Revenue today" },
    {
      label: "Orders, last 7 days",
      value: d.last7Days.orders,
      revenue: d.last7Days.revenue,
      revenueLabel: "Revenue, last 7 days",
    },
    {
      label: "Orders, last 30 days",
      value: d.last30Days.orders,
      revenue: d.last30Days.revenue,
      revenueLabel: "Revenue, last 30 days",
    },
  ];
  return (
    <section aria-labelledby="dashboard-heading">
      <h1 id="dashboard-heading" className="text-3xl font-bold text-ink">
        Dashboard
      </h1>
      <p className="mt-2 text-sm text-slate-700">
        Placed orders only (not unconfirmed, unpaid, expired or cancelled), by UTC day. Revenue is summed per currency:
        pounds and dollars are never added together.
      </p>

      <h2 className="mt-6 text-xl font-semibold text-ink">Sales</h2>
      <dl className="mt-3 grid gap-4 sm:grid-cols-3">
        {sales.map((s) => (
          <Figure
            key={s.label}
            label={s.label}
            value={formatCount(s.value)}
            detail={`${s.revenueLabel}: ${formatPerCurrency(s.revenue)}`}
          />
        ))}
      </dl>

      {CURRENCIES.map((currency) => (
        <RevenueChart key={currency} days={d.daily} currency={currency} />
      ))}

      <h2 className="mt-8 text-xl font-semibold text-ink">Needs attention</h2>
      <dl className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Figure
          label="Orders waiting to ship"
          value={capped(d.waitingToShip, loaderData.countCap)}
          to="/admin/orders?status=placed"
          linkLabel="See orders to ship"
        />
        <Figure
          label="Products low on stock"
          value={formatCount(d.lowStock.count)}
          to="/admin/products?stock=low"
          linkLabel="See low-stock products"
        />
        <Figure
          label="Unanswered contact messages"
          value={formatCount(d.unansweredMessages)}
          to="/admin/messages?filter=unhandled"
          linkLabel="Open the inbox"
        />
        <Figure
          label="Mails stuck in the queue"
          value={formatCount(d.stuckMails)}
          to="/admin/mail"
          linkLabel="Open the mail queue"
        />
        <Figure
          label="Payments needing attention"
          value={formatCount(d.paymentsNeedingAttention)}
          to="/admin/orders?attention=payment"
          linkLabel="See flagged payments"
        />
        <Figure
          label="Quote requests waiting"
          value={formatCount(d.quoteRequests)}
          to="/admin/quotes"
          linkLabel="Price the quotes"
        />
        <Figure
          label="Overdue invoices"
          value={formatCount(d.overdueInvoices.count)}
          detail={`Owed: ${formatMoney(d.overdueInvoices.totalCents)}`}
        />
      </dl>

      {d.overdueInvoices.first.length > 0 ? (
        <section aria-labelledby="overdue-heading" className="mt-6">
          <h3 id="overdue-heading" className="text-lg font-semibold text-ink">
            Overdue invoices, oldest first
          </h3>
          <ul className="mt-2 divide-y divide-slate-200 rounded border border-slate-200 bg-white">
            {d.overdueInvoices.first.map((i) => (
              <li key={i.number} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-2">
                <Link to={`/admin/orders/${i.orderNumber}`} className="font-medium text-ink underline">
                  {i.number} · {i.companyName}
                </Link>
                <span className="text-sm text-slate-700">
                  {formatMoney(i.totalCents)} · due {i.dueAt.slice(0, 10)} · {i.daysOverdue} day
                  {i.daysOverdue === 1 ? "" : "s"} overdue
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {d.lowStock.first.length > 0 ? (
        <section aria-labelledby="low-stock-heading" className="mt-6">
          <h3 id="low-stock-heading" className="text-lg font-semibold text-ink">
            Lowest stock
          </h3>
          <ul className="mt-2 divide-y divide-slate-200 rounded border border-slate-200 bg-white">
            {d.lowStock.first.map((p) => (
              <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-2">
                <Link to={`/admin/products/${p.id}`} className="font-medium text-ink underline">
                  {p.title}
                </Link>
                <span className="text-sm text-slate-700">
                  SKU {p.sku} · {formatCount(p.stock)} in stock (threshold {formatCount(p.threshold)})
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}
