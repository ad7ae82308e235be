import { data } from "react-router";
import type { Route } from "./+types/account-tax-exemption-file";
import { parseRowId } from "../lib/order-rules.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { certificateResponse } from "../../server/tax/certificate-response.ts";
import { certificateFile } from "../../server/tax/certificates.ts";
import { requireCompanyMember } from "../../server/trade/guard.ts";

/** A certificate's file, for the members of the company it belongs to; anyone else gets a 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const db = getDb();
  const { company } = await requireCompanyMember(db, request);
  const id = parseRowId(params.id);
  const notFound = () => data("Not found", { status: 404 });
  if (!id) throw notFound();
  try {
    const file = await certificateFile(db, id, config().UPLOAD_DIR);
    if (file.organizationId !== company.organization_id) throw notFound();
    return certificateResponse(file, id);
  } catch (error) {
    if (isDomainError(error)) throw notFound();
    throw error;
  }
}
