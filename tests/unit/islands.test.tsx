// @vitest-environment jsdom
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error React Router ships its turbo-stream encoder without type declarations.
import { encode } from "../../node_modules/react-router/dist/production/vendor/turbo-stream-v2/turbo-stream.js";
import { islandLoaderData, islandOf, islandPageData, rendersIsland, scriptJson } from "../../app/islands/island-scripts.tsx";
import { DOCUMENT_REQUEST_HEADER } from "../../app/lib/document-request.ts";
import { dataUrl, Link, setRootData, useFetcher, useRevalidator, useRouteLoaderData } from "../../app/islands/router-shim.tsx";

/** A reply as React Router's server writes it for a single fetch: turbo-stream. */
const turboStream = (value: unknown, init: ResponseInit = {}) => new Response(encode(value) as ReadableStream<Uint8Array>, { headers: { "X-Remix-Response": "yes" }, ...init });

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe("the island's data block", () => {
  it("escapes every < so nothing in the data can close the script or open a comment", () => {
    const data = { title: "</script><script>alert(1)</script>", note: "<!-- x -->", plain: "Drill & driver" };
    const json = scriptJson(data);
    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual(data);
  });

  it("is written only for a page whose loader names its island script", () => {
    const match = (loaderData: unknown) => ({ id: "leaf", pathname: "/", params: {}, loaderData, handle: undefined });
    expect(islandOf([match({ cart: 1 }), match({ island: "/assets/island-home-x.js", featured: [] })])).toEqual({
      src: "/assets/island-home-x.js",
      data: { island: "/assets/island-home-x.js", featured: [] },
    });
    expect(islandOf([match({ island: "/assets/island-home-x.js" }), match({ featured: [] })])).toBeNull();
    expect(islandOf([match({ island: null })])).toBeNull();
    expect(islandOf([match(undefined)])).toBeNull();
    expect(islandOf([])).toBeNull();
  });

  it("keeps an island document's own data out of React Router's encoded hydration data, and nothing else's", async () => {
    const page = { product: { title: "Cordless Drill 18V" }, volumeBreaks: [] };
    const documentRequest = new Request("http://x/shop/12", { headers: { [DOCUMENT_REQUEST_HEADER]: "1" } });
    const encoded = async (data: unknown) => new Response(encode({ loaderData: { "routes/product": data } }) as ReadableStream<Uint8Array>).text();

    const island = islandLoaderData(documentRequest, page, "/assets/island-product-x.js");
    expect(islandPageData(island)).toBe(page);
    expect(await encoded(island)).not.toContain("Cordless Drill");
    const match = { id: "routes/product", pathname: "/shop/12", params: {}, loaderData: island, handle: undefined };
    // The island's own data block still carries it, and the renderer knows the page is an island.
    expect(islandOf([match])).toEqual({ src: "/assets/island-product-x.js", data: page });
    expect(JSON.parse(scriptJson(islandOf([match])!.data))).toEqual(page);
    expect(rendersIsland({ matches: [{ route: { id: "routes/product" } }], loaderData: { "routes/product": island } })).toBe(true);

    // React Router's client navigating to the page (a .data request, without the header), and a
    // build without islands (react-router dev), get the data plain.
    for (const plain of [islandLoaderData(new Request("http://x/shop/12"), page, "/assets/island-product-x.js"), islandLoaderData(documentRequest, page, null)]) {
      expect(plain).toMatchObject(page);
      expect(islandPageData(plain)).toMatchObject(page);
      expect(await encoded(plain)).toContain("Cordless Drill");
    }
  });

  it("tells the document renderer, before the render, which pages are islands (their leaf names a script)", () => {
    const matches = [{ route: { id: "root" } }, { route: { id: "routes/product" } }];
    expect(rendersIsland({ matches, loaderData: { root: {}, "routes/product": { island: "/assets/island-product-x.js", product: {} } } })).toBe(true);
    expect(rendersIsland({ matches, loaderData: { root: { island: "/assets/island-home-x.js" }, "routes/product": { product: {} } } })).toBe(false);
    expect(rendersIsland({ matches, loaderData: { root: {}, "routes/product": { island: null } } })).toBe(false);
    expect(rendersIsland({ matches, loaderData: { root: {} } })).toBe(false); // the leaf threw: an error page
    expect(rendersIsland({ matches: [], loaderData: {} })).toBe(false);
  });
});

describe("islandScript (server/http/islands.ts)", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "islands-"));
    vi.resetModules();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the production build's islands.json", async () => {
    writeFileSync(path.join(dir, "islands.json"), JSON.stringify({ home: "/assets/island-home-abc.js" }));
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("BUILD_DIR", dir);
    const { islandScript } = await import("../../server/http/islands.ts");
    expect(islandScript("home")).toBe("/assets/island-home-abc.js");
    expect(islandScript("shop")).toBeNull();
  });

  it("gives none without a build that has islands, or outside production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("BUILD_DIR", dir);
    expect((await import("../../server/http/islands.ts")).islandScript("home")).toBeNull();

    vi.resetModules();
    writeFileSync(path.join(dir, "islands.json"), JSON.stringify({ home: "/assets/island-home-abc.js" }));
    vi.stubEnv("NODE_ENV", "development");
    expect((await import("../../server/http/islands.ts")).islandScript("home")).toBeNull();
  });
});

describe("the router stand-in (app/islands/router-shim.tsx)", () => {
  it("addresses React Router's single-fetch endpoints", () => {
    expect(dataUrl("/cart").pathname).toBe("/cart.data");
    expect(dataUrl("/").pathname).toBe("/_.data");
    expect(dataUrl("/newsletter?x=1").search).toBe("?x=1");
  });

  it("renders links as React Router does: data-discover on the store's own paths only", () => {
    render(
      <>
        <Link to="/shop" className="c">
          Shop
        </Link>
        <Link to="https://example.com/">Away</Link>
      </>,
    );
    expect(screen.getByRole("link", { name: "Shop" }).outerHTML).toBe('<a class="c" href="/shop" data-discover="true">Shop</a>');
    expect(screen.getByRole("link", { name: "Away" }).hasAttribute("data-discover")).toBe(false);
  });

  function AddButton() {
    const fetcher = useFetcher<{ ok: boolean; message: string }>();
    const root = useRouteLoaderData("root") as { cartCount: number };
    return (
      <fetcher.Form method="post" action="/cart">
        <input type="hidden" name="productId" value="7" />
        <button type="submit">Add</button>
        <output>{`${fetcher.state} ${fetcher.data?.message ?? "-"} ${root.cartCount}`}</output>
      </fetcher.Form>
    );
  }

  it("a fetcher posts the form to /cart.data, keeps the answer and refreshes the root's data", async () => {
    setRootData({ cartCount: 0 });
    const fetchMock = vi.fn(async (url: URL, init?: RequestInit) =>
      init?.method === "POST" ? turboStream({ data: { ok: true, message: "Drill added to your cart." } }) : turboStream({ root: { data: { cartCount: 1 } } }),
    );
    vi.stubGlobal("fetch", fetchMock);
    render(<AddButton />);
    expect(screen.getByRole("status").textContent).toBe("idle - 0");

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Add" })));
    await vi.waitFor(() => expect(screen.getByRole("status").textContent).toBe("idle Drill added to your cart. 1"));

    const [post, revalidate] = fetchMock.mock.calls;
    expect(String(post![0])).toBe("http://localhost:3000/cart.data");
    expect(post![1]).toMatchObject({ method: "POST", credentials: "same-origin" });
    expect(String(post![1]!.body)).toBe("productId=7");
    expect(String(revalidate![0])).toBe("http://localhost:3000/_.data?_routes=root");
  });

  it("a refusal (4xx with React Router's answer) is kept as data, like a success", async () => {
    setRootData({ cartCount: 2 });
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: URL, init?: RequestInit) =>
        init?.method === "POST" ? turboStream({ data: { ok: false, message: "Only 1 left in stock." } }, { status: 400 }) : turboStream({ root: { data: { cartCount: 2 } } }),
      ),
    );
    render(<AddButton />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Add" })));
    await vi.waitFor(() => expect(screen.getByRole("status").textContent).toBe("idle Only 1 left in stock. 2"));
  });

  it("when the post cannot be made, the form submits itself as it would without JavaScript", async () => {
    setRootData({ cartCount: 0 });
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const submit = vi.spyOn(HTMLFormElement.prototype, "submit").mockImplementation(() => {});
    render(<AddButton />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Add" })));
    await vi.waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(screen.getByRole("status").textContent).toBe("idle - 0");
  });

  it("a revalidation that fails keeps the root's data and never rejects", async () => {
    setRootData({ cartCount: 4 });
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    let revalidate: () => Promise<void> = async () => {};
    function Count() {
      revalidate = useRevalidator().revalidate;
      return <output>{(useRouteLoaderData("root") as { cartCount: number }).cartCount}</output>;
    }
    render(<Count />);
    await act(async () => expect(revalidate()).resolves.toBeUndefined());
    expect(screen.getByRole("status").textContent).toBe("4");
  });

  it("follows a redirect the action answers with", async () => {
    setRootData({ cartCount: 0 });
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, href: window.location.href, pathname: "/", assign });
    vi.stubGlobal("fetch", vi.fn(async () => new Response(null, { status: 204, headers: { "X-Remix-Redirect": "/login?next=%2F" } })));
    render(<AddButton />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Add" })));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("/login?next=%2F"));
  });
});

describe("an island that shows its own path's other URLs in place (the shop)", () => {
  type Results = { q: string; total: number };
  type Shim = typeof import("../../app/islands/router-shim.tsx");
  let shim: Shim;

  beforeEach(async () => {
    window.history.replaceState(null, "", "/shop?q=drill");
    vi.resetModules(); // the stand-in keeps the page's state in its module
    shim = await import("../../app/islands/router-shim.tsx");
    shim.setRootData({ cartCount: 0 });
    shim.takeNavigationsInPlace("routes/shop", { q: "drill", total: 32 });
  });

  /** A single-fetch answer for the shop's URL `q`: every route's data, as React Router sends it. */
  const answerFor = (q: string, total: number, cartCount = 0) => turboStream({ root: { data: { cartCount } }, "routes/shop": { data: { q, total } } });

  /** A fetch whose answers the test gives by hand, each kept under its URL's search ("?q=saw"). */
  const answersByHand = () => {
    const answers: Record<string, (r: Response) => void> = {};
    vi.stubGlobal("fetch", vi.fn((url: URL) => new Promise<Response>((resolve) => (answers[new URL(url).search] = resolve))));
    return answers;
  };
  const status = () => screen.getByRole("status").textContent;
  const shows = (text: string) => vi.waitFor(() => expect(status()).toBe(text));
  const go = () => act(async () => fireEvent.click(screen.getByRole("button", { name: "Go" })));
  /** Long enough for an answer that should be ignored to have landed, had it not been. */
  const settle = () => new Promise((r) => setTimeout(r, 20));

  function Results({ to = "/shop?q=saw" }: { to?: string }) {
    const data = shim.usePageData<Results>();
    const navigation = shim.useNavigation();
    const location = shim.useLocation();
    const root = shim.useRouteLoaderData("root") as { cartCount: number };
    const navigate = shim.useNavigate();
    return (
      <>
        <output>{`${data.q} ${data.total} ${navigation.state} ${navigation.location?.search ?? "-"} ${location.search} ${root.cartCount}`}</output>
        <button onClick={() => navigate(to)}>Go</button>
        <shim.Form action="/shop">
          <input name="q" defaultValue="ladder" aria-label="Words" />
          <button type="submit">Search</button>
        </shim.Form>
      </>
    );
  }

  it("reads the new URL's data from its single-fetch address, then moves the history and shows it", async () => {
    let answer!: (r: Response) => void;
    const fetchMock = vi.fn((_url: URL) => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal("fetch", fetchMock);
    const entries = window.history.length;
    render(<Results />);
    expect(status()).toBe("drill 32 idle - ?q=drill 0");

    await go();
    // While it loads, the page knows where it is going; the address bar has not moved yet.
    expect(status()).toBe("drill 32 loading ?q=saw ?q=drill 0");
    expect(window.location.search).toBe("?q=drill");
    expect(String(fetchMock.mock.calls[0]![0])).toBe("http://localhost:3000/shop.data?q=saw");

    await act(async () => answer(answerFor("saw", 7, 2)));
    await shows("saw 7 idle - ?q=saw 2");
    expect(window.location.search).toBe("?q=saw");
    expect(window.history.length).toBe(entries + 1);
  });

  it("back and forward show each URL's results again, in place", async () => {
    vi.stubGlobal("fetch", vi.fn(async (url: URL) => (new URL(url).searchParams.get("q") === "saw" ? answerFor("saw", 7) : answerFor("drill", 32))));
    render(<Results />);
    await go();
    await shows("saw 7 idle - ?q=saw 0");

    await act(async () => window.history.back());
    await shows("drill 32 idle - ?q=drill 0");
    await act(async () => window.history.forward());
    await shows("saw 7 idle - ?q=saw 0");
  });

  it("shows the last URL asked for when an earlier one answers after it", async () => {
    const answers = answersByHand();
    const { rerender } = render(<Results to="/shop?q=saw" />);
    await go();
    rerender(<Results to="/shop?q=hammer" />);
    await go();
    await act(async () => answers["?q=hammer"]!(answerFor("hammer", 5)));
    await shows("hammer 5 idle - ?q=hammer 0");
    await act(async () => answers["?q=saw"]!(answerFor("saw", 7)));
    await settle();
    expect(status()).toBe("hammer 5 idle - ?q=hammer 0");
    expect(window.location.search).toBe("?q=hammer");
  });

  it("going to the URL already shown replaces its history entry instead of adding one", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => answerFor("drill", 31)));
    const entries = window.history.length;
    render(<Results to="/shop?q=drill" />);
    await go();
    await shows("drill 31 idle - ?q=drill 0");
    expect(window.history.length).toBe(entries);
  });

  it("Back while a change is still loading shows Back's results, and the change never lands", async () => {
    const answers = answersByHand();
    const { rerender } = render(<Results to="/shop?q=saw" />);
    await go();
    await act(async () => answers["?q=saw"]!(answerFor("saw", 7)));
    await shows("saw 7 idle - ?q=saw 0");

    rerender(<Results to="/shop?q=hammer" />);
    await go();
    expect(status()).toBe("saw 7 loading ?q=hammer ?q=saw 0");
    await act(async () => window.history.back());
    await vi.waitFor(() => expect(answers["?q=drill"]).toBeDefined());
    await act(async () => answers["?q=drill"]!(answerFor("drill", 32)));
    await shows("drill 32 idle - ?q=drill 0");
    await act(async () => answers["?q=hammer"]!(answerFor("hammer", 5)));
    await settle();
    expect(status()).toBe("drill 32 idle - ?q=drill 0");
    expect(window.location.search).toBe("?q=drill");
  });

  it("Back then Forward before Back's answer arrives keeps the results on show", async () => {
    const answers = answersByHand();
    render(<Results to="/shop?q=saw" />);
    await go();
    await act(async () => answers["?q=saw"]!(answerFor("saw", 7)));
    await shows("saw 7 idle - ?q=saw 0");
    delete answers["?q=saw"];

    await act(async () => window.history.back());
    await shows("saw 7 loading ?q=drill ?q=saw 0");
    await act(async () => window.history.forward());
    await shows("saw 7 idle - ?q=saw 0");
    await act(async () => answers["?q=drill"]!(answerFor("drill", 32)));
    await settle();
    expect(status()).toBe("saw 7 idle - ?q=saw 0");
    expect(window.location.search).toBe("?q=saw");
  });

  it("a GET form to the page's own path loads its results in place", async () => {
    const fetchMock = vi.fn(async (_url: URL) => answerFor("ladder", 12));
    vi.stubGlobal("fetch", fetchMock);
    render(<Results />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Search" })));
    await shows("ladder 12 idle - ?q=ladder 0");
    expect(String(fetchMock.mock.calls[0]![0])).toBe("http://localhost:3000/shop.data?q=ladder");
  });

  it("follows a redirect to another URL of the same path in place (the canonical URL)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: URL) => (new URL(url).search === "?q=saw&page=1" ? new Response(null, { status: 204, headers: { "X-Remix-Redirect": "/shop?q=saw" } }) : answerFor("saw", 7))),
    );
    render(<Results to="/shop?q=saw&page=1" />);
    await go();
    await shows("saw 7 idle - ?q=saw 0");
    expect(window.location.search).toBe("?q=saw");
  });

  it("loads a document for another path, and when the results cannot be read", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, href: "http://localhost:3000/shop?q=drill", origin: "http://localhost:3000", pathname: "/shop", search: "?q=drill", assign });
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const { rerender } = render(<Results to="/cart" />);
    await go();
    expect(String(assign.mock.calls[0]![0])).toBe("http://localhost:3000/cart");

    rerender(<Results to="/shop?q=saw" />);
    await go();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledTimes(2));
    expect(String(assign.mock.calls[1]![0])).toBe("http://localhost:3000/shop?q=saw");
  });
});
