import type { QuickOrderCheck, QuickOrderLine } from "../../lib/quick-order-types.ts";

function resultText(line: QuickOrderLine): string {
  if (line.status === "ok") return line.reason ?? "Ready";
  return line.reason ?? "";
}

/**
 * Every checked line with its line number and what happens to it. A line above the stock offers
 * the available amount with a checkbox (ticked: it goes to the cart with that amount).
 */
export function QuickOrderResults({ check, showReady }: { check: QuickOrderCheck; showReady: boolean }) {
  const lines = showReady ? check.lines : check.lines.filter((l) => l.status !== "ok" || l.reason);
  if (!lines.length) return null;
  return (
    <section aria-labelledby="qo-results-heading" className="mt-6">
      <h2 id="qo-results-heading" className="text-lg font-bold text-ink">
        Checked lines
      </h2>
      <table className="mt-2 w-full text-left text-sm">
        <caption className="sr-only">Each line of the quick order and its result</caption>
        <thead className="border-b border-slate-300 text-ink">
          <tr>
            <th scope="col" className="py-2 pr-2">
              Line
            </th>
            <th scope="col" className="py-2 pr-2">
              SKU
            </th>
            <th scope="col" className="py-2 pr-2">
              Quantity
            </th>
            <th scope="col" className="py-2 pr-2">
              Product
            </th>
            <th scope="col" className="py-2">
              Result
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.label} className="border-b border-slate-100" data-status={line.status}>
              <th scope="row" className="py-2 pr-2 font-normal">
                {line.label}
              </th>
              <td className="py-2 pr-2 font-mono">{line.sku}</td>
              <td className="py-2 pr-2">{line.quantity ?? ""}</td>
              <td className="py-2 pr-2">{line.title ?? ""}</td>
              <td className={`py-2 ${line.status === "problem" ? "font-semibold text-red-800" : "text-slate-700"}`}>
                {resultText(line)}
                {line.status === "problem" && line.available ? (
                  <label className="ml-2 inline-flex items-center gap-1 font-normal text-ink">
                    <input type="checkbox" name="takeAvailable" value={line.label} defaultChecked />
                    {`Add the ${line.available} available instead`}
                  </label>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
