import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/order-guest";
import { OrderDetail } from "../components/orders/OrderDetail.tsx";
import { getDb } from "../../server/db/connection.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { confirmGuestOrderAction } from "../../server/orders/checkout.ts";
import { expireGuestOrderIfOverdue, guestHoldView } from "../../server/orders/holds.ts";
import { getOrderByAccessToken } from "../../server/orders/queries.ts";
import { isDomainError } from "../../server/errors.ts";
import { payFromOrderPage, paymentReturnParam, settleOnReturn } from "../../server/payments/order-page.ts";
import { paymentsFromConfig, returnOrigin } from "../../server/payments/stripe.ts";
import { clientIp } from "../../server/security/rate-limit.ts";

export function meta() {
  return [{ title: "Your order | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

/** A guest's order, behind the unguessable link from the mail. A hold that ran out is released first. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const db = getDb();
  const url = new URL(request.url);
  const returned = paymentReturnParam(url);
  // Settled now (paid, released…): load the page again, so every part of it (the header's cart too) shows the new state.
  if (returned && (await settleOnReturn(db, paymentsFromConfig(), { accessToken: params.token }, returned)))
    throw redirect(url.pathname + url.search);
  await expireGuestOrderIfOverdue(db, params.token);
  const order = await getOrderByAccessToken(db, params.token);
  if (!order) throw data("Order not found", { status: 404 });
  const hold = await guestHoldView(db, params.token, url.searchParams.get("confirm"));
  return {
    order,
    hold,
    placed: url.searchParams.has("placed"),
    confirmed: url.searchParams.has("confirmed"),
    returned,
  };
}

/**
 * "Confirm order": a POST (a mail filter that follows the link only GETs it), with the secret
 * from the mail's link, which the form posts back as part of this page's URL.
 */
export async function action({ params, request }: Route.ActionArgs) {
  const form = await readSmallForm(request);
  if (form.get("intent") === "pay") {
    // "Pay now" / "Try again" on a card order: on to Stripe's payment page for this same order.
    try {
      throw redirect(
        await payFromOrderPage(
          getDb(),
          paymentsFromConfig(),
          { accessToken: params.token },
          returnOrigin(request),
          clientIp(request),
        ),
      );
    } catch (error) {
      if (isDomainError(error)) return data({ message: error.message }, { status: error.status });
      throw error;
    }
  }
  const confirmToken = new URL(request.url).searchParams.get("confirm") ?? "";
  const result = await confirmGuestOrderAction(getDb(), { accessToken: params.token, confirmToken, request });
  if (result.ok)
    throw redirect(result.outcome === "expired" ? `/orders/${params.token}` : `/orders/${params.token}?confirmed=1`);
  return data(
    { message: result.message },
    {
      status: result.status,
      headers: result.retryAfterSeconds ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
    },
  );
}

function Notice({ tone, children }: { tone: "info" | "warning"; children: React.ReactNode }) {
  const style = tone === "info" ? "bg-blue-50 text-blue-950" : "bg-amber-50 text-amber-950";
  return (
    <div role="status" className={`mb-6 rounded-lg p-4 ${style}`}>
      {children}
    </div>
  );
}

export default function GuestOrder({ loaderData, actionData, params }: Route.ComponentProps) {
  const { order, hold, placed, confirmed, returned } = loaderData;
  const card = order.payment !== null;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const minutes = `${hold?.minutesLeft ?? 0} minute${hold?.minutesLeft === 1 ? "" : "s"}`;
  return (
    <>
      {order.status === "awaiting_confirmation" || (order.status === "expired" && !card) || actionData?.message ? (
        <div className="mx-auto max-w-4xl px-4 pt-10">
          {actionData?.message ? (
            <p role="alert" className="mb-6 rounded-lg bg-red-50 p-4 text-red-900">
              {actionData.message}
            </p>
          ) : null}
          {order.status === "awaiting_confirmation" && placed ? (
            <Notice tone="info">
              <p>
                Thank you! Your order <strong>{order.number}</strong> is reserved for you.{" "}
                <strong>Check your email to confirm your order within {minutes}.</strong> We sent a link to{" "}
                {order.email}; the order is not placed until you confirm it.
              </p>
            </Notice>
          ) : null}
          {order.status === "awaiting_confirmation" && !placed ? (
            <Notice tone="warning">
              <p>
                <strong>This order is waiting for your confirmation.</strong> Confirm it within {minutes}, or it will be
                cancelled and its items released.
              </p>
              {hold?.canConfirm ? (
                <Form method="post" className="mt-3">
                  <button type="submit" className="btn-primary" disabled={busy}>
                    Confirm order
                  </button>
                </Form>
              ) : (
                <p className="mt-2">To confirm it, open the link in the email we sent to {order.email}.</p>
              )}
            </Notice>
          ) : null}
          {order.status === "expired" && !card ? (
            <Notice tone="warning">
              <p>
                <strong>This order expired because it was not confirmed</strong> in time. Its items went back on sale;
                nothing will be shipped or charged.{" "}
                <Link to="/shop" className="font-semibold underline">
                  Continue shopping
                </Link>
              </p>
            </Notice>
          ) : null}
        </div>
      ) : null}
      <OrderDetail
        order={order}
        placed={order.status === "placed" && (confirmed || placed)}
        returned={returned}
        invoiceHref={`/orders/${params.token}/invoice.pdf`}
      />
    </>
  );
}
