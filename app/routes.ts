import { index, route, type RouteConfig } from "@react-router/dev/routes";
import { contentPageSlugs } from "./content/page-slugs.ts";

export default [
  index("routes/home.tsx"),
  route("shop", "routes/shop.tsx"),
  route("shop/:id", "routes/product.tsx"),
  route("cart", "routes/cart.tsx"),
  route("wishlist", "routes/wishlist.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("about", "routes/about.tsx"),
  route("faq", "routes/faq.tsx"),
  route("contact", "routes/contact.tsx"),
  route("blogs", "routes/blogs.tsx"),
  route("blogs/:slug", "routes/blog-post.tsx"),
  route("account/orders", "routes/account-orders.tsx"),
  ...contentPageSlugs.map((slug) => route(slug, "routes/content-page.tsx", { id: `page-${slug}` })),
  route("newsletter", "routes/newsletter.tsx"),
  route("newsletter/confirm", "routes/newsletter-confirm.tsx"),
  route("newsletter/unsubscribe", "routes/newsletter-unsubscribe.tsx"),
  route("search/suggest", "routes/search-suggest.ts"),
  route("__test/error", "routes/test-error.tsx"),
  route("images/products/:id/:n", "routes/product-image.ts"),
  route("images/brands/:slug", "routes/brand-image.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
