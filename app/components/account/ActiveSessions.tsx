import { useEffect, useRef } from "react";
import { AccountPanel } from "./AccountPanel.tsx";
import { PostAnswer } from "../ui/PostAnswer.tsx";
import { Form, useNavigation } from "react-router";
import {
  type ActiveSession,
  endSessionLabel,
  formatSessionTime,
  isSessionIntent,
  SESSION_INTENTS,
} from "../../lib/sessions.ts";

/** Where the section's forms post: the account route's action, back to this section without JavaScript. */
const ACTION = "/account#active-sessions";

function SessionTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatSessionTime(iso)}</time>;
}

/**
 * The account page's "Active sessions": every signed-in device, and a way to end any other one.
 * Plain form posts without JavaScript; with it, React Router submits them and reloads the list.
 */
export function ActiveSessions({
  sessions,
  result,
}: {
  sessions: ActiveSession[];
  result?: { ok: boolean; message: string };
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && isSessionIntent(navigation.formData?.get("intent"));
  const others = sessions.filter((s) => !s.current);
  const message = useRef<HTMLParagraphElement>(null);

  // The button that was pressed disappears with its session: keep keyboard focus on the answer.
  // (Checked again when the list changes: the answer can arrive before the reloaded list drops the button.)
  useEffect(() => {
    if (result && (document.activeElement === document.body || document.activeElement === null))
      message.current?.focus();
  }, [result, sessions]);

  return (
    <AccountPanel id="active-sessions" headingId="active-sessions-heading" title="Active sessions" wide>
      <p className="mt-2 text-sm text-slate-700">
        These are the browsers and devices signed in to your account. If you don't recognise one, end it and change your
        password.
      </p>
      <PostAnswer answer={result} className="mt-4 rounded-md p-3 text-sm" ref={message} tabIndex={-1} />
      <ul className="mt-4 divide-y divide-slate-200 border-y border-slate-200">
        {sessions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-start justify-between gap-4 py-4">
            <div>
              <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
                {s.device}
                {s.current ? (
                  <span className="rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-900">
                    This device
                  </span>
                ) : null}
              </p>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
                <dt className="font-medium">IP address</dt>
                <dd>{s.ipAddress ?? "Unknown"}</dd>
                <dt className="font-medium">Signed in</dt>
                <dd>
                  <SessionTime iso={s.signedInAt} />
                </dd>
                <dt className="font-medium">Last active</dt>
                <dd>
                  <SessionTime iso={s.lastActiveAt} />
                </dd>
              </dl>
            </div>
            {s.current ? null : (
              <Form method="post" action={ACTION} preventScrollReset>
                <input type="hidden" name="intent" value={SESSION_INTENTS.endOne} />
                <input type="hidden" name="sessionId" value={s.id} />
                <button type="submit" className="btn-outline" aria-label={endSessionLabel(s)} disabled={busy}>
                  End session
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 ? (
        <Form method="post" action={ACTION} preventScrollReset className="mt-4">
          <input type="hidden" name="intent" value={SESSION_INTENTS.endOthers} />
          <button type="submit" className="btn-primary" disabled={busy}>
            End all other sessions
          </button>
        </Form>
      ) : (
        <p className="mt-4 text-sm text-slate-700">No other device is signed in to your account.</p>
      )}
    </AccountPanel>
  );
}
