import { redirect } from "react-router";
import type { Route } from "./+types/legacy-redirect";
import { legacyRedirects } from "../content/navigation.ts";

/** The spec's footer paths /aboutUs and /contactUs: a permanent redirect, for page loads and client navigation alike. */
export function loader({ url }: Route.LoaderArgs) {
  throw redirect(legacyRedirects[url.pathname] ?? "/", 301);
}
