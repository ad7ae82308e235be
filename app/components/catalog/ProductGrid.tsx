import { useLayoutEffect, useRef, useState } from "react";
import { preload } from "react-dom";
import { CartSubmission, useSavedWishlist, useWishlistPost } from "../cart/ShopForms.tsx";
import { useLinkClicks } from "../../lib/link-clicks.ts";
import { productCardHtml, wishlistButtonState, type CardProduct } from "./card-html.ts";
import { FIVE_STARS_SRC } from "./Price.tsx";

/**
 * A grid of product cards. Each card is HTML built as a string (card-html.ts) that React leaves as
 * it is, so the grid itself handles what happens inside: a click on a card's link navigates in
 * place, its add-to-cart form is sent by a fetcher, and its wishlist button flips at once while the
 * change is on its way, in place, so the button keeps focus. Without JavaScript the cards' links
 * and forms work as plain HTML.
 */
export function ProductGrid({ products, eagerCount = 0, yourPrices = {} }: { products: readonly CardProduct[]; eagerCount?: number; yourPrices?: Record<number, number> }) {
  const current = useSavedWishlist();
  // The cards keep the wishlist as the page was first rendered with it (so a change never replaces
  // a card under the shopper's focus); the layout effect below shows the current state in place.
  const [firstSaved] = useState(current);
  // Read when a change settles, after the page's data may have been read again: the latest list.
  const saved = useRef(current);
  const wanted = useRef(new Map<number, { pressed: boolean; inFlight: number }>());
  const grid = useRef<HTMLUListElement>(null);
  const onLinkClick = useLinkClicks();
  const postWishlist = useWishlistPost();
  const [carts, setCarts] = useState<{ key: number; form: HTMLFormElement }[]>([]);
  const nextKey = useRef(0);

  const pressedOf = (productId: number) => wanted.current.get(productId)?.pressed ?? saved.current.includes(productId);
  /** Shows the wishlist state on the cards' buttons: every card's, or one product's. */
  const showWishlist = (only?: number) => {
    for (const button of grid.current?.querySelectorAll<HTMLButtonElement>('form[action="/wishlist"] button') ?? []) {
      const productId = productIdOf(button.form);
      if (only === undefined || productId === only) showPressed(button, pressedOf(productId));
    }
  };
  useLayoutEffect(() => {
    saved.current = current;
    showWishlist();
  });

  const onSubmit = (event: React.FormEvent<HTMLUListElement>) => {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
    const action = form.getAttribute("action");
    if (action === "/cart") {
      event.preventDefault();
      setCarts((list) => [...list, { key: ++nextKey.current, form }]);
    } else if (action === "/wishlist") {
      event.preventDefault();
      const productId = productIdOf(form);
      const entry = wanted.current.get(productId) ?? { pressed: false, inFlight: 0 };
      entry.pressed = !pressedOf(productId);
      entry.inFlight += 1;
      wanted.current.set(productId, entry);
      showWishlist(productId);
      void postWishlist(form, (event.nativeEvent as SubmitEvent).submitter, productId).finally(() => {
        entry.inFlight -= 1;
        if (entry.inFlight > 0) return;
        wanted.current.delete(productId);
        showWishlist(productId);
      });
    }
  };

  // React preloads the images it renders that load at once; it does not see the cards' own.
  products.forEach((product, i) => {
    if (i < eagerCount) preload(product.imageUrl, { as: "image" });
    if (i === 0) preload(FIVE_STARS_SRC, { as: "image" });
  });

  return (
    <>
      <ul ref={grid} className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-5" onClick={onLinkClick} onSubmit={onSubmit}>
        {products.map((product, i) => (
          <li
            key={product.id}
            className="flex"
            dangerouslySetInnerHTML={{ __html: productCardHtml(product, { eager: i < eagerCount, pressed: firstSaved.includes(product.id), yourPriceCents: yourPrices[product.id] }) }}
          />
        ))}
      </ul>
      {carts.map(({ key, form }) => (
        <CartSubmission key={key} form={form} onDone={() => setCarts((list) => list.filter((entry) => entry.key !== key))} />
      ))}
    </>
  );
}

function productIdOf(form: HTMLFormElement | null): number {
  const input = form?.elements.namedItem("productId");
  return input instanceof HTMLInputElement ? Number(input.value) : NaN;
}

function showPressed(button: HTMLButtonElement, pressed: boolean) {
  if (button.getAttribute("aria-pressed") === String(pressed)) return;
  const state = wishlistButtonState(pressed);
  button.setAttribute("aria-pressed", String(pressed));
  button.title = state.title;
  button.className = state.className;
  button.querySelector("svg")?.setAttribute("fill", state.fill);
}
