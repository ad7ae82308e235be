import { data, redirect, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/market";
import type { RootData } from "../root.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { MarketPicker } from "../components/market/MarketPicker.tsx";
import { StaticAlert } from "../components/ui/Alert.tsx";
import { DEFAULT_MARKET } from "../lib/markets.ts";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import { changeMarket, marketLimiter } from "../../server/shopper/market-action.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Choose your market",
    description: "Shop in pounds sterling for the United Kingdom or in US dollars for the United States.",
    path: "/market",
    matches,
    noindex: true,
  });
}

export async function action({ request }: Route.ActionArgs) {
  const result = await changeMarket(getDb(), request, marketLimiter());
  if (!result.ok) return data({ message: result.message }, { status: result.status });
  const headers = new Headers();
  for (const cookie of result.cookies) headers.append("Set-Cookie", cookie);
  // With JavaScript React Router follows it in the browser and reloads every route's data.
  return redirect(result.location, { status: 303, headers });
}

// Where a refused choice (or a visit without a form) lands: the picker on a page of its own.
export default function Market({ actionData }: Route.ComponentProps) {
  const root = useRouteLoaderData<RootData>("root");
  const market = root?.shopperMarket ?? DEFAULT_MARKET;
  return (
    <>
      <PageHeader
        title="Choose your market"
        intro="Your market decides the currency of your prices, cart and order, how tax is shown and where we deliver."
      />
      <div className="mx-auto max-w-7xl space-y-4 px-4 py-8">
        {actionData?.message ? <StaticAlert tone="error" text={actionData.message} /> : null}
        {root?.tradeMarket ? (
          <p>Your trade account buys in US dollars: its prices, spending limits, credit and quotes are in dollars.</p>
        ) : (
          <MarketPicker market={market} id="market-page-select" />
        )}
      </div>
    </>
  );
}
