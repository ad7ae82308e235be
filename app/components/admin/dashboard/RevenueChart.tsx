import { CURRENCY_NAMES, formatMoney, type Currency } from "../../../lib/money.ts";

export interface ChartDay {
  day: string;
  /** Orders in each currency that day. */
  ordersIn: Record<Currency, number>;
  revenue: Record<Currency, number>;
}

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 8 };

const dayLabel = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
function formatDay(day: string): string {
  return dayLabel.format(new Date(`${day}T00:00:00Z`));
}

/**
 * Daily revenue in one currency as server-rendered SVG bars. The drawing is hidden from assistive
 * technology; the same numbers (orders in that currency's revenue) are in a visually hidden table
 * right after it.
 */
export function RevenueChart({ days, currency }: { days: ChartDay[]; currency: Currency }) {
  const amounts = days.map((d) => d.revenue[currency]);
  const highest = Math.max(0, ...amounts);
  const caption = `Daily revenue in ${CURRENCY_NAMES[currency]}, last 30 days`;
  const max = Math.max(1, highest);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(days.length, 1);
  const barW = Math.max(2, slot * 0.7);
  return (
    <figure className="mt-8 rounded border border-slate-200 bg-white p-4">
      <figcaption className="text-lg font-semibold text-ink" id={`revenue-chart-caption-${currency}`}>
        {caption}{" "}
        <span className="text-sm font-normal text-slate-700">(UTC days; highest {formatMoney(highest, currency)})</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="mt-3 h-auto w-full"
        aria-hidden="true"
        focusable="false"
        data-testid={`revenue-chart-${currency}`}
      >
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
          stroke="#94a3b8"
          strokeWidth="1"
        />
        {days.map((d, i) => {
          const amount = amounts[i];
          const h = amount === 0 ? 0 : Math.max(2, (amount / max) * plotH);
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day}>
              <rect
                x={x}
                y={HEIGHT - PAD.bottom - h}
                width={barW}
                height={h}
                fill={i === days.length - 1 ? "#b45309" : "#0f172a"}
                rx="1"
              >
                <title>{`${formatDay(d.day)}: ${formatMoney(amount, currency)}`}</title>
              </rect>
              {i % 5 === 0 || i === days.length - 1 ? (
                <text x={x + barW / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#334155">
                  {formatDay(d.day)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <div className="sr-only" data-testid={`revenue-table-${currency}`}>
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Orders</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={d.day}>
                <th scope="row">
                  <time dateTime={d.day}>{formatDay(d.day)}</time>
                </th>
                <td>{d.ordersIn[currency]}</td>
                <td>{formatMoney(amounts[i], currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
