import { blogPosts } from "../content/blog.ts";
import { contentPageSlugs } from "../content/page-slugs.ts";
import { listProductIdsForSitemap } from "../../server/catalog/catalog.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";

const STATIC_PATHS = ["/", "/shop", "/about", "/faq", "/contact", "/blogs"];

export async function loader() {
  const origin = config().siteUrl;
  const products = await listProductIdsForSitemap(getDb());
  const urls = [
    ...STATIC_PATHS.map((p) => `<url><loc>${origin}${p}</loc></url>`),
    ...contentPageSlugs.map((s) => `<url><loc>${origin}/${s}</loc></url>`),
    ...blogPosts.map((b) => `<url><loc>${origin}/blogs/${b.slug}</loc><lastmod>${b.publishedAt}</lastmod></url>`),
    ...products.map((p) => `<url><loc>${origin}/shop/${p.id}</loc><lastmod>${p.lastmod}</lastmod></url>`),
  ];
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
