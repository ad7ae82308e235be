import { data } from "react-router";
import type { Route } from "./+types/newsletter";
import { NewsletterForm } from "../components/home/NewsletterForm.tsx";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import { defaultNewsletterDeps, newsletterAction } from "../../server/newsletter/action.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Newsletter",
    description: "Subscribe to the ToolHub Wholesale newsletter: trade deals, new arrivals and member offers.",
    path: "/newsletter",
    matches,
    noindex: true,
  });
}

export async function action({ request }: Route.ActionArgs) {
  const result = await newsletterAction(getDb(), request, defaultNewsletterDeps());
  return data(result.data, { status: result.status });
}

// The page a Subscribe without JavaScript lands on; with JavaScript the home page's fetcher
// shows the same result in place.
export default function Newsletter({ actionData }: Route.ComponentProps) {
  return (
    <div className="py-4">
      <NewsletterForm result={actionData} headingLevel={1} />
    </div>
  );
}
