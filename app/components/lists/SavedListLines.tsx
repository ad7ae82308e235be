import { Form, Link } from "react-router";
import { formatMoney } from "../../lib/money.ts";
import type { SavedListLineView } from "../../../server/trade/saved-lists.ts";

/** The list's lines with this buyer's prices; the owner changes quantities and removes lines here. */
export function SavedListLines({
  lines,
  editable,
  totalCents,
}: {
  lines: SavedListLineView[];
  editable: boolean;
  totalCents: number;
}) {
  if (!lines.length)
    return <p className="mt-2">This list is empty.{editable ? " Add a product by its SKU below." : ""}</p>;
  return (
    <table className="mt-2 w-full text-left text-sm">
      <caption className="sr-only">The products on this list, with your price</caption>
      <thead className="border-b border-slate-300 text-ink">
        <tr>
          <th scope="col" className="py-2 pr-2">
            Product
          </th>
          <th scope="col" className="py-2 pr-2">
            SKU
          </th>
          <th scope="col" className="py-2 pr-2">
            Quantity
          </th>
          <th scope="col" className="py-2 pr-2">
            Your price
          </th>
          <th scope="col" className="py-2 pr-2">
            Total
          </th>
          {editable ? (
            <th scope="col" className="py-2">
              <span className="sr-only">Remove</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => {
          const key = `${line.productId}-${line.color}`;
          const fieldId = `qty-${key.replace(/[^A-Za-z0-9-]/g, "_")}`;
          return (
            <tr key={key} className="border-b border-slate-100 align-top">
              <th scope="row" className="py-2 pr-2 font-normal">
                <Link to={`/shop/${line.productId}`} className="font-semibold text-brand-800 hover:underline">
                  {line.title}
                </Link>
                {line.color ? <span className="block text-xs">{line.color}</span> : null}
                {line.notice ? <span className="block text-xs font-semibold text-red-800">{line.notice}</span> : null}
              </th>
              <td className="py-2 pr-2 font-mono">{line.sku}</td>
              <td className="py-2 pr-2">
                {editable ? (
                  <Form method="post" className="flex items-end gap-2">
                    <input type="hidden" name="intent" value="set-quantity" />
                    <input type="hidden" name="productId" value={line.productId} />
                    <input type="hidden" name="color" value={line.color} />
                    <div>
                      <label htmlFor={fieldId} className="block text-xs font-semibold text-ink">
                        Quantity<span className="sr-only"> of {line.title}</span>
                      </label>
                      <input
                        id={fieldId}
                        name="quantity"
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={9999}
                        required
                        defaultValue={line.quantity}
                        className="field w-24"
                        data-testid="list-quantity"
                      />
                    </div>
                    <button
                      type="submit"
                      className="btn-outline px-3 py-1 text-sm"
                      aria-label={`Update quantity of ${line.title}`}
                    >
                      Update
                    </button>
                  </Form>
                ) : (
                  <span data-testid="list-quantity">{line.quantity}</span>
                )}
              </td>
              <td className="py-2 pr-2" data-testid="list-unit-price">
                {formatMoney(line.unitPriceCents)}
                {line.priceSource !== "list" ? (
                  <span className="block text-xs">
                    {line.priceSource === "volume" ? "Volume price" : "Your trade price"} (list{" "}
                    <s>{formatMoney(line.listPriceCents)}</s>)
                  </span>
                ) : null}
              </td>
              <td className="py-2 pr-2">{formatMoney(line.lineTotalCents)}</td>
              {editable ? (
                <td className="py-2">
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove-line" />
                    <input type="hidden" name="productId" value={line.productId} />
                    <input type="hidden" name="color" value={line.color} />
                    <button
                      type="submit"
                      className="text-sm font-semibold text-red-800 underline"
                      aria-label={`Remove ${line.title}`}
                    >
                      Remove
                    </button>
                  </Form>
                </td>
              ) : null}
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={4} className="py-2 pr-2 text-right text-ink">
            List total at today's prices
          </th>
          <td className="py-2 pr-2 font-semibold text-ink">{formatMoney(totalCents)}</td>
          {editable ? <td /> : null}
        </tr>
      </tfoot>
    </table>
  );
}
