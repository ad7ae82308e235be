import { expect, type Locator, type Page } from "@playwright/test";
import { consoleErrorsOf } from "./fixtures.ts";

export const NOT_FOUND_TEXT =
  "Sorry, the requested page isn't found. Perhaps a typo or a broken link. Redirecting back to safety.";

export const CONTENT_PAGES = [
  { path: "/refund-policy", title: "Refund Policy" },
  { path: "/terms-and-conditions", title: "Terms & Condition" },
  { path: "/terms-of-service", title: "Terms of Service" },
  { path: "/privacy-policy", title: "Privacy Policy" },
  { path: "/shipping-information", title: "Shipping Information" },
  { path: "/returns-and-exchanges", title: "Returns & Exchanges" },
  { path: "/career", title: "Career" },
  { path: "/services", title: "Services" },
  { path: "/order", title: "Order" },
  { path: "/deliveries", title: "Deliveries" },
] as const;

export const HEADER_NAV = [
  { name: "Home", path: "/" },
  { name: "Shop", path: "/shop" },
  { name: "About Us", path: "/about" },
  { name: "FAQ", path: "/faq" },
  { name: "Contact Us", path: "/contact" },
] as const;

/** A URL predicate: this path, and at least these query parameters (others, like a sort, may follow). */
export function urlIs(path: string, params: Record<string, string> = {}) {
  return (url: URL) => url.pathname === path && Object.entries(params).every(([k, v]) => url.searchParams.get(k) === v);
}

/** Path (with query) of a link, relative to the site. */
export async function hrefOf(link: Locator): Promise<string> {
  const href = await link.getAttribute("href");
  if (href == null) throw new Error("link without href");
  const url = new URL(href, "http://site.invalid");
  return `${url.pathname}${url.search}`;
}

/**
 * Resolves once React has hydrated the document, so client behaviour (timers, handlers) is live.
 * Polls on an interval rather than animation frames so it also works under a fake clock. When the
 * page never comes alive, the failure names the console errors (a CSP block, a crash) behind it.
 */
export async function waitForHydration(page: Page): Promise<void> {
  try {
    await page.waitForFunction(
      () => {
        const main = document.querySelector("main");
        return !!main && Object.keys(main).some((k) => k.startsWith("__reactFiber$"));
      },
      undefined,
      { polling: 50, timeout: 10_000 },
    );
  } catch (error) {
    const errors = consoleErrorsOf(page);
    throw new Error(
      `${page.url()} did not hydrate within 10 s; console errors:\n${errors.length ? errors.map((e) => `  - ${e.slice(0, 240)}`).join("\n") : "  (none)"}`,
      { cause: error },
    );
  }
}

/** The JSON-LD blocks of server-rendered HTML, parsed. */
export function jsonLdIn(html: string): Record<string, any>[] {
  const blocks = html.matchAll(/<script[^>]*type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g);
  return [...blocks].map((m) => JSON.parse(m[1]));
}

/** Asserts the SEO basics every indexable page carries. */
export async function expectSeoHead(page: Page, canonicalPath: string): Promise<void> {
  const base = new URL(page.url()).origin;
  await expect(page).toHaveTitle(/\S/);
  const head = page.locator("head");
  await expect(head.locator('meta[name="description"]')).toHaveAttribute("content", /\S.{9,}/);
  await expect(head.locator('link[rel="canonical"]')).toHaveAttribute("href", `${base}${canonicalPath}`);
  await expect(head.locator('meta[property="og:title"]')).toHaveAttribute("content", /\S/);
  await expect(head.locator('meta[property="og:url"]')).toHaveAttribute("content", `${base}${canonicalPath}`);
}
