import { lazy, Suspense, type ComponentProps, type ComponentType } from "react";
import type Offer from "../market/MarketProposal.tsx";
import { useRouteLoaderData } from "react-router";
import type { RootData } from "../../root.tsx";
import { CurrentUserProvider } from "../../lib/current-user.tsx";
import { useVisitorReader, useVisitorState } from "../../lib/visitor.ts";
import { AlertProvider } from "../ui/Alert.tsx";
import { Footer, footerYear } from "./Footer.tsx";
import { Header } from "./Header.tsx";
import { MarketBar } from "../market/MarketPicker.tsx";
import { InCurrency } from "../ui/Money.tsx";
import { DEFAULT_MARKET, MARKETS } from "../../lib/markets.ts";

// Only a visitor offered another market needs it, once /visitor has answered: not in every page's first load.
// A module that fails to load (an old tab after a deploy) leaves the offer out, nothing else.
const MarketProposal = lazy<ComponentType<ComponentProps<typeof Offer>>>(() =>
  import("../market/MarketProposal.tsx").catch(() => ({ default: () => null })),
);

/** Every page's header, main and footer around the route's content, with the user and alert contexts. */
export function SiteFrame({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  useVisitorReader();
  const { visitor, known } = useVisitorState();
  const market = data?.market ?? DEFAULT_MARKET;
  const proposal = known && !data?.tradeMarket ? visitor.marketProposal : null;
  return (
    <CurrentUserProvider serverUser={visitor.user} known={known}>
      <AlertProvider>
        <InCurrency currency={MARKETS[market].currency}>
          <Header
            cartCount={visitor.cartCount}
            wishlistCount={visitor.wishlistIds.length}
            top={
              <MarketBar market={market} chosen={data?.shopperMarket ?? market} trade={Boolean(data?.tradeMarket)} />
            }
          />
          <main id="main" className="flex-1">
            {children}
          </main>
          <Footer year={footerYear(data)} />
          {/* After the footer in the reading order; it floats at the window's foot. */}
          {proposal && proposal !== market ? (
            <Suspense fallback={null}>
              <MarketProposal current={market} proposal={proposal} />
            </Suspense>
          ) : null}
        </InCurrency>
      </AlertProvider>
    </CurrentUserProvider>
  );
}
