import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/newsletter-confirm";
import { NewsletterNotice } from "../components/forms/NewsletterNotice.tsx";
import { NEWSLETTER_MESSAGES } from "../components/forms/rules.ts";
import { readPostedToken } from "../lib/forms.ts";
import { seo } from "../lib/seo.ts";
import { getDb } from "../../server/db/connection.ts";
import {
  checkConfirmToken,
  confirmSubscription,
  type ConfirmCheck,
  type ConfirmOutcome,
} from "../../server/newsletter/newsletter.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Confirm your subscription",
    description: "Confirm your ToolHub Wholesale newsletter subscription.",
    path: "/newsletter/confirm",
    matches,
    noindex: true,
  });
}

// Opening the link only checks it: mail scanners that prefetch links must not subscribe anyone.
// The Confirm button (a POST) does the double opt-in.
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state: ConfirmCheck = await checkConfirmToken(getDb(), token);
  return { state, token: state === "valid" ? token : "" };
}

const invalidLink: ConfirmOutcome = "invalid";

export async function action({ request }: Route.ActionArgs) {
  const token = await readPostedToken(request);
  if (token == null) return data({ outcome: invalidLink }, { status: 413 });
  const outcome = await confirmSubscription(getDb(), token);
  return data({ outcome }, { status: outcome === "confirmed" || outcome === "already-confirmed" ? 200 : 410 });
}

const MESSAGES: Record<ConfirmOutcome, { text: string; tone: "success" | "error" }> = {
  confirmed: { text: NEWSLETTER_MESSAGES.confirmed, tone: "success" },
  "already-confirmed": { text: NEWSLETTER_MESSAGES.alreadyConfirmed, tone: "success" },
  expired: { text: NEWSLETTER_MESSAGES.expired, tone: "error" },
  invalid: { text: NEWSLETTER_MESSAGES.invalid, tone: "error" },
};

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const outcome = actionData?.outcome ?? (loaderData.state === "valid" ? null : loaderData.state);
  if (outcome) {
    const m = MESSAGES[outcome];
    return (
      <NewsletterNotice
        title={
          outcome === "confirmed" || outcome === "already-confirmed"
            ? "Subscription confirmed"
            : "Link expired or already used"
        }
        message={m.text}
        tone={m.tone}
      />
    );
  }
  return (
    <NewsletterNotice title="Confirm your subscription" tone="info">
      <p className="mt-6 text-slate-700">
        One more step: confirm that you want the ToolHub Wholesale newsletter — trade deals, new arrivals and member
        offers.
      </p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        <button type="submit" className="btn-primary" disabled={navigation.state !== "idle"}>
          Confirm subscription
        </button>
      </Form>
    </NewsletterNotice>
  );
}
