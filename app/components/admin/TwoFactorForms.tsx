import { Form } from "react-router";

function ErrorText({ id, message }: { id: string; message?: string | null }) {
  return message ? (
    <p id={id} role="alert" className="mt-2 text-sm font-semibold text-red-800">
      {message}
    </p>
  ) : null;
}

/** A code field for a 6-digit TOTP or a backup code, with its label and error tied to it. */
export function CodeField({ id, kind, error }: { id: string; kind: "totp" | "backup"; error?: string | null }) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {kind === "totp" ? "Authentication code" : "Backup code"}
      </label>
      <input
        id={id}
        name="code"
        required
        autoComplete="one-time-code"
        inputMode={kind === "totp" ? "numeric" : "text"}
        maxLength={kind === "totp" ? 9 : 32}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className="field mt-1 max-w-xs font-mono tracking-widest"
      />
      <ErrorText id={errorId} message={error} />
    </div>
  );
}

/** The code step: an authenticator code, or one backup code instead. Posts `intent` = verify. */
export function VerifyCodeForms({
  error,
  kind,
  action,
}: {
  error?: string | null;
  kind: "totp" | "backup";
  action?: string;
}) {
  return (
    <div className="mt-6 space-y-8">
      <Form method="post" action={action} className="space-y-4">
        <input type="hidden" name="intent" value="verify" />
        <input type="hidden" name="kind" value="totp" />
        <CodeField id="totp-code" kind="totp" error={kind === "totp" ? error : null} />
        <button type="submit" className="btn-primary">
          Verify
        </button>
      </Form>
      <Form method="post" action={action} className="space-y-4 border-t border-slate-200 pt-6">
        <h2 className="text-lg font-semibold text-ink">Lost your device?</h2>
        <p className="text-sm text-slate-700">Each backup code works once.</p>
        <input type="hidden" name="intent" value="verify" />
        <input type="hidden" name="kind" value="backup" />
        <CodeField id="backup-code" kind="backup" error={kind === "backup" ? error : null} />
        <button type="submit" className="btn-outline">
          Use backup code
        </button>
      </Form>
    </div>
  );
}

export { ErrorText };
