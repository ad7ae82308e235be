import { Link } from "react-router";
import { SortHeader } from "../SortHeader.tsx";
import type { OrderListRow } from "../../../../server/orders/admin-queries.ts";
import { formatMoney } from "../../../lib/money.ts";
import type { SortKey } from "../../../lib/order-admin-constants.ts";
import { ADMIN_STATUS_LABELS, PAYMENT_STATUS_LABELS, paymentLabel } from "../../../lib/order-labels.ts";

export interface SortState {
  sort: SortKey;
  dir: "asc" | "desc";
}

/** "12 Mar 2025, 09:41" in UTC, the same on the server and in the browser. */
export function shortWhen(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })}, ${d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" })}`;
}

function OrderSortHeader({ label, column, current, href }: { label: string; column: SortKey; current: SortState; href: (s: SortState) => string }) {
  const active = current.sort === column;
  const nextDir = active && current.dir === "desc" ? "asc" : "desc";
  return (
    <SortHeader
      label={label}
      href={href({ sort: column, dir: nextDir })}
      direction={active ? (current.dir === "asc" ? "ascending" : "descending") : null}
      inactiveSort="none"
      className="sticky top-0 z-10 bg-slate-100 px-3 py-2"
      linkClassName="inline-flex items-center gap-1 font-semibold text-ink underline decoration-dotted underline-offset-4"
      marker={active ? (current.dir === "asc" ? "▲" : "▼") : "↕"}
      hint={`, sort ${nextDir === "asc" ? "ascending" : "descending"}`}
    />
  );
}

const plainHeader = "sticky top-0 z-10 bg-slate-100 px-3 py-2 font-semibold text-ink";

export function OrdersTable({ rows, sort, sortHref }: { rows: OrderListRow[]; sort: SortState; sortHref: (s: SortState) => string }) {
  return (
    <div className="mt-4 max-h-[75vh] overflow-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label="Orders table, scrollable">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Orders, {sort.sort === "total" ? "by total" : sort.dir === "asc" ? "oldest first" : "newest first"}</caption>
        <thead>
          <tr>
            <th scope="col" className={plainHeader}>
              Order
            </th>
            <OrderSortHeader label="Placed" column="date" current={sort} href={sortHref} />
            {["Customer", "Ship to", "Payment", "Status"].map((h) => (
              <th key={h} scope="col" className={plainHeader}>
                {h}
              </th>
            ))}
            <th scope="col" className={`${plainHeader} text-right`}>
              Items
            </th>
            <OrderSortHeader label="Total" column="total" current={sort} href={sortHref} />
          </tr>
        </thead>
        <tbody>
          {rows.map((o) => (
            <tr key={o.number} className="border-t border-slate-200 hover:bg-slate-50">
              <th scope="row" className="px-3 py-2 font-normal">
                <Link to={`/admin/orders/${o.number}`} className="font-mono font-semibold text-brand-800 underline">
                  {o.number}
                </Link>
              </th>
              <td className="whitespace-nowrap px-3 py-2">{shortWhen(o.created_at)}</td>
              <td className="px-3 py-2">
                <span className="block">{o.ship_name || "—"}</span>
                <span className="block text-slate-700">{o.email || "(account deleted)"}</span>
              </td>
              <td className="px-3 py-2">{o.ship_country === "GB" ? "UK" : o.ship_country}</td>
              <td className="px-3 py-2">
                <span className="block">{paymentLabel(o.payment_method)}</span>
                <span className="block text-slate-700">{PAYMENT_STATUS_LABELS[o.payment_status] ?? o.payment_status}</span>
              </td>
              <td className="px-3 py-2">{ADMIN_STATUS_LABELS[o.status] ?? o.status}</td>
              <td className="px-3 py-2 text-right">{o.items}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right">{formatMoney(o.total_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
