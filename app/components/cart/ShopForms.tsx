import { useEffect } from "react";
import { useFetcher, useRouteLoaderData } from "react-router";
import type { RootData } from "../../root.tsx";
import { useAlert } from "../ui/Alert.tsx";

type ActionReply = { ok: boolean; message: string };

function useReplyAlert(data: ActionReply | undefined, state: string) {
  const alert = useAlert();
  useEffect(() => {
    if (state === "idle" && data?.message) alert.show(data.message, { tone: data.ok ? "success" : "error", durationMs: data.ok ? 1500 : 4000 });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, state]);
}

/**
 * A form that adds a product to the cart. With JavaScript it stays on the page and the header's
 * count updates; without it, it posts to /cart like any form.
 */
export function AddToCartForm({ productId, children, className }: { productId: number; children: React.ReactNode; className?: string }) {
  const fetcher = useFetcher<ActionReply>();
  useReplyAlert(fetcher.data, fetcher.state);
  return (
    <fetcher.Form method="post" action="/cart" className={className}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      {children}
    </fetcher.Form>
  );
}

/** Whether a product is in the wishlist, counting a toggle that is still on its way. */
export function useInWishlist(productId: number, pending?: FormData) {
  const root = useRouteLoaderData("root") as RootData | undefined;
  const saved = root?.wishlistIds.includes(productId) ?? false;
  if (pending && pending.get("intent") === "toggle" && Number(pending.get("productId")) === productId) return !saved;
  return saved;
}

/** A wishlist toggle; its button reports the state with aria-pressed. */
export function WishlistToggle({
  productId,
  className,
  renderButton,
}: {
  productId: number;
  className?: string;
  renderButton: (pressed: boolean) => React.ReactNode;
}) {
  const fetcher = useFetcher<ActionReply>();
  useReplyAlert(fetcher.data, fetcher.state);
  const pressed = useInWishlist(productId, fetcher.formData);
  return (
    <fetcher.Form method="post" action="/wishlist" className={className}>
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="productId" value={productId} />
      {renderButton(pressed)}
    </fetcher.Form>
  );
}
