import type { StaffOrderDetail } from "../../../../server/orders/admin-queries.ts";
import { formatWhen } from "../../orders/OrderProgress.tsx";
import { statusName } from "./labels.ts";
import { HeadedSection } from "../../ui/HeadedSection.tsx";

type Events = StaffOrderDetail["events"];
type Returns = StaffOrderDetail["returns"];

const items = (lines: { title: string; color: string; quantity: number }[]) =>
  lines.map((l) => `${l.quantity} × ${l.title}${l.color ? ` (${l.color})` : ""}`).join(", ");

function who(actor: string | null, by: string | undefined): string {
  if (by) return by;
  if (!actor) return "the store";
  if (actor === "guest") return "the customer";
  if (actor.startsWith("user:")) return "the customer";
  if (actor.startsWith("system:")) return "the store (automatic)";
  return "staff";
}

/** Every change to the order, oldest first (newest last), with who made it. */
export function OrderHistory({ createdAt, events }: { createdAt: string; events: Events }) {
  return (
    <HeadedSection
      id="history-heading"
      title="History"
      headingClassName="text-xl font-semibold text-ink"
      className="mt-8"
    >
      <ol className="mt-3 space-y-3 border-l-2 border-slate-300 pl-4 text-sm" aria-label="Order history, oldest first">
        <li>
          <span className="font-semibold text-ink">Order placed</span>{" "}
          <span className="text-slate-700">· {formatWhen(createdAt)}</span>
        </li>
        {events.map((e, i) => (
          <li key={i}>
            <span className="font-semibold text-ink">
              {e.kind === "return"
                ? e.to === "returned"
                  ? "Return recorded — order fully returned"
                  : "Return recorded"
                : e.from && e.to
                  ? `${statusName(e.from)} → ${statusName(e.to)}`
                  : e.kind}
            </span>{" "}
            <span className="text-slate-700">
              · {formatWhen(e.at)} · by {who(e.actor, e.details.by)}
            </span>
            {e.details.carrier ? (
              <span className="block">{`${e.details.carrier}, tracking number ${e.details.trackingNumber ?? "—"}`}</span>
            ) : null}
            {e.kind === "return" && e.details.lines ? (
              <span className="block">
                {items(e.details.lines)}
                {e.details.restock ? " — back in stock" : " — not restocked"}
              </span>
            ) : null}
            {e.details.reason ? <span className="block">Reason: {e.details.reason}</span> : null}
            {e.details.note ? <span className="block text-slate-700">Note: {e.details.note}</span> : null}
          </li>
        ))}
      </ol>
    </HeadedSection>
  );
}

export function OrderReturns({ returns }: { returns: Returns }) {
  if (!returns.length) return null;
  return (
    <HeadedSection
      id="returns-heading"
      title="Returns"
      headingClassName="text-xl font-semibold text-ink"
      className="mt-8"
    >
      <ul className="mt-3 space-y-2 text-sm">
        {returns.map((r, i) => (
          <li key={i} className="rounded border border-slate-200 p-3">
            <span className="font-semibold text-ink">{formatWhen(r.created_at)}</span>: {items(r.lines)}. Reason:{" "}
            {r.reason}. {r.restocked ? "Back in stock." : "Not restocked."}
            {r.note ? <span className="block text-slate-700">Note: {r.note}</span> : null}
          </li>
        ))}
      </ul>
    </HeadedSection>
  );
}
