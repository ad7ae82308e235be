import { data } from "react-router";
import type { Route } from "./+types/tax-certificate-file";
import { parseRowId } from "../../lib/order-rules.ts";
import { config } from "../../../server/config.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { certificateResponse } from "../../../server/tax/certificate-response.ts";
import { certificateFile } from "../../../server/tax/certificates.ts";

/** A certificate's file, for staff checking it. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { tax: ["view"] });
  const id = parseRowId(params.id);
  if (!id) throw data("Not found", { status: 404 });
  try {
    return certificateResponse(await certificateFile(getDb(), id, config().UPLOAD_DIR), id);
  } catch (error) {
    if (isDomainError(error)) throw data("Not found", { status: 404 });
    throw error;
  }
}

/** Nothing to post here; the guard answers first, so guests and customers learn nothing. */
export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { tax: ["view"] });
  return new Response("Method not allowed", { status: 405, headers: { Allow: "GET" } });
}
