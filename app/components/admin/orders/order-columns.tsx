import { Link } from "react-router";
import type { Column, ColumnSort } from "../list/ListTable.tsx";
import type { OrderListRow } from "../../../../server/orders/admin-queries.ts";
import { formatMoney } from "../../../lib/money.ts";
import type { SortKey } from "../../../lib/order-admin-constants.ts";
import { ADMIN_STATUS_LABELS, PAYMENT_STATUS_LABELS, paymentLabel } from "../../../lib/order-labels.ts";

export interface SortState {
  sort: SortKey;
  dir: "asc" | "desc";
}

/** "12 Mar 2025, 09:41" in UTC, the same on the server and in the browser. */
function shortWhen(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })}, ${d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" })}`;
}

/** Sorts by `column`, newest or largest first; pressed again, the other way. */
function sortBy(column: SortKey, current: SortState, href: (s: SortState) => string): ColumnSort {
  const active = current.sort === column;
  const nextDir = active && current.dir === "desc" ? "asc" : "desc";
  return {
    href: href({ sort: column, dir: nextDir }),
    direction: active ? (current.dir === "asc" ? "ascending" : "descending") : null,
    hint: `, sort ${nextDir === "asc" ? "ascending" : "descending"}`,
    markInactive: true,
  };
}

export function orderListCaption(sort: SortState): string {
  return `Orders, ${sort.sort === "total" ? "by total" : sort.dir === "asc" ? "oldest first" : "newest first"}`;
}

/** The order list's columns; Placed and Total sort it. */
export function orderColumns(sort: SortState, sortHref: (s: SortState) => string): Column<OrderListRow>[] {
  return [
    {
      header: "Order",
      rowHeader: true,
      cell: (o) => (
        <Link to={`/admin/orders/${o.number}`} className="font-mono font-semibold text-brand-800 underline">
          {o.number}
        </Link>
      ),
    },
    {
      header: "Placed",
      sort: sortBy("date", sort, sortHref),
      className: "whitespace-nowrap",
      cell: (o) => shortWhen(o.created_at),
    },
    {
      header: "Customer",
      cell: (o) => (
        <>
          <span className="block">{o.ship_name || "—"}</span>
          <span className="block text-slate-700">{o.email || "(account deleted)"}</span>
        </>
      ),
    },
    { header: "Ship to", cell: (o) => (o.ship_country === "GB" ? "UK" : o.ship_country) },
    {
      header: "Payment",
      cell: (o) => (
        <>
          <span className="block">{paymentLabel(o.payment_method)}</span>
          <span className="block text-slate-700">{PAYMENT_STATUS_LABELS[o.payment_status] ?? o.payment_status}</span>
        </>
      ),
    },
    { header: "Status", cell: (o) => ADMIN_STATUS_LABELS[o.status] ?? o.status },
    { header: "Items", className: "text-right", cell: (o) => o.items },
    {
      header: "Total",
      sort: sortBy("total", sort, sortHref),
      className: "whitespace-nowrap text-right",
      cell: (o) => formatMoney(o.total_cents, o.currency),
    },
  ];
}
