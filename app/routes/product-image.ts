import type { Route } from "./+types/product-image";
import { getProductImageInfo } from "../../server/catalog/catalog.ts";
import { renderProductImageSvg } from "../../server/catalog/images.ts";
import { getDb } from "../../server/db/connection.ts";

export async function loader({ params }: Route.LoaderArgs) {
  const match = /^([1-4])\.svg$/.exec(params.n);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : NaN;
  const info = match ? await getProductImageInfo(getDb(), id) : null;
  const n = match ? Number(match[1]) : 0;
  if (!info || n > info.image_count) return new Response("Image not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const svg = renderProductImageSvg({ id: info.id, title: info.title, categorySlug: info.category_slug, color: info.colors[0] ?? "Yellow", index: n });
  return new Response(svg, {
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
