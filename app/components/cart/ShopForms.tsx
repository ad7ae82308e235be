import { useEffect, useRef, useState, type ButtonHTMLAttributes } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { urlEncoded } from "../../lib/url-encoded.ts";
import { useVisitor } from "../../lib/visitor.ts";
import { useAlert } from "../ui/Alert.tsx";

type ActionReply = { ok: boolean; message: string };

function useReplyAlert(data: ActionReply | undefined, state: string) {
  const alert = useAlert();
  useEffect(() => {
    if (state === "idle" && data?.message)
      alert.show(data.message, { tone: data.ok ? "success" : "error", durationMs: data.ok ? 1500 : 4000 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, state]);
}

/**
 * A form that adds a product to the cart. With JavaScript it stays on the page and the header's
 * count updates; without it, it posts to /cart like any form. It sends no intent: the cart's
 * default is "add", so a second submit button (the product page's WishlistButton) can carry its own.
 */
export function AddToCartForm({
  productId,
  children,
  className,
}: {
  productId: number;
  children: React.ReactNode;
  className?: string;
}) {
  const fetcher = useFetcher<ActionReply>();
  useReplyAlert(fetcher.data, fetcher.state);
  return (
    <fetcher.Form method="post" action="/cart" className={className}>
      <input type="hidden" name="productId" value={productId} />
      {children}
    </fetcher.Form>
  );
}

/** An add-to-cart form holding only its button, which is off while the product is out of stock. */
export function AddToCartButton({
  product,
  children,
  ...button
}: { product: { id: number; stockQuantity: number } } & Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  "type" | "disabled"
>) {
  return (
    <AddToCartForm productId={product.id}>
      <button type="submit" disabled={product.stockQuantity === 0} {...button}>
        {children}
      </button>
    </AddToCartForm>
  );
}

/** Where the wishlist toggle posts with JavaScript: /wishlist's action, answered as JSON. */
const WISHLIST_UPDATE_URL = "/wishlist/update";

/**
 * Sends one wishlist toggle as a keepalive fetch started in the click itself, so leaving the page
 * straight after (a link, a reload, closing the tab) does not cancel it. Alerts the answer, then
 * reads the page's data again; the promise settles once that is done.
 */
function useWishlistPost() {
  const alert = useAlert();
  const revalidator = useRevalidator();
  return (form: HTMLFormElement, submitter: HTMLElement | null, productId: number): Promise<unknown> => {
    const body = urlEncoded(new FormData(form, submitter));
    body.set("intent", "toggle");
    body.set("productId", String(productId));
    return fetch(WISHLIST_UPDATE_URL, {
      method: "POST",
      body,
      keepalive: true,
      credentials: "same-origin",
      headers: { accept: "application/json" },
    })
      .then(async (response) => {
        const reply = (await response.json().catch(() => null)) as ActionReply | null;
        if (!reply?.message) throw new Error(String(response.status));
        alert.show(reply.message, { tone: reply.ok ? "success" : "error", durationMs: reply.ok ? 1500 : 4000 });
      })
      .catch(() =>
        alert.show("We couldn't update your wishlist. Check your connection and try again.", {
          tone: "error",
          durationMs: 4000,
        }),
      )
      .then(() => revalidator.revalidate());
  };
}

/** A wishlist toggle as the shopper sees it: pressed from the server's list, flipped at once while a change is on its way. */
function useWishlistToggle(productId: number) {
  const saved = useVisitor().wishlistIds.includes(productId);
  const [wanted, setWanted] = useState<boolean | null>(null);
  const inFlight = useRef(0);
  const post = useWishlistPost();
  const pressed = wanted ?? saved;

  function send(form: HTMLFormElement, submitter: HTMLElement | null) {
    setWanted(!pressed);
    inFlight.current += 1;
    void post(form, submitter, productId).finally(() => {
      inFlight.current -= 1;
      if (inFlight.current === 0) setWanted(null);
    });
  }
  return { pressed, send };
}

/**
 * A wishlist toggle in its own form (cards, carousel): one submit button that reports the state with
 * aria-pressed; `button` gives its other attributes and content for the current state.
 */
export function WishlistToggle({
  productId,
  className,
  button,
}: {
  productId: number;
  className?: string;
  button: (pressed: boolean) => Omit<React.ButtonHTMLAttributes<HTMLButtonElement>, "type" | "aria-pressed">;
}) {
  const { pressed, send } = useWishlistToggle(productId);
  return (
    <form
      method="post"
      action="/wishlist"
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        send(event.currentTarget, event.nativeEvent.submitter);
      }}
    >
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="productId" value={productId} />
      <button type="submit" aria-pressed={pressed} {...button(pressed)} />
    </form>
  );
}

/**
 * Add to Wishlist as a second submit button of the product page's AddToCartForm, so the chosen
 * color goes with it, with or without JavaScript (without, the browser posts the form to /wishlist).
 */
export function WishlistButton({
  productId,
  className,
  children,
}: {
  productId: number;
  className?: string;
  children: React.ReactNode;
}) {
  const { pressed, send } = useWishlistToggle(productId);
  return (
    <button
      type="submit"
      name="intent"
      value="toggle"
      formAction="/wishlist"
      formMethod="post"
      className={className}
      aria-pressed={pressed}
      onClick={(event) => {
        const form = event.currentTarget.form;
        if (!form) return;
        event.preventDefault();
        send(form, event.currentTarget);
      }}
    >
      {children}
    </button>
  );
}
