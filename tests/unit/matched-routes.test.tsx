import { renderToString } from "react-dom/server";
import { createStaticHandler, Form, Link, Links, Meta, Outlet, Scripts, ServerRouter, useLoaderData, type EntryContext } from "react-router";
import { describe, expect, it } from "vitest";
import { withMatchedRoutes } from "../../app/lib/matched-routes.ts";

/** A root layout and a few pages, as the store's route modules and manifest describe them. */
const modules: Record<string, Record<string, unknown>> = {
  root: {
    default: () => (
      <html lang="en">
        <head>
          <Meta />
          <Links />
        </head>
        <body>
          <Link to="/shop/2">Next</Link>
          <Outlet />
          <Scripts />
        </body>
      </html>
    ),
    links: () => [{ rel: "stylesheet", href: "/app.css" }],
    ErrorBoundary: () => (
      <html lang="en">
        <body>
          <h1>Page not found</h1>
          <Link to="/shop/2">Next</Link>
        </body>
      </html>
    ),
  },
  home: { default: () => <h1>Home</h1> },
  product: {
    default: function Product() {
      const data = useLoaderData() as { name: string };
      return (
        <Form method="post" action="/cart">
          <h1>{data.name}</h1>
        </Form>
      );
    },
    meta: ({ loaderData }: { loaderData: { name: string } }) => [{ title: loaderData.name }],
  },
  cart: { default: () => <h1>Cart</h1> },
  account: { default: () => <h1>Account</h1> },
};
const paths: Record<string, { path?: string; index?: boolean; parentId?: string }> = {
  root: { path: "" },
  home: { index: true, parentId: "root" },
  product: { path: "shop/:id", parentId: "root" },
  cart: { path: "cart", parentId: "root" },
  account: { path: "account", parentId: "root" },
};
const manifestRoutes = Object.fromEntries(
  Object.entries(paths).map(([id, route]) => [id, { id, ...route, module: `/assets/${id}.js`, hasAction: false, hasLoader: id === "product", hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false, hasErrorBoundary: id === "root" }]),
);
const handler = createStaticHandler([
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "product", path: "shop/:id", loader: ({ params }) => ({ name: `Drill ${params.id}` }) },
      { id: "cart", path: "cart" },
      { id: "account", path: "account" },
    ],
  },
]);

async function entryContext(url: string): Promise<EntryContext> {
  const staticHandlerContext = await handler.query(new Request(url));
  if (staticHandlerContext instanceof Response) throw new Error("unexpected redirect");
  return {
    manifest: { entry: { module: "/assets/entry.js", imports: [] }, routes: manifestRoutes, url: "/assets/manifest.js", version: "1" },
    routeModules: modules,
    staticHandlerContext,
    future: {},
    ssr: true,
    isSpaMode: false,
    routeDiscovery: { mode: "initial" },
    serverHandoffString: "{}",
  } as unknown as EntryContext;
}

const renderDocument = (context: EntryContext, url: string) => renderToString(<ServerRouter context={context} url={url} />);

describe("the route manifest handed to <ServerRouter> (app/lib/matched-routes.ts)", () => {
  it("holds only the routes the request matched, and leaves the request's own context as it was", async () => {
    const context = await entryContext("http://store.test/shop/7");
    const narrowed = withMatchedRoutes(context);
    expect(Object.keys(narrowed.manifest.routes)).toEqual(["root", "product"]);
    expect(narrowed.manifest.entry).toBe(context.manifest.entry);
    expect(narrowed.staticHandlerContext).toBe(context.staticHandlerContext);
    expect(Object.keys(context.manifest.routes)).toEqual(["root", "home", "product", "cart", "account"]);
  });

  it.each(["/", "/shop/7", "/cart", "/no-such-page"])("renders %s exactly as the whole manifest does", async (path) => {
    const url = `http://store.test${path}`;
    const whole = renderDocument(await entryContext(url), url);
    const matched = renderDocument(withMatchedRoutes(await entryContext(url)), url);
    expect(matched).toBe(whole);
    if (path === "/shop/7") expect(whole).toContain("<title>Drill 7</title>");
    expect(whole).toContain('href="/shop/2"');
  });
});
