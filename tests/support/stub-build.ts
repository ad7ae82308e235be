import type { ServerBuild } from "react-router";

/** A stand-in React Router server build: the given document renderer and routes, and nothing else of an app. */
export function stubBuild(
  entryModule: Record<string, unknown>,
  routes: Record<string, Record<string, unknown>>,
): ServerBuild {
  return {
    entry: { module: entryModule },
    routes,
    assets: { entry: { imports: [], module: "/entry.js" }, routes: {}, url: "/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial" },
    basename: "/",
  } as unknown as ServerBuild;
}
