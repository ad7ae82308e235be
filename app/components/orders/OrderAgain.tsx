import { useFetcher } from "react-router";
import { ViewCartLink } from "../cart/ViewCartLink.tsx";
import type { ReorderedLine, ReorderResult } from "../../../server/orders/reorder.ts";
import { HeadedSection } from "../ui/HeadedSection.tsx";

export interface OrderAgainData {
  reorder: ReorderResult;
}

function LineToCheck({ line }: { line: ReorderedLine }) {
  return (
    <li>
      <span className="font-semibold">{line.title}</span>
      {line.color ? `, ${line.color}` : null} ({line.ordered} ordered): {line.reason}
    </li>
  );
}

function Outcome({ result }: { result: ReorderResult }) {
  const toCheck = result.lines.filter((l) => l.status !== "added");
  return (
    <div className={`rounded-lg p-4 ${toCheck.length ? "bg-amber-50 text-amber-950" : "bg-green-50 text-green-900"}`}>
      <p>
        {result.summary}
        {result.inCart > 0 ? <ViewCartLink /> : null}
      </p>
      {toCheck.length ? (
        <>
          <p id="order-again-changes" className="mt-3">
            These lines changed price or couldn't be added in full:
          </p>
          <ul aria-labelledby="order-again-changes" className="mt-1 list-disc pl-6">
            {toCheck.map((line, i) => (
              <LineToCheck key={i} line={line} />
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/**
 * "Order again": the order's lines into the cart at today's prices. With JavaScript a fetcher
 * posts it; without, the page is posted and `posted` is the action's answer.
 */
export function OrderAgain({ number, posted }: { number: string; posted: ReorderResult | null }) {
  const fetcher = useFetcher<OrderAgainData>();
  const result = fetcher.data?.reorder ?? posted;
  return (
    <HeadedSection
      id="order-again-heading"
      title="Order again"
      headingClassName="font-semibold text-ink"
      className="mx-auto max-w-4xl px-4 pb-10"
    >
      <p className="mt-2 text-sm text-slate-700">
        Puts this order's items in your cart at today's prices and tells you what changed.
      </p>
      <fetcher.Form method="post" action={`/account/orders/${number}`} className="mt-3">
        <input type="hidden" name="intent" value="order-again" />
        <button type="submit" className="btn-primary" disabled={fetcher.state !== "idle"}>
          Order again
        </button>
      </fetcher.Form>
      <div role="status" className="mt-4">
        {result ? <Outcome result={result} /> : null}
      </div>
    </HeadedSection>
  );
}
