import { data } from "react-router";
import type { Route } from "./+types/test-error";
import { requireStaff } from "../../../server/staff/guard.ts";

/**
 * Lets the end-to-end suite see the back office's error page. Guarded like every back-office
 * route; answers 404 unless the server runs with E2E=1.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request);
  if (process.env.E2E !== "1") throw data("Not found", { status: 404 });
  throw new Error("Deliberate failure for the error-page test");
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request);
  throw data("Method not allowed", { status: 405 });
}

export default function AdminTestError() {
  return null;
}
