import { data } from "react-router";
import type { Route } from "./+types/account-order";
import { OrderDetail } from "../components/orders/OrderDetail.tsx";
import { getSessionInfo } from "../../server/auth/session.ts";
import { getDb } from "../../server/db/connection.ts";
import { getOrderForUser } from "../../server/orders/queries.ts";

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `Order ${params.number} | ToolHub Wholesale` }, { name: "robots", content: "noindex" }];
}

/** Only the order's owner sees it; anyone else (or nobody signed in) gets the 404 page. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const session = await getSessionInfo(request);
  const order = session ? await getOrderForUser(getDb(), params.number, session.userId) : null;
  if (!order) throw data("Order not found", { status: 404 });
  return { order, placed: new URL(request.url).searchParams.has("placed") };
}

export default function AccountOrder({ loaderData }: Route.ComponentProps) {
  return <OrderDetail order={loaderData.order} placed={loaderData.placed} />;
}
