import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/message";
import { BackHeading } from "../../components/admin/BackHeading.tsx";
import { TextArea } from "../../components/admin/fields.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { doneMessage, fieldErrorOf, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { MESSAGE_INTENTS, REPLY_MAX, replySubject } from "../../lib/admin/message-constants.ts";
import {
  checkReply,
  getMessage,
  INBOX_MESSAGES,
  parseMessageId,
  replyToMessage,
  setMessageHandled,
} from "../../../server/contact/inbox.ts";
import { config } from "../../../server/config.ts";
import { getDb } from "../../../server/db/connection.ts";
import { answerFormAction, readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { can } from "../../../server/auth/permissions.ts";
import { formText } from "../../lib/form-text.ts";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `${loaderData?.detail.message.subject ?? "Message"} | Messages | Back office | ToolHub Wholesale` },
    { name: "robots", content: "noindex" },
  ];
}

const DONE = { handled: INBOX_MESSAGES.handled, unhandled: INBOX_MESSAGES.unhandled, replied: INBOX_MESSAGES.replied };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { message: ["view"] });
  const id = parseMessageId(params.id);
  const detail = id ? await getMessage(getDb(), id) : null;
  if (!detail) throw data("Not found", { status: 404 });
  return { detail, done: doneMessage(new URL(request.url), DONE) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { message: ["view"] });
  const id = parseMessageId(params.id);
  const form = await readSmallForm(request);
  const intent = form.get("intent");
  const self = `/admin/messages/${params.id}`;
  if (!id) return data({ ok: false, message: INBOX_MESSAGES.notFound }, { status: 404 });
  if (intent === MESSAGE_INTENTS.handled || intent === MESSAGE_INTENTS.unhandled) {
    if (!can(staff.role, { message: ["handle"] })) throw data("Not found", { status: 404 });
    const handled = intent === MESSAGE_INTENTS.handled;
    return answerFormAction(request, () => setMessageHandled(getDb(), staff, id, handled), {
      redirectTo: `${self}?done=${intent}`,
    });
  }
  if (intent === MESSAGE_INTENTS.reply) {
    if (!can(staff.role, { message: ["reply"] })) throw data("Not found", { status: 404 });
    const text = (name: string) => formText(form, name);
    const checked = checkReply({ reply: text("reply"), seen: text("seen") });
    if (!checked.ok) return data({ ok: false, message: checked.message, fieldError: checked.message }, { status: 400 });
    const cfg = config();
    return answerFormAction(
      request,
      () =>
        replyToMessage(
          getDb(),
          staff,
          id,
          { reply: checked.reply, seen: checked.seen },
          { storeInbox: cfg.STORE_INBOX, siteUrl: cfg.siteUrl },
        ),
      { redirectTo: `${self}?done=replied` },
    );
  }
  return data({ ok: false, message: "Unknown action." }, { status: 400 });
}

export default function Message({ loaderData, actionData }: Route.ComponentProps) {
  const { detail, done } = loaderData;
  const m = detail.message;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const fieldError = fieldErrorOf(actionData);
  const result = fieldError ? null : (actionData ?? done);
  return (
    <article aria-labelledby="message-heading">
      <BackHeading backTo="/admin/messages" backLabel="Messages" id="message-heading" title={m.subject} />
      <ResultMessage result={result} />
      <dl className="mt-4 grid max-w-3xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-semibold text-ink">From</dt>
        <dd>
          {m.name} &lt;{m.email}&gt;
        </dd>
        <dt className="font-semibold text-ink">Received</dt>
        <dd>
          <When iso={m.created_at} />
        </dd>
        <dt className="font-semibold text-ink">State</dt>
        <dd>
          {m.handled_at ? (
            <>
              Handled <When iso={m.handled_at} />
              {detail.handledByName ? ` by ${detail.handledByName}` : ""}
            </>
          ) : (
            "Unhandled"
          )}
        </dd>
        <dt className="font-semibold text-ink">Last reply</dt>
        <dd>
          <When iso={m.replied_at} />
        </dd>
      </dl>
      <div className="mt-6 max-w-3xl whitespace-pre-wrap rounded border border-slate-200 bg-white p-4 text-ink">
        {m.message}
      </div>

      <Form method="post" className="mt-4" preventScrollReset>
        <input type="hidden" name="intent" value={m.handled_at ? MESSAGE_INTENTS.unhandled : MESSAGE_INTENTS.handled} />
        <button type="submit" className="btn-outline" disabled={Boolean(busy)}>
          {m.handled_at ? "Mark as unhandled" : "Mark as handled"}
        </button>
      </Form>

      {detail.replies.length > 0 ? (
        <HeadedSection
          id="replies-heading"
          title="Replies sent"
          headingClassName="text-xl font-semibold text-ink"
          className="mt-8 max-w-3xl"
        >
          <ol className="mt-2 space-y-3">
            {detail.replies.map((r, i) => (
              <li key={i} className="rounded border border-slate-200 bg-slate-50 p-3">
                <p className="text-sm text-slate-700">
                  <When iso={r.at} /> by {r.by}
                </p>
                <p className="mt-1 whitespace-pre-wrap">{r.text}</p>
              </li>
            ))}
          </ol>
        </HeadedSection>
      ) : null}

      <HeadedSection
        id="reply-heading"
        title="Reply"
        headingClassName="text-xl font-semibold text-ink"
        className="mt-8 max-w-3xl"
      >
        <p className="mt-1 text-sm text-slate-700">
          Sent to {m.email} with the subject “{replySubject(m.subject)}”; the message is then marked as handled.
        </p>
        <Form method="post" className="mt-3 space-y-3" preventScrollReset key={m.replied_at ?? "none"}>
          <input type="hidden" name="intent" value={MESSAGE_INTENTS.reply} />
          <input type="hidden" name="seen" value={m.replied_at ?? ""} />
          <TextArea id="reply-text" name="reply" label="Your reply" rows={8} maxLength={REPLY_MAX} error={fieldError} />
          <button type="submit" className="btn-primary" disabled={Boolean(busy)}>
            {busy === MESSAGE_INTENTS.reply ? "Sending…" : "Send reply"}
          </button>
        </Form>
      </HeadedSection>
    </article>
  );
}
