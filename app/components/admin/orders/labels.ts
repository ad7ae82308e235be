import { ADMIN_STATUS_LABELS } from "../../../lib/order-labels.ts";

export const statusName = (status: string) => ADMIN_STATUS_LABELS[status] ?? status.replace(/_/g, " ");

/** Colours for the status badge; each keeps at least 4.5:1 contrast. */
export const STATUS_BADGE: Record<string, string> = {
  placed: "bg-blue-100 text-blue-900",
  processing: "bg-blue-100 text-blue-900",
  packed: "bg-amber-100 text-amber-900",
  shipped: "bg-indigo-100 text-indigo-900",
  delivered: "bg-green-100 text-green-900",
  cancelled: "bg-red-100 text-red-900",
  returned: "bg-slate-200 text-slate-900",
};
