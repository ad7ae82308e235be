import { Form } from "react-router";
import type { ListCartLine } from "../../../server/trade/saved-list-cart.ts";

const STATUS_TEXT = { added: "Added", "partly-added": "Partly added", "not-added": "Not added" } as const;

/** After "Add all to cart": each line and what happened to it; a short line offers what there is. */
export function ListCartReport({ lines }: { lines: ListCartLine[] }) {
  const shown = lines.filter((l) => l.status !== "added" || l.reason !== "Added.");
  if (!shown.length) return null;
  return (
    <section aria-labelledby="list-cart-report-heading">
      <h2 id="list-cart-report-heading" className="text-lg font-bold text-ink">
        Lines not added in full
      </h2>
      <table className="mt-2 w-full text-left text-sm">
        <caption className="sr-only">Each line that did not go to your cart in full, and why</caption>
        <thead className="border-b border-slate-300 text-ink">
          <tr>
            <th scope="col" className="py-2 pr-2">
              Product
            </th>
            <th scope="col" className="py-2 pr-2">
              On the list
            </th>
            <th scope="col" className="py-2 pr-2">
              Added
            </th>
            <th scope="col" className="py-2">
              Why
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((line) => (
            <tr key={`${line.productId}-${line.color}`} className="border-b border-slate-100" data-status={line.status}>
              <th scope="row" className="py-2 pr-2 font-normal">
                {line.title} <span className="font-mono text-xs">{line.sku}</span>
              </th>
              <td className="py-2 pr-2">{line.quantity}</td>
              <td className="py-2 pr-2">{line.added}</td>
              <td className={`py-2 ${line.status === "added" ? "" : "font-semibold text-red-800"}`}>
                {STATUS_TEXT[line.status]}: {line.reason}
                {line.status === "not-added" && line.available ? (
                  <Form method="post" className="mt-1">
                    <input type="hidden" name="intent" value="add-available" />
                    <input type="hidden" name="productId" value={line.productId} />
                    <input type="hidden" name="color" value={line.color} />
                    <button
                      type="submit"
                      className="btn-outline px-3 py-1 text-sm font-normal text-ink"
                      aria-label={`Add the ${line.available} available of ${line.title}`}
                    >
                      Add the {line.available} available
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
