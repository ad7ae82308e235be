import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import { ViewCartLink } from "../components/cart/ViewCartLink.tsx";
import type { Route } from "./+types/quick-order";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { QuickOrderResults } from "../components/trade/QuickOrderResults.tsx";
import { QuickOrderRows } from "../components/trade/QuickOrderRows.tsx";
import { QUICK_ORDER_MAX_LINES } from "../lib/quick-order-types.ts";
import { seo } from "../lib/seo.ts";
import { quickOrderAction, type QuickOrderActionData } from "../../server/trade/quick-order-action.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Quick order",
    description: "Order by SKU: type rows, or paste or upload a CSV of SKUs and quantities.",
    path: "/quick-order",
    matches,
    noindex: true,
  });
}

export async function action({ request }: Route.ActionArgs) {
  return quickOrderAction(request);
}

/** A limiter's refusal (429) tells the browser when to try again; the rest as the parent route says. */
export function headers({ parentHeaders, actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

export default function QuickOrder({ actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<QuickOrderActionData>({ key: "quick-order" });
  const form = useRef<HTMLFormElement>(null);
  const checking = useRef<number | undefined>(undefined);
  // Without JavaScript the page is posted and rendered again (actionData); with it, the fetcher answers.
  const result = fetcher.data ?? actionData;
  const [formKey, setFormKey] = useState(0);
  const [lastAdd, setLastAdd] = useState<unknown>(null);
  if (result && result.intent === "add" && result !== lastAdd) {
    // After an add, the form holds only what was left over: remount it with those values.
    setLastAdd(result);
    setFormKey(formKey + 1);
  }
  const busy = fetcher.state !== "idle";

  function checkSoon(delay = 300) {
    window.clearTimeout(checking.current);
    checking.current = window.setTimeout(() => {
      if (form.current)
        void fetcher.submit(withIntent(form.current, "check"), {
          method: "post",
          action: "/quick-order",
          encType: "multipart/form-data",
        });
    }, delay);
  }

  async function readFile(input: HTMLInputElement) {
    const file = input.files?.[0];
    const textarea = form.current?.querySelector<HTMLTextAreaElement>("#qo-csv");
    if (!file || !textarea) return;
    textarea.value = [textarea.value.trim(), (await file.text()).trim()].filter(Boolean).join("\n");
    input.value = "";
    checkSoon(0);
  }

  return (
    <>
      <PageHeader
        title="Quick order"
        intro={`Know your SKUs? Type them with a quantity, or paste or upload a CSV of sku,quantity lines (up to ${QUICK_ORDER_MAX_LINES}). Every line is checked before anything goes to your cart.`}
      />
      <div className="mx-auto max-w-5xl px-4 py-10 text-slate-700">
        <fetcher.Form
          ref={form}
          key={formKey}
          method="post"
          action="/quick-order"
          encType="multipart/form-data"
          aria-busy={busy}
          noValidate
          onSubmit={() => window.clearTimeout(checking.current)}
        >
          <div className="grid gap-8 md:grid-cols-2">
            <QuickOrderRows initial={result?.rows ?? []} onChange={() => checkSoon()} />
            <fieldset>
              <legend className="text-lg font-bold text-ink">Paste or upload a CSV</legend>
              <label htmlFor="qo-csv" className="mt-3 block text-sm font-semibold text-ink">
                CSV lines (sku,quantity)
              </label>
              <textarea
                id="qo-csv"
                name="csv"
                rows={12}
                className="field mt-1 font-mono"
                aria-describedby="qo-csv-hint"
                defaultValue={result?.csv ?? ""}
                onPaste={() => checkSoon(0)}
                onInput={() => checkSoon(600)}
              />
              <p id="qo-csv-hint" className="mt-1 text-sm">
                One line per item, e.g. TH-0000003,12. A first line "sku,quantity" is skipped.
              </p>
              <label htmlFor="qo-file" className="mt-4 block text-sm font-semibold text-ink">
                Upload a CSV file
              </label>
              <input
                id="qo-file"
                name="file"
                type="file"
                accept=".csv,text/csv,text/plain"
                className="mt-1 block text-sm"
                onChange={(e) => void readFile(e.currentTarget)}
              />
            </fieldset>
          </div>
          {result ? (
            <p
              role="status"
              className={`mt-6 rounded-lg p-4 ${result.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
            >
              {result.message}
              {result.intent === "add" && result.ok ? <ViewCartLink /> : null}
            </p>
          ) : (
            <div role="status" className="sr-only" />
          )}
          {result?.check ? <QuickOrderResults check={result.check} showReady={result.intent === "check"} /> : null}
          <div className="mt-6 flex flex-wrap gap-3">
            <button type="submit" name="intent" value="check" className="btn-outline" disabled={busy}>
              Check lines
            </button>
            <button type="submit" name="intent" value="add" className="btn-primary" disabled={busy}>
              Add to cart
            </button>
          </div>
        </fetcher.Form>
      </div>
    </>
  );
}

function withIntent(form: HTMLFormElement, intent: string): FormData {
  const data = new FormData(form);
  data.set("intent", intent);
  data.delete("file");
  return data;
}
