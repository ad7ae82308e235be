import { Link } from "react-router";
import type { Route } from "./+types/account-lists";
import { ListMessage } from "../components/lists/ListMessage.tsx";
import { ListNameForm } from "../components/lists/ListNameForm.tsx";
import { BackToAccount } from "../components/account/BackToAccount.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { countText } from "../lib/numbers.ts";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import { requireCustomer } from "../../server/trade/guard.ts";
import { listsPageAction } from "../../server/trade/saved-list-actions.ts";
import { SAVED_LIST_NAME_MAX, SAVED_LISTS_PER_USER } from "../../server/trade/saved-list-rules.ts";
import { listsFor } from "../../server/trade/saved-lists.ts";
import { HeadedSection } from "../components/ui/HeadedSection.tsx";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Saved lists",
    description: "Your saved lists of products, and those your colleagues share.",
    path: "/account/lists",
    matches,
    noindex: true,
  });
}

const DONE: Record<string, string> = { deleted: "The list was deleted." };

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireCustomer(request);
  const { company, lists } = await listsFor(getDb(), session.userId);
  const done = DONE[new URL(request.url).searchParams.get("done") ?? ""];
  return {
    company,
    lists,
    done: done ? { ok: true, message: done } : null,
    nameMax: SAVED_LIST_NAME_MAX,
    perUser: SAVED_LISTS_PER_USER,
  };
}

export async function action({ request }: Route.ActionArgs) {
  return listsPageAction(request);
}

type ListRow = { id: number; name: string; lineCount: number; sharedWith: string | null; ownerName: string };

/** The lists as links, each with its line count and `detail`. */
function ListLinks<L extends ListRow>({ lists, detail }: { lists: L[]; detail: (list: L) => string }) {
  return (
    <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200">
      {lists.map((list) => (
        <li key={list.id} className="flex flex-wrap items-baseline justify-between gap-2 p-3">
          <Link to={`/account/lists/${list.id}`} className="font-semibold text-brand-800 hover:underline">
            {list.name}
          </Link>
          <span className="text-sm">
            {countText(list.lineCount, "line")}
            {detail(list)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export default function AccountLists({ loaderData, actionData }: Route.ComponentProps) {
  const { company, lists, done, nameMax, perUser } = loaderData;
  const answer = actionData ?? done;
  const failed = actionData && !actionData.ok ? actionData : undefined;
  /** What was typed into the form of `intent` and why it was refused, after a refusal of that form. */
  const typedBack = (intent: string) =>
    failed?.intent === intent ? { defaultValue: failed.values?.name, error: failed.message } : {};
  const own = lists.filter((l) => l.owned);
  const shared = lists.filter((l) => !l.owned);
  return (
    <>
      <PageHeader
        title="Saved lists"
        intro={`Keep the products you order again and again in named lists (up to ${perUser}), then add a whole list to your cart at once.${company ? ` Share a list with ${company.name} so your colleagues can order from it too.` : ""}`}
      />
      <div className="mx-auto max-w-4xl space-y-8 px-4 py-10 text-slate-700">
        <ListMessage answer={answer} />
        <HeadedSection id="your-lists-heading" title="Your lists" headingClassName="text-lg font-bold text-ink">
          {own.length ? (
            <ListLinks lists={own} detail={(list) => (list.sharedWith ? ` · Shared with ${list.sharedWith}` : "")} />
          ) : (
            <p className="mt-2">You have no saved lists yet. Start one below, or save your cart as a list.</p>
          )}
        </HeadedSection>
        {shared.length ? (
          <HeadedSection
            id="shared-lists-heading"
            title="Shared by your colleagues"
            headingClassName="text-lg font-bold text-ink"
          >
            <ListLinks lists={shared} detail={(list) => ` · by ${list.ownerName} · Shared with ${list.sharedWith}`} />
          </HeadedSection>
        ) : null}
        <ListNameForm
          id="new-list-name"
          heading="New list"
          intent="create"
          button="Create list"
          maxLength={nameMax}
          {...typedBack("create")}
        />
        <ListNameForm
          id="cart-list-name"
          heading="Save my cart as a list"
          hint="Everything in your cart now, with its quantities, goes into a new list. Your cart stays as it is."
          intent="save-cart"
          button="Save my cart as a list"
          maxLength={nameMax}
          {...typedBack("save-cart")}
        />
        <BackToAccount />
      </div>
    </>
  );
}
