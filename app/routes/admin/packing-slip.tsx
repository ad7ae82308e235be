import { data, Link } from "react-router";
import type { Route } from "./+types/packing-slip";
import { ShipTo } from "../../components/admin/orders/OrderInfo.tsx";
import { LinesTable, type LineColumn } from "../../components/ui/LinesTable.tsx";
import { getDb } from "../../../server/db/connection.ts";
import { getPackingSlip } from "../../../server/orders/admin-queries.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { longDate } from "../../lib/dates.ts";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";

export function meta({ params }: Route.MetaArgs) {
  return [
    { title: `Packing slip ${params.number} | Back office | ToolHub Wholesale` },
    { name: "robots", content: "noindex" },
  ];
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { order: ["view"] });
  const slip = await getPackingSlip(getDb(), params.number);
  if (!slip) throw data("Order not found", { status: 404 });
  return { slip };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { order: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

type SlipLine = { sku: string | null; title: string; color: string; quantity: number };

const SLIP_COLUMNS: LineColumn<SlipLine>[] = [
  {
    header: "Packed",
    headerClassName: "w-16 py-2 pr-3",
    cellClassName: "py-3 pr-3",
    cell: () => (
      <>
        <span className="inline-block h-5 w-5 border-2 border-ink print:border-black" aria-hidden="true" />
        <span className="sr-only">Not ticked</span>
      </>
    ),
  },
  { header: "SKU", headerClassName: "py-2 pr-3", cellClassName: "py-3 pr-3 font-mono", cell: (l) => l.sku ?? "—" },
  { header: "Item", headerClassName: "py-2 pr-3", cellClassName: "py-3 pr-3", cell: (l) => l.title },
  { header: "Colour", headerClassName: "py-2 pr-3", cellClassName: "py-3 pr-3", cell: (l) => l.color || "—" },
  {
    header: "Quantity",
    headerClassName: "py-2 text-right",
    cellClassName: "py-3 text-right text-base font-bold",
    cell: (l) => l.quantity,
  },
];

/**
 * A printable packing slip: where the parcel goes and what goes in it, with a tick column and
 * no prices. The page's own controls hide when printing; it prints in black on white.
 */
export default function PackingSlip({ loaderData }: Route.ComponentProps) {
  const { slip } = loaderData;
  return (
    <article className="max-w-3xl text-ink print:max-w-none print:text-black" aria-labelledby="slip-heading">
      <div className="mb-4 flex flex-wrap items-center gap-4 print:hidden">
        <Link to={`/admin/orders/${slip.number}`} className="font-semibold text-brand-800 underline">
          ← Back to order {slip.number}
        </Link>
        <button type="button" className="btn-primary" onClick={() => window.print()}>
          Print packing slip
        </button>
      </div>
      <header className="flex flex-wrap items-start justify-between gap-4 border-b-2 border-ink pb-3 print:border-black">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide">ToolHub Wholesale</p>
          <h1 id="slip-heading" className="text-3xl font-bold">
            Packing slip
          </h1>
        </div>
        <dl className="text-right text-sm">
          <div>
            <dt className="inline font-semibold">Order </dt>
            <dd className="inline font-mono text-lg font-bold" data-testid="slip-number">
              {slip.number}
            </dd>
          </div>
          <div>
            <dt className="inline font-semibold">Date </dt>
            <dd className="inline">{longDate(slip.created_at)}</dd>
          </div>
          {slip.carrier ? (
            <div>
              <dt className="inline font-semibold">Carrier </dt>
              <dd className="inline">
                {slip.carrier} {slip.tracking_number}
              </dd>
            </div>
          ) : null}
        </dl>
      </header>
      <HeadedSection
        id="shipto-heading"
        title="Ship to"
        headingClassName="text-sm font-semibold uppercase tracking-wide"
        className="mt-4"
      >
        <div className="mt-1 text-lg leading-snug">
          <ShipTo order={slip} />
        </div>
      </HeadedSection>
      <LinesTable
        caption={`Items to pack for order ${slip.number}`}
        className="mt-6 border-collapse"
        headRowClassName="border-b-2 border-ink print:border-black"
        rowClassName="border-b border-slate-400 break-inside-avoid print:border-black"
        columns={SLIP_COLUMNS}
        lines={slip.lines}
        rowKey={(_, i) => i}
        footer={
          <tr>
            <th scope="row" colSpan={4} className="py-2 pr-3 text-right">
              Units in all
            </th>
            <td className="py-2 text-right text-base font-bold" data-testid="slip-units">
              {slip.units}
            </td>
          </tr>
        }
      />
      <p className="mt-8 text-sm">Packed by: ____________________ &nbsp; Checked by: ____________________</p>
    </article>
  );
}
