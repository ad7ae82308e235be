// A product card as an HTML string. A grid of cards is the largest part of a results page, and
// React spends about 1.6 µs on each of a card's 32 elements on every render; a string costs a
// fraction of that (decision 0031). The grid (ProductGrid) handles the cards' links and forms.
import type { ProductSummary } from "../../lib/catalog-types.ts";
import { escapeHtml } from "../../lib/html-escape.ts";
import { formatMoney } from "../../lib/money.ts";
import type { TextSegment } from "../../../server/catalog/search-types.ts";
import { highlightHtml } from "../search/Highlight.tsx";
import { CART_PATH, CART_WHEELS, HEART_PATH } from "../ui/icons.tsx";
import { discountBadgeHtml, FIVE_STARS_HTML, priceHtml } from "./Price.tsx";

export interface CardProduct extends Pick<ProductSummary, "id" | "title" | "priceCents" | "discountPercent" | "salePriceCents" | "imageUrl" | "stockQuantity"> {
  /** The title with the words a search matched; the plain title when absent. */
  titleSegments?: readonly TextSegment[];
  /** A short extract under the title (where a search matched the description). */
  snippet?: readonly TextSegment[] | null;
}

/** Only what a card shows: what a page's data needs to carry to the browser for its cards. */
export function cardFields({ id, title, priceCents, discountPercent, salePriceCents, imageUrl, stockQuantity, titleSegments, snippet }: CardProduct): CardProduct {
  return { id, title, priceCents, discountPercent, salePriceCents, imageUrl, stockQuantity, titleSegments, snippet };
}

export interface CardOptions {
  eager: boolean;
  /** Whether the product is in the shopper's wishlist. */
  pressed: boolean;
  /** A signed-in trade buyer's own price, when below the list price. */
  yourPriceCents?: number;
}

const svgOpen = (fill: string) =>
  `<svg viewBox="0 0 24 24" width="18" height="18" fill="${fill}" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">`;
const CART_SVG = `${svgOpen("none")}${CART_WHEELS.map(([cx, cy]) => `<circle cx="${cx}" cy="${cy}" r="1"></circle>`).join("")}<path d="${CART_PATH}"></path></svg>`;
const HEART_SVGS = [false, true].map((pressed) => `${svgOpen(wishlistButtonState(pressed).fill)}<path d="${HEART_PATH}"></path></svg>`);

/** The card's wishlist button as it shows its state; the grid sets the same in place when it changes. */
export function wishlistButtonState(pressed: boolean) {
  return {
    title: pressed ? "In your wishlist" : "Add to wishlist",
    className: `rounded-full p-2 shadow hover:bg-brand-100 ${pressed ? "bg-brand-500 text-ink" : "bg-white text-ink"}`,
    fill: pressed ? "currentColor" : "none",
  };
}

const ARTICLE_OPEN =
  '<article class="group relative flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md focus-within:shadow-md"><div class="relative aspect-square bg-slate-50">';
const ACTIONS_OPEN =
  '<div class="absolute top-2 right-2 z-10 flex flex-col gap-2 opacity-100 transition-opacity sm:opacity-0 sm:group-hover:opacity-100 sm:group-focus-within:opacity-100">';
const CART_BUTTON_CLASS = "rounded-full bg-white p-2 text-ink shadow hover:bg-brand-100 disabled:opacity-50";
const TITLE_LINK_CLASS = "after:absolute after:inset-0 after:content-[&#39;&#39;]";

export function productCardHtml(product: CardProduct, { eager, pressed, yourPriceCents }: CardOptions): string {
  const id = Number(product.id);
  const title = escapeHtml(product.title);
  const wishlist = wishlistButtonState(pressed);
  return (
    ARTICLE_OPEN +
    `<img src="${escapeHtml(product.imageUrl)}" alt="${title}" width="600" height="600" loading="${eager ? "eager" : "lazy"}" decoding="async" class="h-full w-full object-contain"/>` +
    `<div class="absolute top-2 left-2">${discountBadgeHtml(product.discountPercent)}</div>` +
    ACTIONS_OPEN +
    `<form data-discover="true" action="/cart" method="post"><input type="hidden" name="productId" value="${id}"/>` +
    `<button type="submit" aria-label="Add to cart" title="Add to cart"${product.stockQuantity === 0 ? ' disabled=""' : ""} class="${CART_BUTTON_CLASS}">${CART_SVG}</button></form>` +
    `<form action="/wishlist" method="post"><input type="hidden" name="intent" value="toggle"/><input type="hidden" name="productId" value="${id}"/>` +
    `<button type="submit" aria-label="Add to wishlist" aria-pressed="${pressed}" title="${wishlist.title}" class="${wishlist.className}">${HEART_SVGS[pressed ? 1 : 0]}</button></form>` +
    "</div></div>" +
    `<div class="flex flex-1 flex-col gap-2 p-4"><h3 class="line-clamp-2 text-sm font-semibold text-ink"><a class="${TITLE_LINK_CLASS}" href="/shop/${id}" data-discover="true">` +
    `${product.titleSegments ? highlightHtml(product.titleSegments) : title}</a></h3>` +
    (product.snippet ? `<p class="line-clamp-3 text-xs text-slate-700">${highlightHtml(product.snippet)}</p>` : "") +
    FIVE_STARS_HTML +
    `<div class="mt-auto">${priceHtml(product)}` +
    (yourPriceCents != null ? `<p class="text-sm font-semibold text-green-800" data-testid="your-price">Your price ${escapeHtml(formatMoney(yourPriceCents))}</p>` : "") +
    "</div></div></article>"
  );
}
