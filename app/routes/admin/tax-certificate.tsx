import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/tax-certificate";
import { doneMessage, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { fieldAria, FieldMessages } from "../../components/admin/fields.tsx";
import { formText } from "../../lib/form-text.ts";
import { parseRowId } from "../../lib/order-rules.ts";
import { can } from "../../../server/auth/permissions.ts";
import { config } from "../../../server/config.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { certificateById, CertificateInvalidError, decideCertificate } from "../../../server/tax/certificates.ts";

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: `${loaderData?.certificate.state_name ?? "Certificate"} certificate | Tax | Back office | ToolHub Wholesale`,
    },
    { name: "robots", content: "noindex" },
  ];
}

const DONE = {
  verified: "Certificate verified; the company is mailed.",
  rejected: "Certificate rejected; the company is mailed.",
};

export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { tax: ["view"] });
  const id = parseRowId(params.id);
  const certificate = id ? await certificateById(getDb(), id) : undefined;
  if (!certificate) throw data("Not found", { status: 404 });
  return {
    certificate,
    canDecide: can(staff.role, { tax: ["verify"] }),
    done: doneMessage(new URL(request.url), DONE),
  };
}

type Answer = { ok: false; message: string; field?: string };

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { tax: ["verify"] });
  const id = parseRowId(params.id);
  if (!id) throw data("Not found", { status: 404 });
  const form = await readSmallForm(request);
  const decision = formText(form, "intent");
  if (decision !== "verify" && decision !== "reject")
    return data<Answer>({ ok: false, message: "Choose Verify or Reject." }, { status: 400 });
  try {
    const status = await decideCertificate(
      getDb(),
      staff,
      id,
      { decision, reason: formText(form, "reason"), version: Number(formText(form, "version")) || 0 },
      { siteUrl: config().siteUrl },
    );
    throw redirect(`/admin/tax/certificates/${id}?done=${status}`);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const field = error instanceof CertificateInvalidError ? error.field : undefined;
    return data<Answer>({ ok: false, message: error.message, field }, { status: error.status });
  }
}

export default function TaxCertificate({ loaderData, actionData }: Route.ComponentProps) {
  const { certificate: c, canDecide } = loaderData;
  const busy = useNavigation().state === "submitting";
  const reasonError = actionData?.field === "reason" ? actionData.message : undefined;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold text-ink">
          {c.company_name}: {c.state_name} certificate
        </h1>
        <p className="mt-2 text-sm">
          <a href="/admin/tax/certificates" className="text-brand-800 underline">
            All exemption certificates
          </a>
        </p>
      </div>
      <ResultMessage result={reasonError ? null : (actionData ?? loaderData.done)} />
      <dl className="grid max-w-xl grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-semibold">Company</dt>
        <dd>{c.company_name}</dd>
        <dt className="font-semibold">State</dt>
        <dd>{c.state_name}</dd>
        <dt className="font-semibold">Number</dt>
        <dd className="font-mono">{c.number}</dd>
        <dt className="font-semibold">Valid until</dt>
        <dd>{c.expires_on}</dd>
        <dt className="font-semibold">Uploaded</dt>
        <dd>{c.uploaded_at.slice(0, 10)}</dd>
        <dt className="font-semibold">Status</dt>
        <dd>
          {c.status === "pending" ? "Waiting" : c.status === "verified" ? "Verified" : `Rejected: ${c.reason ?? ""}`}
        </dd>
      </dl>
      <p>
        <a href={`/admin/tax/certificates/${c.id}/file`} className="font-semibold text-brand-800 underline">
          Download the certificate file
        </a>
      </p>
      {c.status === "pending" && canDecide ? (
        <div className="flex flex-wrap items-start gap-8">
          <Form method="post" aria-label="Verify the certificate">
            <input type="hidden" name="version" value={c.version} />
            <button type="submit" name="intent" value="verify" className="btn-primary" disabled={busy}>
              Verify
            </button>
          </Form>
          <Form method="post" aria-label="Reject the certificate" className="max-w-md space-y-2">
            <input type="hidden" name="version" value={c.version} />
            <label htmlFor="reject-reason" className="block text-sm font-semibold text-ink">
              Reason (the company is told)
            </label>
            <textarea
              id="reject-reason"
              name="reason"
              rows={3}
              maxLength={500}
              className="field"
              {...fieldAria("reject-reason", reasonError)}
            />
            <FieldMessages id="reject-reason" error={reasonError} />
            <button type="submit" name="intent" value="reject" className="btn-outline" disabled={busy}>
              Reject
            </button>
          </Form>
        </div>
      ) : null}
    </div>
  );
}
