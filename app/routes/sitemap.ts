import { blogPosts } from "../content/blog.ts";
import { contentPageSlugs } from "../content/page-slugs.ts";
import { DEFAULT_MARKET, MARKETS, marketPath } from "../lib/markets.ts";
import { listProductIdsForSitemap } from "../../server/catalog/catalog.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";

const STATIC_PATHS = ["/about", "/faq", "/contact", "/blogs"];
/** Pages whose prices are their market's: each market's URL is listed, with the others as alternates. */
const MARKET_PATHS = ["/", "/shop"];
/** A sitemap file holds at most 50,000 URLs; each product has one per market. */
const MAX_URLS = 50_000;

function entry(origin: string, path: string, lastmod?: string): string {
  return `<url><loc>${origin}${path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}</url>`;
}

/** One entry per market for a page priced per market, each naming every market's URL (hreflang). */
function marketEntries(origin: string, path: string, lastmod?: string): string[] {
  const alternates = [
    ...Object.values(MARKETS).map(
      (m) => `<xhtml:link rel="alternate" hreflang="${m.locale}" href="${origin}${marketPath(path, m.id)}"/>`,
    ),
    `<xhtml:link rel="alternate" hreflang="x-default" href="${origin}${marketPath(path, DEFAULT_MARKET)}"/>`,
  ].join("");
  return Object.values(MARKETS).map(
    (m) =>
      `<url><loc>${origin}${marketPath(path, m.id)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ""}${alternates}</url>`,
  );
}

export async function loader() {
  const origin = config().siteUrl;
  const fixed = STATIC_PATHS.length + contentPageSlugs.length + blogPosts.length + MARKET_PATHS.length * 2;
  const markets = Object.keys(MARKETS).length;
  const products = await listProductIdsForSitemap(getDb(), Math.floor((MAX_URLS - fixed) / markets));
  const urls = [
    ...MARKET_PATHS.flatMap((p) => marketEntries(origin, p)),
    ...STATIC_PATHS.map((p) => entry(origin, p)),
    ...contentPageSlugs.map((s) => entry(origin, `/${s}`)),
    ...blogPosts.map((b) => entry(origin, `/blogs/${b.slug}`, b.publishedAt)),
    ...products.flatMap((p) => marketEntries(origin, `/shop/${p.id}`, p.lastmod)),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
