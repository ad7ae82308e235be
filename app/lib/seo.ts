import type { MetaDescriptor } from "react-router";
import { STORE_NAME } from "./site.ts";
import { DEFAULT_MARKET, MARKETS, marketPath, type MarketId } from "./markets.ts";

type AnyMatch = { id: string; loaderData?: unknown } | undefined;

function rootData(matches: readonly AnyMatch[]): { siteUrl?: string; market?: MarketId } | undefined {
  return matches.find((m) => m?.id === "root")?.loaderData as { siteUrl?: string; market?: MarketId } | undefined;
}

/** The public origin, read from the root loader's data so every route's meta can use it. */
export function siteUrlFrom(matches: readonly AnyMatch[]): string {
  return rootData(matches)?.siteUrl ?? "";
}

export interface SeoInput {
  title: string;
  description: string;
  path: string;
  matches: readonly AnyMatch[];
  image?: string;
  type?: "website" | "product" | "article";
  noindex?: boolean;
  /**
   * A catalog page, whose prices are its market's: its canonical URL is the market's own
   * (`?market=uk` for the UK) and it lists each market's URL as an hreflang alternate.
   */
  perMarket?: boolean;
}

/** A page's title as the browser shows it: the page's own, then the store's name. */
function pageTitle(title: string): string {
  return title === STORE_NAME ? title : `${title} | ${STORE_NAME}`;
}

export function seo({
  title,
  description,
  path,
  matches,
  image,
  type = "website",
  noindex,
  perMarket,
}: SeoInput): MetaDescriptor[] {
  const origin = siteUrlFrom(matches);
  const market = rootData(matches)?.market ?? DEFAULT_MARKET;
  const url = `${origin}${perMarket ? marketPath(path, market) : path}`;
  const fullTitle = pageTitle(title);
  const imageUrl = `${origin}${image ?? "/images/content/og-default.svg"}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: STORE_NAME },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: type },
    { property: "og:url", content: url },
    { property: "og:image", content: imageUrl },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (noindex) tags.push({ name: "robots", content: "noindex" });
  else if (perMarket) tags.push(...marketAlternates(origin, path));
  return tags;
}

/** `<link rel="alternate" hreflang>` for each market's URL of a page, and the default one. */
function marketAlternates(origin: string, path: string): MetaDescriptor[] {
  return [
    ...Object.values(MARKETS).map((m) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: m.locale,
      href: `${origin}${marketPath(path, m.id)}`,
    })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: `${origin}${marketPath(path, DEFAULT_MARKET)}` },
  ];
}
