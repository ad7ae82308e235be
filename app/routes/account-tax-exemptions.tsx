import { data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/account-tax-exemptions";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { BackToCompany } from "../components/trade/BackToCompany.tsx";
import { UploadForm } from "../components/admin/UploadForm.tsx";
import { fieldAria, FieldShell, Select, TextInput } from "../components/admin/fields.tsx";
import { CertificatesTable } from "../components/trade/CertificatesTable.tsx";
import { PostAnswer } from "../components/ui/PostAnswer.tsx";
import { HeadedSection } from "../components/ui/HeadedSection.tsx";
import { formText } from "../lib/form-text.ts";
import { seo } from "../lib/seo.ts";
import { companyCan } from "../../server/auth/company-roles.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { ADMIN_UPLOAD_LIMIT_BYTES } from "../../server/http/body-limit.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { CertificateInvalidError, companyCertificates, uploadCertificate } from "../../server/tax/certificates.ts";
import { requireCompanyMember } from "../../server/trade/guard.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Tax exemptions",
    description: "Your company's sales-tax exemption certificates.",
    path: "/account/company/tax-exemptions",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const db = getDb();
  const { company, role } = await requireCompanyMember(db, request);
  const url = new URL(request.url);
  const [certificates, states] = await Promise.all([
    companyCertificates(db, company.organization_id),
    db.selectFrom("tax_us_states").select(["code", "name"]).orderBy("name").execute(),
  ]);
  return {
    company: { name: company.name, us: company.country === "US" },
    manages: companyCan(role, { organization: ["update"] }),
    uploaded: url.searchParams.get("done") === "uploaded",
    today: new Date().toISOString().slice(0, 10),
    states,
    certificates: certificates.map((c) => ({
      id: c.id,
      stateName: c.state_name,
      number: c.number,
      expiresOn: c.expires_on,
      status: c.status,
      reason: c.reason,
    })),
  };
}

type Answer = {
  ok: false;
  message: string;
  field?: string;
  typed: { state: string; number: string; expiresOn: string };
};

export async function action({ request }: Route.ActionArgs) {
  const db = getDb();
  const { company, role, session } = await requireCompanyMember(db, request);
  const form = await readSmallForm(request, ADMIN_UPLOAD_LIMIT_BYTES);
  const typed = {
    state: formText(form, "state").slice(0, 2),
    number: formText(form, "number").slice(0, 60),
    expiresOn: formText(form, "expiresOn").slice(0, 10),
  };
  const file = form.get("file");
  try {
    await uploadCertificate(
      db,
      {
        organizationId: company.organization_id,
        userId: session.userId,
        country: company.country,
        mayManage: companyCan(role, { organization: ["update"] }),
      },
      { ...typed, file: file instanceof File && file.size > 0 ? new Uint8Array(await file.arrayBuffer()) : null },
      { uploadDir: config().UPLOAD_DIR },
    );
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const field = error instanceof CertificateInvalidError ? error.field : undefined;
    return data<Answer>({ ok: false, message: error.message, field, typed }, { status: error.status });
  }
  throw redirect("/account/company/tax-exemptions?done=uploaded");
}

export default function TaxExemptions({ loaderData, actionData }: Route.ComponentProps) {
  const { company, manages, certificates } = loaderData;
  const busy = useNavigation().state === "submitting";
  const error = (field: string) => (actionData?.field === field ? actionData.message : undefined);
  return (
    <>
      <PageHeader
        title="Tax exemptions"
        intro={`${company.name}: resale and exemption certificates for US sales tax`}
      />
      <div className="mx-auto max-w-4xl space-y-8 px-4 py-10 text-slate-700">
        {loaderData.uploaded && !actionData ? (
          <PostAnswer
            answer={{ ok: true, message: "Certificate uploaded. We'll check it and mail you when it's verified." }}
          />
        ) : null}
        {actionData && !actionData.field ? <PostAnswer answer={actionData} /> : null}
        <p>
          A verified certificate for a state removes sales tax from your company&apos;s orders delivered there, until
          the end of its last day. We mail you 30 days before it expires.
        </p>
        <CertificatesTable
          certificates={certificates}
          fileBase="/account/company/tax-exemptions"
          today={loaderData.today}
        />
        {company.us && manages ? (
          <HeadedSection id="upload-heading" title="Upload a certificate" headingClassName="text-lg font-bold text-ink">
            <UploadForm intent="upload" label="Upload a certificate" className="mt-3 max-w-md space-y-4">
              <Select
                id="cert-state"
                name="state"
                label="State"
                placeholder="Choose a state"
                options={loaderData.states.map((s) => ({ value: s.code, label: s.name }))}
                defaultValue={actionData?.typed.state ?? ""}
                error={error("state")}
              />
              <TextInput
                id="cert-number"
                name="number"
                label="Certificate number"
                maxLength={40}
                defaultValue={actionData?.typed.number ?? ""}
                error={error("number")}
              />
              <TextInput
                id="cert-expires"
                name="expiresOn"
                type="date"
                label="Valid until (last day)"
                defaultValue={actionData?.typed.expiresOn ?? ""}
                error={error("expiresOn")}
              />
              <FieldShell
                id="cert-file"
                label="Certificate file (PDF, JPEG, PNG or WebP, up to 10 MB)"
                error={error("file")}
              >
                <input
                  id="cert-file"
                  name="file"
                  type="file"
                  required
                  accept=".pdf,.jpg,.jpeg,.png,.webp,application/pdf,image/jpeg,image/png,image/webp"
                  className="mt-1 block text-sm"
                  {...fieldAria("cert-file", error("file"))}
                />
              </FieldShell>
              <button type="submit" className="btn-primary" disabled={busy}>
                {busy ? "Uploading…" : "Upload certificate"}
              </button>
            </UploadForm>
          </HeadedSection>
        ) : (
          <p>
            {company.us
              ? "Your company's owners can upload certificates."
              : "Exemption certificates are for US sales tax: your company buys in the UK, where VAT applies."}
          </p>
        )}
        <BackToCompany />
      </div>
    </>
  );
}
