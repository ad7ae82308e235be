import { data } from "react-router";
import type { Route } from "./+types/customers";
import { requireStaff } from "../../../server/staff/guard.ts";

// Placeholder until this page's slice of issue 12 lands; the guard answers first.
export function meta() {
  return [{ title: "Customers | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { customer: ["view"] });
  return {};
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { customer: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

export default function Page() {
  return <h1 className="text-3xl font-bold text-ink">Customers</h1>;
}
