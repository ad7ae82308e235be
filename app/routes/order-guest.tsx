import { data } from "react-router";
import type { Route } from "./+types/order-guest";
import { OrderDetail } from "../components/orders/OrderDetail.tsx";
import { getDb } from "../../server/db/connection.ts";
import { getOrderByAccessToken } from "../../server/orders/queries.ts";

export function meta() {
  return [{ title: "Your order | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

/** A guest's order, behind the unguessable link from the confirmation mail. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const order = await getOrderByAccessToken(getDb(), params.token);
  if (!order) throw data("Order not found", { status: 404 });
  return { order, placed: new URL(request.url).searchParams.has("placed") };
}

export default function GuestOrder({ loaderData }: Route.ComponentProps) {
  return <OrderDetail order={loaderData.order} placed={loaderData.placed} />;
}
