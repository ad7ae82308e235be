import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/logout";
import { WarningIcon } from "../components/account/LogoutDialog.tsx";
import { StaticAlert } from "../components/ui/Alert.tsx";
import { callAuthEndpoint, withCookies } from "../../server/auth/forward.ts";

export function meta() {
  return [{ title: "Logout | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export function loader({ request }: Route.LoaderArgs) {
  return { done: new URL(request.url).searchParams.has("done") };
}

/** Without JavaScript the header's Logout button (a GET form) lands here; Yes posts to this action. */
export async function action({ request }: Route.ActionArgs) {
  const result = await callAuthEndpoint(request, "/sign-out", {});
  throw redirect("/logout?done=1", { headers: withCookies({}, result.setCookies) });
}

export default function Logout({ loaderData }: Route.ComponentProps) {
  if (loaderData.done) {
    return (
      <div className="mx-auto max-w-md px-4 py-16 text-center">
        <StaticAlert tone="success" text="You successfully Logout." />
        <h1 className="text-2xl font-bold text-ink">Logout!</h1>
        <p className="mt-2 text-slate-700">You successfully Logout.</p>
        <Link to="/" className="btn-primary mt-6">
          Go Home
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-sm px-4 py-16 text-center">
      <WarningIcon />
      <h1 className="mt-3 text-lg font-bold text-ink">Are you sure you want to Logout?</h1>
      <Form method="post" className="mt-6 flex justify-center gap-3" reloadDocument>
        <button type="submit" className="btn-primary">
          Yes
        </button>
        <Link to="/" className="btn-outline">
          Cancel
        </Link>
      </Form>
    </div>
  );
}
