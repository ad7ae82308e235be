import { readFile } from "node:fs/promises";
import type { Route } from "./+types/product-image";
import { getProductImageInfo } from "../../server/catalog/catalog.ts";
import { renderProductImageSvg } from "../../server/catalog/images.ts";
import { parseRenditionName, renditionPath } from "../../server/catalog/product-images.ts";
import { getDb } from "../../server/db/connection.ts";

const notFound = () => new Response("Image not found", { status: 404, headers: { "Content-Type": "text/plain" } });

/**
 * /images/products/:id/:n — `1.svg`…`4.svg`: the generated picture; `<file key>-<width>.webp`:
 * an uploaded photo's rendition. The file key is new for every upload, so those URLs never change
 * content and are cached for a year. Archived products keep their pictures (old orders show them).
 */
export async function loader({ params }: Route.LoaderArgs) {
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : NaN;
  const upload = parseRenditionName(params.n);
  if (upload) {
    if (!upload.fileKey.startsWith(`p${id}-`)) return notFound();
    const row = await getDb()
      .selectFrom("product_images")
      .select("id")
      .where("product_id", "=", id)
      .where("file_key", "=", upload.fileKey)
      .executeTakeFirst();
    if (!row) return notFound();
    const body = await readFile(renditionPath(upload.fileKey, upload.width)).catch(() => null);
    if (!body) return notFound();
    return new Response(new Uint8Array(body), {
      headers: {
        "Content-Type": "image/webp",
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
      },
    });
  }
  const match = /^([1-4])\.svg$/.exec(params.n);
  const info = match ? await getProductImageInfo(getDb(), id) : null;
  const n = match ? Number(match[1]) : 0;
  if (!info || n > info.image_count) return notFound();
  const svg = renderProductImageSvg({
    id: info.id,
    title: info.title,
    categorySlug: info.category_slug,
    color: info.colors[0] ?? "Yellow",
    index: n,
  });
  return new Response(svg, {
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
