import { startTransition, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { SITE_FRAME_ID, SiteFrame } from "../components/layout/SiteFrame.tsx";
import { ISLAND_DATA_ID, type IslandPayload } from "./island-scripts.tsx";
import { setRootData, takeNavigationsInPlace, usePageData } from "./router-shim.tsx";
import { keepStaticParts } from "./static.tsx";

/**
 * Hydrates the SiteFrame with a page's content from the data the server wrote beside it, with
 * React DOM and the router stand-in only (app/islands/island-scripts.tsx). Each island's entry
 * calls this with its page's component; one that names its route (`inPlace`) shows that route's
 * other URLs without loading a document (router-shim.tsx).
 */
export function hydrateIsland<PageData>(Page: ComponentType<{ loaderData: PageData }>, { inPlace }: { inPlace?: string } = {}): void {
  const payload = JSON.parse(document.getElementById(ISLAND_DATA_ID)?.textContent ?? "null") as IslandPayload<PageData>;
  setRootData(payload.root);
  keepStaticParts();
  if (inPlace) takeNavigationsInPlace(inPlace, payload.route);
  const CurrentPage = inPlace ? () => <Page loaderData={usePageData<PageData>()} /> : () => <Page loaderData={payload.route} />;
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the
  // main thread for the whole page (Lighthouse's Total Blocking Time).
  startTransition(() => {
    hydrateRoot(
      document.getElementById(SITE_FRAME_ID)!,
      <SiteFrame>
        <CurrentPage />
      </SiteFrame>,
    );
  });
}
