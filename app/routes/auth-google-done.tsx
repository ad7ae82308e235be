import { useEffect } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/auth-google-done";
import { GOOGLE_POPUP_MESSAGE } from "../components/account/GoogleButton.tsx";
import { getSessionInfo } from "../../server/auth/session.ts";
import { STAFF_PASSWORD_ONLY } from "../lib/auth-rules.ts";

const ERRORS: Record<string, string> = {
  [STAFF_PASSWORD_ONLY]: "staffPasswordOnly",
  account_not_linked: "notLinked",
  access_denied: "closed",
};

/** Where the Google popup lands: it tells the opener how sign-in went, then closes. */
export async function loader({ request }: Route.LoaderArgs) {
  const error = new URL(request.url).searchParams.get("error");
  const session = error ? null : await getSessionInfo(request);
  return {
    ok: Boolean(session),
    error: error ? (ERRORS[error] ?? "internal") : session ? undefined : "internal",
    user: session
      ? { name: session.user.fullName, email: session.user.email, image: session.user.profilePhoto }
      : undefined,
  };
}

export function meta() {
  return [{ title: "Signing in… | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export default function GoogleDone({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    const opener = window.opener as Window | null;
    if (opener && !opener.closed) {
      opener.postMessage({ type: GOOGLE_POPUP_MESSAGE, ...loaderData }, window.location.origin);
      window.close();
    }
  }, [loaderData]);
  return (
    <div className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-xl font-bold text-ink">
        {loaderData.ok ? "You're signed in" : "Google sign-in didn't finish"}
      </h1>
      <p className="mt-3 text-slate-700">You can close this window.</p>
      <Link to={loaderData.ok ? "/" : "/login"} className="btn-primary mt-6">
        Continue
      </Link>
    </div>
  );
}
