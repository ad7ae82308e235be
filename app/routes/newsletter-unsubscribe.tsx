import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/newsletter-unsubscribe";
import { NewsletterNotice } from "../components/forms/NewsletterNotice.tsx";
import { NEWSLETTER_MESSAGES } from "../components/forms/rules.ts";
import { readPostedToken } from "../lib/forms.ts";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import { checkUnsubscribeToken, unsubscribe, type UnsubscribeOutcome } from "../../server/newsletter/newsletter.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Unsubscribe",
    description: "Unsubscribe from the ToolHub Wholesale newsletter.",
    path: "/newsletter/unsubscribe",
    matches,
    noindex: true,
  });
}

// GET only shows the Unsubscribe button (link scanners prefetch GETs). The POST unsubscribes; it is
// also the RFC 8058 one-click target that List-Unsubscribe-Post announces (token in the URL).
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { state: await checkUnsubscribeToken(getDb(), token), token };
}

const invalidLink: UnsubscribeOutcome = "invalid";

export async function action({ request }: Route.ActionArgs) {
  const token = await readPostedToken(request);
  if (token == null) return data({ outcome: invalidLink }, { status: 413 });
  const outcome = await unsubscribe(getDb(), token);
  return data({ outcome }, { status: outcome === "invalid" ? 404 : 200 });
}

const MESSAGES: Record<UnsubscribeOutcome, { text: string; tone: "success" | "error" }> = {
  unsubscribed: { text: NEWSLETTER_MESSAGES.unsubscribed, tone: "success" },
  "already-unsubscribed": { text: NEWSLETTER_MESSAGES.alreadyUnsubscribed, tone: "success" },
  invalid: { text: NEWSLETTER_MESSAGES.unsubscribeInvalid, tone: "error" },
};

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const outcome: UnsubscribeOutcome | null =
    actionData?.outcome ??
    (loaderData.state === "already-unsubscribed"
      ? "already-unsubscribed"
      : loaderData.state === "invalid"
        ? "invalid"
        : null);
  if (outcome) {
    const m = MESSAGES[outcome];
    return (
      <NewsletterNotice
        title={outcome === "invalid" ? "Unsubscribe link not valid" : "You're unsubscribed"}
        message={m.text}
        tone={m.tone}
      />
    );
  }
  return (
    <NewsletterNotice title="Unsubscribe from the newsletter" tone="info">
      <p className="mt-6 text-slate-700">
        Press the button to stop getting the ToolHub Wholesale newsletter at this address.
      </p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="btn-primary" disabled={navigation.state !== "idle"}>
          Unsubscribe
        </button>
      </Form>
    </NewsletterNotice>
  );
}
