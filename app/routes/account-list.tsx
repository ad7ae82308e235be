import { data, Form, Link } from "react-router";
import type { Route } from "./+types/account-list";
import { pageMarketContext } from "../lib/market-context.ts";
import { ViewCartLink } from "../components/cart/ViewCartLink.tsx";
import { ListCartReport } from "../components/lists/ListCartReport.tsx";
import { ListMessage } from "../components/lists/ListMessage.tsx";
import { ListNameForm } from "../components/lists/ListNameForm.tsx";
import { ListQuantityInput, SavedListLines } from "../components/lists/SavedListLines.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { parseRowId } from "../lib/order-rules.ts";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { requireCustomer } from "../../server/trade/guard.ts";
import { listPageAction } from "../../server/trade/saved-list-actions.ts";
import { SAVED_LIST_NAME_MAX } from "../../server/trade/saved-list-rules.ts";
import { savedListView } from "../../server/trade/saved-lists.ts";
import { HeadedSection } from "../components/ui/HeadedSection.tsx";

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  return seo({
    title: loaderData?.list.name ?? "Saved list",
    description: "One of your saved lists.",
    path: `/account/lists/${params.id}`,
    matches,
    noindex: true,
  });
}

const DONE: Record<string, string> = {
  created: "List created. Add products to it by their SKU.",
  "saved-cart": "Your cart is saved as this list.",
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const session = await requireCustomer(request);
  const id = parseRowId(params.id);
  if (id == null) throw data("Not found", { status: 404 });
  try {
    const list = await savedListView(getDb(), session.userId, id, context.get(pageMarketContext).market);
    const done = DONE[new URL(request.url).searchParams.get("done") ?? ""];
    return { list, done: done ? { ok: true, message: done } : null, nameMax: SAVED_LIST_NAME_MAX };
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw data("Not found", { status: 404 });
    throw error;
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  return listPageAction(request, params.id);
}

export default function AccountList({ loaderData, actionData }: Route.ComponentProps) {
  const { list, done, nameMax } = loaderData;
  const answer = actionData ?? done;
  const failed = actionData && !actionData.ok ? actionData : undefined;
  const addedToCart = actionData?.report && actionData.report.some((l) => l.added > 0);
  const intro = list.owned
    ? list.shared
      ? `Shared with ${list.companyName}: your colleagues can see this list and add it to their carts. Only you can change it.`
      : undefined
    : `Shared with ${list.companyName} by ${list.ownerName}. You can add it to your cart; only ${list.ownerName} can change it.`;
  return (
    <>
      <PageHeader title={list.name} intro={intro} />
      <div className="mx-auto max-w-5xl space-y-8 px-4 py-10 text-slate-700">
        <ListMessage answer={answer}>{addedToCart ? <ViewCartLink /> : null}</ListMessage>
        <HeadedSection id="list-lines-heading" title="Products" headingClassName="text-lg font-bold text-ink">
          <SavedListLines lines={list.lines} editable={list.owned} totalCents={list.totalCents} />
          {list.lines.length ? (
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="add-all" />
              <button type="submit" className="btn-primary">
                Add all to cart
              </button>
            </Form>
          ) : null}
        </HeadedSection>
        {actionData?.report ? <ListCartReport lines={actionData.report} /> : null}
        {list.owned ? (
          <>
            <HeadedSection id="add-product-heading" title="Add a product" headingClassName="text-lg font-bold text-ink">
              <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
                <input type="hidden" name="intent" value="add-line" />
                <div>
                  <label htmlFor="list-sku" className="block text-sm font-semibold text-ink">
                    SKU
                  </label>
                  <input
                    id="list-sku"
                    name="sku"
                    type="text"
                    required
                    maxLength={64}
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="TH-0000003"
                    defaultValue={failed?.intent === "add-line" ? failed.values?.sku : undefined}
                    className="field mt-1 w-44 font-mono"
                  />
                </div>
                <div>
                  <label htmlFor="list-quantity" className="block text-sm font-semibold text-ink">
                    Quantity
                  </label>
                  <ListQuantityInput
                    id="list-quantity"
                    defaultValue={failed?.intent === "add-line" ? failed.values?.quantity : "1"}
                    className="field mt-1 w-24"
                  />
                </div>
                <button type="submit" className="btn-outline">
                  Add to list
                </button>
              </Form>
            </HeadedSection>
            <ListNameForm
              id="rename-list"
              heading="Rename"
              label="New name"
              intent="rename"
              button="Rename"
              maxLength={nameMax}
              defaultValue={list.name}
            />
            {list.companyName ? (
              <HeadedSection id="share-heading" title="Sharing" headingClassName="text-lg font-bold text-ink">
                <p className="mt-1">
                  {list.shared
                    ? `Your colleagues at ${list.companyName} can see this list and add it to their carts.`
                    : "Only you can see this list."}
                </p>
                <Form method="post" className="mt-3">
                  <input type="hidden" name="intent" value={list.shared ? "unshare" : "share"} />
                  <button type="submit" className="btn-outline">
                    {list.shared ? "Stop sharing" : `Share with ${list.companyName}`}
                  </button>
                </Form>
              </HeadedSection>
            ) : null}
            <HeadedSection id="delete-heading" title="Delete list" headingClassName="text-lg font-bold text-ink">
              <details className="mt-2">
                <summary className="cursor-pointer font-semibold text-red-800">Delete this list…</summary>
                <Form method="post" className="mt-2">
                  <input type="hidden" name="intent" value="delete" />
                  <p>
                    This deletes “{list.name}” and its{" "}
                    {list.lines.length === 1 ? "1 product" : `${list.lines.length} products`} for good
                    {list.shared ? ", for your colleagues too" : ""}. Your cart stays as it is.
                  </p>
                  <button type="submit" className="btn-outline mt-2 border-red-800 text-red-800">
                    Delete list
                  </button>
                </Form>
              </details>
            </HeadedSection>
          </>
        ) : null}
        <p>
          <Link to="/account/lists" className="font-semibold text-brand-800 hover:underline">
            Back to your saved lists
          </Link>
        </p>
      </div>
    </>
  );
}
