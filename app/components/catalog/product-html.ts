// The parts of a product page that only show text, as HTML strings: the heading with its price and
// stock, and the description, features, specifications and return policy. React spent about 2 µs
// of server time on each of their elements for every uncached page, where a string costs a
// fraction of that (as the product cards do, decision 0031; here decision 0033). The page's island
// builds the same strings from the same data, so they hydrate as they were written.
import type { ProductDetail } from "../../lib/catalog-types.ts";
import { escapeHtml } from "../../lib/html-escape.ts";
import { discountBadgeHtml, FIVE_STARS_HTML, priceHtml } from "./Price.tsx";

type Summary = Pick<ProductDetail, "categoryName" | "title" | "priceCents" | "salePriceCents" | "discountPercent" | "stockQuantity">;
type Details = Pick<ProductDetail, "description" | "features" | "brandName" | "model" | "material" | "weightGrams" | "countryOfOrigin" | "manufacturer" | "returnPolicy">;

/** Category, title, stars, price and discount, and whether it is in stock. */
export function productSummaryHtml(product: Summary): string {
  const inStock = product.stockQuantity > 0;
  return (
    `<p class="text-sm font-semibold text-brand-800">${escapeHtml(product.categoryName)}</p>` +
    `<h1 class="mt-1 text-3xl font-bold text-ink">${escapeHtml(product.title)}</h1>` +
    `<div class="mt-2">${FIVE_STARS_HTML}</div>` +
    `<div class="mt-4 flex flex-wrap items-center gap-3">${priceHtml({ ...product, size: "lg" })}${discountBadgeHtml(product.discountPercent)}</div>` +
    `<p class="text-sm text-slate-700">Tax included</p>` +
    `<p class="mt-3 font-semibold ${inStock ? "text-green-800" : "text-red-700"}" data-testid="stock">${inStock ? `In Stock (${Number(product.stockQuantity)})` : "Stock out"}</p>`
  );
}

/** The description, the features, the specifications table and the return policy. */
export function productDetailsHtml(product: Details): string {
  const specs: [string, string][] = [
    ["Brand", product.brandName],
    ["Model", product.model],
    ["Material", product.material],
    ["Weight (gm)", String(product.weightGrams)],
    ["Country of origin", product.countryOfOrigin],
    ["Manufacturer", product.manufacturer],
  ];
  const features = product.features.length ? `<ul class="mt-3 list-disc space-y-1 pl-5 text-slate-700">${product.features.map((f) => `<li>${escapeHtml(f)}</li>`).join("")}</ul>` : "";
  const rows = specs
    .map(([label, value]) => `<tr class="border-b border-slate-200"><th scope="row" class="w-48 py-2 font-semibold text-ink">${label}</th><td class="py-2 text-slate-700">${escapeHtml(value)}</td></tr>`)
    .join("");
  return (
    `<h2 class="mt-8 text-lg font-semibold text-ink">Description</h2>` +
    `<p class="mt-2 leading-relaxed text-slate-700">${escapeHtml(product.description)}</p>` +
    features +
    `<table class="mt-6 w-full text-left text-sm"><caption class="sr-only">Specifications</caption><tbody>${rows}</tbody></table>` +
    `<p class="mt-6 rounded-md bg-brand-50 p-3 text-sm text-slate-800"><strong>Return policy:</strong> ${escapeHtml(product.returnPolicy)}</p>`
  );
}
