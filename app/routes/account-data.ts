import { redirect } from "react-router";
import type { Route } from "./+types/account-data";
import { getSessionInfo } from "../../server/auth/session.ts";
import { getDb } from "../../server/db/connection.ts";
import { defaultPrivacyDeps, downloadDataAction } from "../../server/privacy/actions.ts";

/** The download is a POST from /account (it needs the password); a GET goes back there. */
export function loader() {
  throw redirect("/account#your-data");
}

export async function action({ request }: Route.ActionArgs) {
  return downloadDataAction(getDb(), request, await getSessionInfo(request), defaultPrivacyDeps());
}
