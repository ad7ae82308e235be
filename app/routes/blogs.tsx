import { Link } from "react-router";
import type { Route } from "./+types/blogs";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { blogPosts } from "../content/blog.ts";
import { seo } from "../lib/seo.ts";
import { sharedPageMiddleware } from "../lib/cache-control.ts";
import { longDate } from "../lib/dates.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Blogs",
    description: "Guides and advice on choosing, using and caring for tools, from the ToolHub Wholesale team.",
    path: "/blogs",
    matches,
  });
}

/** The same for every anonymous visitor: a shared cache may keep it (app/lib/cache-control.ts). */
export const middleware = sharedPageMiddleware;

export default function Blogs() {
  return (
    <>
      <PageHeader title="Blogs" intro="Guides and advice from our team of tradespeople." />
      <ul className="mx-auto grid max-w-7xl gap-6 px-4 py-10 md:grid-cols-2">
        {blogPosts.map((post) => (
          <li key={post.slug} className="relative rounded-xl border border-slate-200 p-6 hover:shadow-md">
            <p className="text-sm text-slate-600">
              <time dateTime={post.publishedAt}>{longDate(post.publishedAt)}</time> · {post.author}
            </p>
            <h2 className="mt-2 text-xl font-bold text-ink">
              <Link to={`/blogs/${post.slug}`} className="after:absolute after:inset-0 after:content-['']">
                {post.title}
              </Link>
            </h2>
            <p className="mt-2 text-slate-700">{post.excerpt}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
