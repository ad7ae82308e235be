import type { Route } from "./+types/products-export";
import { requireStaff } from "../../../server/staff/guard.ts";

// Placeholder until this page's slice of issue 12 lands; the guard answers first.
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { product: ["export"] });
  return new Response("", { headers: { "Content-Type": "text/csv; charset=utf-8" } });
}
