import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/two-factor";
import { CodeField, ErrorText, VerifyCodeForms } from "../../components/admin/TwoFactorForms.tsx";
import { PasswordField } from "../../components/account/PasswordField.tsx";
import { withCookies } from "../../../server/auth/forward.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import {
  backupCodesOf,
  describeEnrolment,
  startEnrolment,
  TWO_FACTOR_MESSAGES,
  verifyCode,
} from "../../../server/staff/two-factor.ts";
import { formText } from "../../lib/form-text.ts";

/** Set for one request after an enrolment is confirmed, so the backup codes are shown once. */
const SHOW_CODES_COOKIE = "staff_backup_codes";
const showCodesCookie = (maxAge: number) =>
  `${SHOW_CODES_COOKIE}=${maxAge ? "1" : ""}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;

export function meta() {
  return [
    { title: "Two-factor authentication | Back office | ToolHub Wholesale" },
    { name: "robots", content: "noindex" },
  ];
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  const out = new Headers({ "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" });
  for (const h of [actionHeaders, loaderHeaders]) for (const c of h.getSetCookie()) out.append("Set-Cookie", c);
  return out;
}

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, undefined, { withoutSecondFactor: true });
  if (staff.secondFactor) {
    if (!request.headers.get("cookie")?.includes(`${SHOW_CODES_COOKIE}=1`)) throw redirect("/admin");
    // Shown once: the cookie that asked for them is cleared by this same answer.
    return data(
      { stage: "codes" as const, codes: await backupCodesOf(staff.userId) },
      { headers: { "Set-Cookie": showCodesCookie(0) } },
    );
  }
  return { stage: staff.twoFactorEnabled ? ("verify" as const) : ("enrol" as const), codes: [] as string[] };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, undefined, { withoutSecondFactor: true });
  const form = await readSmallForm(request);
  const intent = formText(form, "intent");
  const code = formText(form, "code").slice(0, 64);
  if (intent === "start" && !staff.twoFactorEnabled) {
    const started = await startEnrolment(request, formText(form, "password"));
    if (!started.ok) return data({ stage: "enrol" as const, error: started.message }, { status: started.status });
    return { stage: "confirm" as const, enrolment: started.value, error: null };
  }
  if (intent === "confirm" && !staff.twoFactorEnabled) {
    const enrolment = await describeEnrolment(formText(form, "totpUri").slice(0, 400));
    if (!enrolment) return data({ stage: "enrol" as const, error: TWO_FACTOR_MESSAGES.failed }, { status: 400 });
    const verified = await verifyCode(request, "totp", code);
    if (!verified.ok)
      return data({ stage: "confirm" as const, enrolment, error: verified.message }, { status: verified.status });
    // The plugin replaced the session with one for the enrolled account: follow it with a new request.
    throw redirect("/admin/two-factor", { headers: withCookies({}, [...verified.setCookies, showCodesCookie(300)]) });
  }
  if (intent === "verify" && staff.twoFactorEnabled) {
    const kind = form.get("kind") === "backup" ? "backup" : "totp";
    const verified = await verifyCode(request, kind, code);
    if (!verified.ok)
      return data({ stage: "verify" as const, kind, error: verified.message }, { status: verified.status });
    throw redirect("/admin", { headers: withCookies({}, verified.setCookies) });
  }
  return data(
    {
      stage: staff.twoFactorEnabled ? ("verify" as const) : ("enrol" as const),
      error: "That step is not available now. Start again.",
    },
    { status: 409 },
  );
}

export default function TwoFactorPage({ loaderData, actionData }: Route.ComponentProps) {
  const stage = actionData?.stage ?? loaderData.stage;
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <section aria-labelledby="two-factor-heading" className="max-w-2xl">
      <h1 id="two-factor-heading" className="text-3xl font-bold text-ink">
        Two-factor authentication
      </h1>
      {stage === "codes" ? (
        <BackupCodes codes={loaderData.codes} />
      ) : stage === "verify" ? (
        <>
          <p className="mt-4 text-slate-700">
            Enter the 6-digit code from your authenticator app to open the back office.
          </p>
          <VerifyCodeForms
            error={error}
            kind={actionData && "kind" in actionData && actionData.kind === "backup" ? "backup" : "totp"}
          />
        </>
      ) : stage === "confirm" && actionData && "enrolment" in actionData && actionData.enrolment ? (
        <ConfirmStep enrolment={actionData.enrolment} error={error} />
      ) : (
        <StartStep error={error} />
      )}
    </section>
  );
}

function StartStep({ error }: { error: string | null }) {
  return (
    <>
      <p className="mt-4 text-slate-700">
        Staff sign in with a password and a code from an authenticator app (such as Google Authenticator, Microsoft
        Authenticator or 1Password). Set it up once now; every later sign-in asks for a code.
      </p>
      <Form method="post" className="mt-6 max-w-sm space-y-4">
        <input type="hidden" name="intent" value="start" />
        <PasswordField id="two-factor-password" label="Your password" autoComplete="current-password" />
        <ErrorText id="two-factor-password-error" message={error} />
        <button type="submit" className="btn-primary">
          Set up authenticator app
        </button>
      </Form>
    </>
  );
}

function ConfirmStep({
  enrolment,
  error,
}: {
  enrolment: { totpUri: string; key: string; qrSvg: string };
  error: string | null;
}) {
  return (
    <>
      <ol className="mt-4 list-decimal space-y-2 pl-6 text-slate-700">
        <li>Scan this QR code with your authenticator app, or type the key below into it.</li>
        <li>Enter the 6-digit code the app shows, to confirm.</li>
      </ol>
      <figure className="mt-6">
        <div
          className="h-48 w-48 border border-slate-200 bg-white"
          role="img"
          aria-label="QR code for your authenticator app"
          dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
        />
        <figcaption className="mt-4 text-sm text-slate-700">
          Can't scan it? Enter this key:{" "}
          <code className="block text-lg font-semibold tracking-wider text-ink" data-testid="totp-key">
            {enrolment.key}
          </code>
        </figcaption>
      </figure>
      <Form method="post" className="mt-6 space-y-4">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="totpUri" value={enrolment.totpUri} />
        <CodeField id="confirm-code" kind="totp" error={error} />
        <button type="submit" className="btn-primary">
          Confirm
        </button>
      </Form>
    </>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <>
      <p className="mt-4 text-slate-700" role="status">
        Two-factor authentication is on.
      </p>
      <h2 className="mt-6 text-xl font-semibold text-ink">Your backup codes</h2>
      <p className="mt-2 text-slate-700">
        Keep these somewhere safe. Each works once, if you lose your device.{" "}
        <strong>This is the only time they are shown.</strong>
      </p>
      <ul className="mt-4 grid max-w-md grid-cols-2 gap-2 font-mono text-lg" aria-label="Backup codes">
        {codes.map((c) => (
          <li key={c} className="rounded border border-slate-200 bg-white px-3 py-1">
            {c}
          </li>
        ))}
      </ul>
      <Link to="/admin" className="btn-primary mt-6">
        Continue to the back office
      </Link>
    </>
  );
}
