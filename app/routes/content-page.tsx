import { data } from "react-router";
import type { Route } from "./+types/content-page";
import { ContentBody } from "../components/layout/ContentBody.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { findContentPage } from "../content/pages.ts";
import { seo } from "../lib/seo.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { longDate } from "../lib/dates.ts";

export function loader({ url }: Route.LoaderArgs) {
  const slug = url.pathname.replace(/^\/|\/$/g, "");
  const page = findContentPage(slug);
  if (!page) throw data("Page not found", { status: 404 });
  return { page };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { page } = loaderData;
  return seo({ title: page.title, description: page.description, path: `/${page.slug}`, matches, type: "article" });
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export default function ContentPageRoute({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <>
      <PageHeader title={page.title} intro={`Last updated ${longDate(page.updated)}`} />
      <ContentBody sections={page.sections} />
    </>
  );
}
