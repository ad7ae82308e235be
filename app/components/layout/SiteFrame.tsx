import { useRouteLoaderData } from "react-router";
import type { RootData } from "../../root.tsx";
import { CurrentUserProvider } from "../../lib/current-user.tsx";
import { Static } from "../../islands/static.tsx";
import { AlertProvider } from "../ui/Alert.tsx";
import { Footer, footerYear } from "./Footer.tsx";
import { Header } from "./Header.tsx";

/** The element SiteFrame renders into: React Router hydrates the whole document, an island this element. */
export const SITE_FRAME_ID = "site";

/** Every page's header, main and footer around the route's content, with the user and alert contexts. */
export function SiteFrame({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData("root") as RootData | undefined;
  return (
    <CurrentUserProvider serverUser={data?.user ?? null}>
      <AlertProvider>
        <Header cartCount={data?.cartCount ?? 0} wishlistCount={data?.wishlistIds.length ?? 0} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <Static as="footer">
          <Footer year={footerYear(data)} />
        </Static>
      </AlertProvider>
    </CurrentUserProvider>
  );
}
