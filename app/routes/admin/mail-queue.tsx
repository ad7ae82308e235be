import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/mail-queue";
import { ListTable } from "../../components/admin/list/ListTable.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { doneMessage, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { MAIL_INTENTS, MAIL_STATUS_NAMES } from "../../lib/admin/message-constants.ts";
import { noListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { getDb } from "../../../server/db/connection.ts";
import { answerFormAction, readSmallForm } from "../../../server/http/form-action.ts";
import {
  mailQueueView,
  parseMailId,
  requeueAllFailed,
  requeueMailAsStaff,
  STUCK_AFTER_MS,
  type StuckMail,
} from "../../../server/mail/admin-queue.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { formText } from "../../lib/form-text.ts";

export function meta() {
  return [{ title: "Mail queue | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

const DONE = { requeued: "The mail was queued again.", "requeued-all": "Failed mails were queued again." };

export async function loader({ request }: Route.LoaderArgs) {
  const { list: view } = await loadListPage(request, {
    permission: { message: ["view"] },
    filters: noListFilters,
    list: (db) => mailQueueView(db),
  });
  return { view, stuckAfterMinutes: STUCK_AFTER_MS / 60_000, done: doneMessage(new URL(request.url), DONE) };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, { message: ["view"] });
  const form = await readSmallForm(request);
  const intent = form.get("intent");
  if (intent === MAIL_INTENTS.requeue) {
    const id = parseMailId(form.get("id"));
    if (!id) return data({ ok: false, message: "Choose a mail to requeue." }, { status: 400 });
    return answerFormAction(request, () => requeueMailAsStaff(getDb(), staff, id), {
      redirectTo: "/admin/mail?done=requeued",
    });
  }
  if (intent === MAIL_INTENTS.requeueAllFailed) {
    return answerFormAction(request, () => requeueAllFailed(getDb(), staff), {
      redirectTo: "/admin/mail?done=requeued-all",
    });
  }
  return data({ ok: false, message: "Unknown action." }, { status: 400 });
}

function MailTable({ caption, rows, busyId }: { caption: string; rows: StuckMail[]; busyId: string | null }) {
  return (
    <ListTable
      caption={caption}
      captionVisible
      rows={rows}
      rowKey={(m) => m.id}
      columns={[
        { header: "Mail", cell: (m) => `#${m.id}` },
        { header: "Status", cell: (m) => m.status },
        { header: "To", cell: (m) => m.to },
        { header: "Subject", cell: (m) => m.subject },
        { header: "Attempts", cell: (m) => m.attempts },
        { header: "Last error", className: "max-w-xs break-words", cell: (m) => m.lastError ?? "—" },
        { header: "Updated", cell: (m) => <When iso={m.updatedAt} /> },
        { header: "Action", headerHidden: true, cell: (m) => <MailAction mail={m} busyId={busyId} /> },
      ]}
    />
  );
}

function MailAction({ mail, busyId }: { mail: StuckMail; busyId: string | null }) {
  if (!mail.canRequeue) return mail.bodyErasedAt ? "Body erased" : "Waiting for the sender";
  const busy = busyId === String(mail.id);
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={MAIL_INTENTS.requeue} />
      <input type="hidden" name="id" value={mail.id} />
      <button type="submit" className="btn-outline" aria-label={`Requeue mail #${mail.id}`} disabled={busy}>
        {busy ? "Requeueing…" : "Requeue"}
      </button>
    </Form>
  );
}

export default function MailQueue({ loaderData, actionData }: Route.ComponentProps) {
  const { view, done } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData : null;
  const busyId = submitting?.get("intent") === MAIL_INTENTS.requeue ? formText(submitting, "id") : null;
  const busyAll = submitting?.get("intent") === MAIL_INTENTS.requeueAllFailed;
  return (
    <section aria-labelledby="mail-heading">
      <h1 id="mail-heading" className="text-3xl font-bold text-ink">
        Mail queue
      </h1>
      <ResultMessage result={actionData ?? done} />
      <h2 className="mt-6 text-xl font-semibold text-ink">Mails by status</h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {MAIL_STATUS_NAMES.map((s) => (
          <div key={s} className="rounded border border-slate-200 bg-white p-3">
            <dt className="text-sm text-slate-700">{s}</dt>
            <dd className="mt-1 text-2xl font-bold text-ink">{view.counts[s]}</dd>
          </div>
        ))}
      </dl>

      <h2 className="mt-8 text-xl font-semibold text-ink">Stuck mails ({view.stuckCount})</h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-700">
        Failed mails ran out of attempts. An “unknown” mail may have reached the mail server already: look its
        Message-ID up in the server's log before requeueing it, or it may arrive twice. Queued mails more than{" "}
        {loaderData.stuckAfterMinutes} minutes past their next attempt mean no sender is running.
      </p>
      {view.counts.failed > 0 ? (
        <Form method="post" className="mt-3" preventScrollReset>
          <input type="hidden" name="intent" value={MAIL_INTENTS.requeueAllFailed} />
          <button type="submit" className="btn-primary" disabled={busyAll}>
            {busyAll ? "Requeueing…" : "Requeue all failed"}
          </button>
        </Form>
      ) : null}
      {view.stuck.length === 0 && view.overdue.length === 0 ? (
        <p className="mt-4 text-slate-700">Nothing is stuck.</p>
      ) : null}
      {view.stuck.length > 0 ? (
        <MailTable caption="Failed and unknown mails, newest first" rows={view.stuck} busyId={busyId} />
      ) : null}
      {view.overdue.length > 0 ? (
        <MailTable caption="Queued mails past their next attempt, oldest first" rows={view.overdue} busyId={busyId} />
      ) : null}
    </section>
  );
}
