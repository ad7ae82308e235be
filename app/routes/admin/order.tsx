import { data } from "react-router";
import type { Route } from "./+types/order";
import { requireStaff } from "../../../server/staff/guard.ts";

// Placeholder until this page's slice of issue 12 lands; the guard answers first.
export function meta() {
  return [{ title: "Order | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { order: ["view"] });
  return {};
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { order: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function Page() {
  return <h1 className="text-3xl font-bold text-ink">Order</h1>;
}
