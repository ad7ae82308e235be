import { data, Link } from "react-router";
import type { Route } from "./+types/blog-post";
import { ContentBody } from "../components/layout/ContentBody.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { findBlogPost } from "../content/blog.ts";
import { seo } from "../lib/seo.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { longDate } from "../lib/dates.ts";

export function loader({ params }: Route.LoaderArgs) {
  const post = findBlogPost(params.slug);
  if (!post) throw data("Article not found", { status: 404 });
  return { post };
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { post } = loaderData;
  return seo({
    title: post.title,
    description: post.description,
    path: `/blogs/${post.slug}`,
    matches,
    type: "article",
  });
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export default function BlogPostRoute({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <article>
      <PageHeader title={post.title} intro={`By ${post.author} · ${longDate(post.publishedAt)}`} />
      <ContentBody sections={post.sections} />
      <p className="mx-auto max-w-3xl px-4">
        <Link to="/blogs" className="font-semibold text-brand-800 hover:underline">
          ← All articles
        </Link>
      </p>
    </article>
  );
}
