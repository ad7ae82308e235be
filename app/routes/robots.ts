import { config } from "../../server/config.ts";

export function loader() {
  const body = [
    "User-agent: *",
    "Disallow: /cart",
    "Disallow: /wishlist",
    "Disallow: /account",
    "Disallow: /login",
    "Disallow: /register",
    "",
    `Sitemap: ${config().siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
