// @vitest-environment jsdom
import { act } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Footer } from "../../app/components/layout/Footer.tsx";
import { Header } from "../../app/components/layout/Header.tsx";
import { AlertProvider } from "../../app/components/ui/Alert.tsx";
import { CartIcon } from "../../app/components/ui/icons.tsx";
import type { PublicUser } from "../../app/lib/auth-rules.ts";
import { CurrentUserProvider } from "../../app/lib/current-user.tsx";
import { ServerFragments } from "../../app/lib/server-fragments.ts";
import { documentFragments, innerHtmlOf, serverFragmentHtml } from "../../app/lib/server-fragments.server.ts";

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

const buyer: PublicUser = { fullName: "Ada Buyer", email: "ada@example.com", profilePhoto: null };

/** The header and footer of a page at `path`, as the server renders them (with fragments) or the browser (without). */
function page(path: string, user: PublicUser | null, { server, cartCount = 2 }: { server: boolean; cartCount?: number }) {
  const Stub = createRoutesStub([
    {
      path: "*",
      Component: () => (
        <CurrentUserProvider serverUser={user}>
          <AlertProvider>
            <Header cartCount={cartCount} />
            <Footer year={2026} />
          </AlertProvider>
        </CurrentUserProvider>
      ),
    },
  ]);
  const tree = <Stub initialEntries={[path]} />;
  return server ? <ServerFragments value={serverFragmentHtml}>{tree}</ServerFragments> : tree;
}

/** What the server writes for React's HTML: characters past Latin-1 as character references. */
const asWritten = (html: string) => html.replace(/[^\u0000-\u00ff]/gu, (c) => `&#${c.codePointAt(0)};`);

/** A render to one string, as server/http/document.ts does it: fragments with a host element are taken from its HTML. */
function renderOnServer(path: string, user: PublicUser | null, cartCount?: number) {
  documentFragments.begin();
  const html = renderToString(page(path, user, { server: true, cartCount }));
  documentFragments.capture(html);
  return html;
}

/** Renders on the server twice: the first render leaves the fragments, the second writes them. */
async function renderTwice(path: string, user: PublicUser | null, cartCount?: number) {
  const first = renderOnServer(path, user, cartCount);
  await Promise.resolve();
  return { first, second: renderOnServer(path, user, cartCount) };
}

describe("parts of a page the server writes from one earlier render (app/lib/server-fragments.ts)", () => {
  it("writes byte for byte what React renders in place (wide characters as references): header, nav, icons and footer", async () => {
    const inPlace = renderToString(page("/shop/12", null, { server: false }));
    const { first, second } = await renderTwice("/shop/12", null);
    expect(first).toBe(inPlace);
    expect(inPlace).toContain('placeholder="Search for tools…"');
    expect(second).toBe(asWritten(inPlace));
    // So a page of Latin-1 text stays a one-byte string for V8, and reads back as the same text.
    expect(second).not.toMatch(/[^\u0000-\u00ff]/u);
    document.body.innerHTML = second;
    expect(document.querySelector<HTMLInputElement>("#header-search")?.placeholder).toBe("Search for tools…");
    for (const key of ["footer:2026", "header:1:2:0", "header-nav:1", "mobile-nav:1", "header-login", "header-icon:Cart:2", "header-icon:Wishlist:0", "icon:search", "search-fields:header-search", "search-fields:mobile-search"]) {
      expect(serverFragmentHtml(key, null), key).toEqual(expect.any(String));
    }
    expect(second).toContain('<a href="/shop" aria-current="page"');
    expect(second).toContain("© <!-- -->2026");
  });

  it("keys the nav by its current page, and the footer by its year", async () => {
    await renderTwice("/shop", null);
    const about = (await renderTwice("/about", null)).second;
    expect(about).toContain('<a href="/about" aria-current="page"');
    expect(about).not.toContain('<a href="/shop" aria-current="page"');
    expect(serverFragmentHtml("footer:2025", null)).toBeUndefined();
  });

  it("never writes a signed-out visitor's menu for a signed-in buyer", async () => {
    await renderTwice("/", null);
    const { second } = await renderTwice("/", buyer);
    expect(second).toContain("Your account (Ada Buyer)");
    expect(second).not.toContain('href="/login"');
    expect(second).toBe(asWritten(renderToString(page("/", buyer, { server: false }))));
  });

  it("keys a signed-out visitor's whole header by the current page and both counts, and still preloads its logo", async () => {
    await renderTwice("/about", null, 5);
    const { first, second } = await renderTwice("/about", null, 6);
    expect(first).toContain('aria-label="Cart (6 items)"');
    expect(second).toContain('aria-label="Cart (6 items)"');
    expect(second).not.toContain("Cart (5 items)");
    expect(serverFragmentHtml("header:2:5:0", null)).toContain("Cart (5 items)");
    expect(second).toMatch(/^<link rel="preload" href="\/images\/logo.svg" as="image" fetchPriority="high"\/>/);
    expect(second.match(/logo\.svg/g)).toHaveLength(2); // the preload and the image: written once each
  });

  it("takes a fragment from a document only from the render that met it, and only the one element with its host's id", () => {
    expect(serverFragmentHtml("test:host", <b>mine</b>, "test-host")).toBeUndefined();
    documentFragments.begin(); // another render begins: this one did not finish as one string
    documentFragments.capture('<div id="test-host">not mine</div>');
    expect(serverFragmentHtml("test:host", null)).toBeUndefined();

    expect(innerHtmlOf('<p>x</p><div id="h" class="c"><div>a</div><div><div>b</div></div></div><div>after</div>', "h")).toBe("<div>a</div><div><div>b</div></div>");
    expect(innerHtmlOf('<header id="h"><span>a</span></header><p id="h"></p>', "h")).toBeNull();
    expect(innerHtmlOf("<header><span>a</span></header>", "h")).toBeNull();
    expect(innerHtmlOf('<header id="h"><span>never closed</span>', "h")).toBeNull();
    expect(innerHtmlOf('<p>id=&quot;h&quot;</p><nav id="h"><a href="/">x</a></nav>', "h")).toBe('<a href="/">x</a>');
  });

  it("does not keep a fragment React would lift into the head, nor one that cannot render alone", async () => {
    expect(serverFragmentHtml("test:image", <img src="/x.svg" alt="" />)).toBeUndefined();
    const Throws = () => {
      throw new Error("needs a context");
    };
    expect(serverFragmentHtml("test:throws", <Throws />)).toBeUndefined();
    await Promise.resolve();
    expect(serverFragmentHtml("test:image", null)).toBeUndefined();
    expect(serverFragmentHtml("test:throws", null)).toBeUndefined();
    expect(renderToString(<ServerFragments value={serverFragmentHtml}>{<CartIcon />}</ServerFragments>)).toContain('<path d="M1 1h4');
  });

  it("hydrates in the browser without a mismatch; the nav's current page then moves in place and keeps the focus", async () => {
    const { second } = await renderTwice("/shop", null);
    const frame = document.createElement("div");
    frame.innerHTML = second;
    document.body.append(frame);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(frame, page("/shop", null, { server: false }), { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    const about = frame.querySelector<HTMLAnchorElement>('nav[aria-label="Main"] a[href="/about"]')!;
    about.focus();
    const click = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    await act(async () => {
      about.dispatchEvent(click);
    });
    expect(click.defaultPrevented).toBe(true); // the router took it: no page load
    expect(about.getAttribute("aria-current")).toBe("page");
    expect(frame.querySelector('nav[aria-label="Main"] a[href="/shop"]')!.hasAttribute("aria-current")).toBe(false);
    expect(document.activeElement).toBe(about);
    const footerLink = frame.querySelector<HTMLAnchorElement>('footer a[href="/faq"]')!;
    const footerClick = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    await act(async () => {
      footerLink.dispatchEvent(footerClick);
    });
    expect(footerClick.defaultPrevented).toBe(true);
  });
});
