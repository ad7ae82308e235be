import type { MetaDescriptor } from "react-router";
import { STORE_NAME } from "./site.ts";

type AnyMatch = { id: string; loaderData?: unknown } | undefined;

/** The public origin, read from the root loader's data so every route's meta can use it. */
export function siteUrlFrom(matches: readonly AnyMatch[]): string {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { siteUrl?: string } | undefined;
  return root?.siteUrl ?? "";
}

export interface SeoInput {
  title: string;
  description: string;
  path: string;
  matches: readonly AnyMatch[];
  image?: string;
  type?: "website" | "product" | "article";
  noindex?: boolean;
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
}: SeoInput): MetaDescriptor[] {
  const origin = siteUrlFrom(matches);
  const url = `${origin}${path}`;
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
  return tags;
}
