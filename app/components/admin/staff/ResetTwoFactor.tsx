import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";

/**
 * The confirmation step of "Reset two-factor" on /admin/staff: the row's button opens it with a
 * plain GET (?reset=<id>), so it works without JavaScript; the reset itself is this form's post.
 * With JavaScript, focus moves to the question when it appears.
 */
export function ResetTwoFactorConfirm({
  member,
  busy,
}: {
  member: { id: string; name: string; email: string };
  busy: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [member.id]);
  return (
    <section
      aria-labelledby="reset-two-factor-heading"
      className="mt-4 max-w-2xl rounded border border-red-300 bg-red-50 p-4"
    >
      <h2 id="reset-two-factor-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink">
        Reset two-factor authentication of {member.name} ({member.email})?
      </h2>
      <p className="mt-2 text-sm text-slate-800">
        Their authenticator app and backup codes stop working for this account and every session of theirs ends. They
        get an email saying you did this, and set up two-factor authentication again the next time they sign in.
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-4">
        <Form method="post" action="/admin/staff">
          <input type="hidden" name="intent" value="reset-two-factor" />
          <input type="hidden" name="userId" value={member.id} />
          <button type="submit" className="btn-primary" disabled={busy}>
            Yes, reset two-factor
          </button>
        </Form>
        <Link to="/admin/staff" className="underline">
          Cancel
        </Link>
      </div>
    </section>
  );
}

/** What ?reset=<id> shows when that reset can't be done (your own, or nothing to reset). */
export function ResetTwoFactorRefusal({ message }: { message: string }) {
  return (
    <p className="mt-4 font-semibold text-red-800" role="alert">
      {message}
    </p>
  );
}
