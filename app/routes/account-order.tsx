import { data, redirect } from "react-router";
import type { Route } from "./+types/account-order";
import { pageMarketContext } from "../lib/market-context.ts";
import type { MarketId } from "../lib/markets.ts";
import { OrderAgain } from "../components/orders/OrderAgain.tsx";
import { OrderDetail } from "../components/orders/OrderDetail.tsx";
import { getSessionInfo } from "../../server/auth/session.ts";
import { getDb } from "../../server/db/connection.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { getOrderForUser } from "../../server/orders/queries.ts";
import { orderAgain } from "../../server/orders/reorder.ts";
import { payFromOrderPage, paymentReturnParam, settleOnReturn } from "../../server/payments/order-page.ts";
import { paymentsFromConfig, returnOrigin } from "../../server/payments/stripe.ts";
import { clientIp } from "../../server/security/rate-limit.ts";
import { isDomainError } from "../../server/errors.ts";
import { requireCustomer } from "../../server/trade/guard.ts";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `Order ${params.number} | ToolHub Wholesale` }, { name: "robots", content: "noindex" }];
}

/** Only the order's owner sees it; anyone else (or nobody signed in) gets the 404 page. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const session = await getSessionInfo(request);
  const url = new URL(request.url);
  const returned = paymentReturnParam(url);
  // Settled now (paid, released…): load the page again, so every part of it (the header's cart too) shows the new state.
  if (
    session &&
    returned &&
    (await settleOnReturn(getDb(), paymentsFromConfig(), { number: params.number, userId: session.userId }, returned))
  )
    throw redirect(url.pathname + url.search);
  const order = session ? await getOrderForUser(getDb(), params.number, session.userId) : null;
  if (!order) throw data("Order not found", { status: 404 });
  return { order, placed: url.searchParams.has("placed"), returned };
}

/** "Order again": a signed-in customer's post from this store, within the limit on account changes. */
async function orderAgainAction(request: Request, number: string, market: MarketId) {
  const session = await requireCustomer(request);
  try {
    return { reorder: await orderAgain(getDb(), session.userId, number, market) };
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw data("Order not found", { status: 404 });
    throw error;
  }
}

/** "Order again"; else "Pay now" / "Try again" on a card order: on to Stripe's payment page for this same order. */
export async function action({ params, request, context }: Route.ActionArgs) {
  const form = await readSmallForm(request);
  if (form.get("intent") === "order-again")
    return orderAgainAction(request, params.number, context.get(pageMarketContext).market);
  const session = await getSessionInfo(request);
  if (!session) throw data("Order not found", { status: 404 });
  try {
    throw redirect(
      await payFromOrderPage(
        getDb(),
        paymentsFromConfig(),
        { number: params.number, userId: session.userId },
        returnOrigin(request),
        clientIp(request),
      ),
    );
  } catch (error) {
    if (isDomainError(error)) return data({ message: error.message }, { status: error.status });
    throw error;
  }
}

export default function AccountOrder({ loaderData, actionData }: Route.ComponentProps) {
  const reorder = actionData && "reorder" in actionData ? actionData.reorder : null;
  return (
    <>
      {actionData && "message" in actionData ? (
        <p role="alert" className="mx-auto mt-10 max-w-4xl rounded-lg bg-red-50 p-4 text-red-900">
          {actionData.message}
        </p>
      ) : null}
      <OrderDetail
        order={loaderData.order}
        placed={loaderData.placed}
        returned={loaderData.returned}
        invoiceHref={`/account/orders/${loaderData.order.number}/invoice.pdf`}
      />
      <OrderAgain number={loaderData.order.number} posted={reorder} />
    </>
  );
}
