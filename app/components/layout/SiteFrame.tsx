import { useRouteLoaderData } from "react-router";
import type { RootData } from "../../root.tsx";
import { CurrentUserProvider } from "../../lib/current-user.tsx";
import { useVisitorReader, useVisitorState } from "../../lib/visitor.ts";
import { AlertProvider } from "../ui/Alert.tsx";
import { Footer, footerYear } from "./Footer.tsx";
import { Header } from "./Header.tsx";

/** Every page's header, main and footer around the route's content, with the user and alert contexts. */
export function SiteFrame({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  useVisitorReader();
  const { visitor, known } = useVisitorState();
  return (
    <CurrentUserProvider serverUser={visitor.user} known={known}>
      <AlertProvider>
        <Header cartCount={visitor.cartCount} wishlistCount={visitor.wishlistIds.length} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <Footer year={footerYear(data)} />
      </AlertProvider>
    </CurrentUserProvider>
  );
}
