import { queryAll } from "../support/db.ts";
import { expect, test } from "../support/fixtures.ts";
import { CONTENT_PAGES, jsonLdIn } from "../support/site.ts";

test("the home page carries JSON-LD Organization", async ({ request, baseURL }) => {
  const response = await request.get("/");
  expect(response.status()).toBe(200);
  const origin = new URL(baseURL!).origin;
  const org = jsonLdIn(await response.text()).find((d) => d["@type"] === "Organization");
  expect(org).toBeTruthy();
  expect(org!["@context"]).toBe("https://schema.org");
  expect(org!.name).toBe("ToolHub Wholesale");
  expect(org!.url).toBe(`${origin}/`);
  expect(org!.logo).toMatch(new RegExp(`^${origin}/`));
});

test("/sitemap.xml lists every product (in each market) and every content page", async ({ request, baseURL }) => {
  const response = await request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/xml/);
  const xml = await response.text();
  expect(xml).toContain(
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  );
  const locs = new Set([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname));
  const origin = new URL(baseURL!).origin;
  expect(xml).toContain(`<loc>${origin}/</loc>`);
  for (const path of ["/", "/shop", "/about", "/faq", "/contact", "/blogs", ...CONTENT_PAGES.map((p) => p.path)]) {
    expect(locs.has(path), path).toBe(true);
  }
  const ids = queryAll<{ id: number }>("SELECT id FROM products ORDER BY id").map((r) => r.id);
  expect(ids.length).toBeGreaterThanOrEqual(500);
  const missing = ids.filter((id) => !locs.has(`/shop/${id}`));
  expect(missing).toEqual([]);
  // Pages priced per market are listed once per market, each naming the other as an alternate.
  const ukLocs = new Set([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].slice(origin.length)));
  expect(ids.filter((id) => !ukLocs.has(`/shop/${id}?market=uk`))).toEqual([]);
  for (const path of ["/?market=uk", "/shop?market=uk"]) expect(ukLocs.has(path), path).toBe(true);
  expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="en-GB" href="${origin}/shop/${ids[0]}?market=uk"/>`);
  expect(ukLocs.has("/about?market=uk")).toBe(false);
  expect([...locs].some((p) => p.startsWith("/blogs/"))).toBe(true);
  // Private screens stay out.
  for (const path of ["/cart", "/wishlist", "/login", "/register"]) expect(locs.has(path), path).toBe(false);
});

test("/robots.txt points to the sitemap", async ({ request, baseURL }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  const body = await response.text();
  expect(body).toMatch(/^User-agent: \*/m);
  expect(body).toContain(`Sitemap: ${new URL(baseURL!).origin}/sitemap.xml`);
});
