import type { Route } from "./+types/brand-image";
import { listFacets } from "../../server/catalog/catalog.ts";
import { renderBrandLogoSvg } from "../../server/catalog/images.ts";
import { getDb } from "../../server/db/connection.ts";

export async function loader({ params }: Route.LoaderArgs) {
  const slug = params.slug.replace(/\.svg$/, "");
  const brand = (await listFacets(getDb())).brands.find((b) => b.slug === slug);
  if (!brand || !params.slug.endsWith(".svg"))
    return new Response("Image not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(renderBrandLogoSvg(brand.name), {
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
