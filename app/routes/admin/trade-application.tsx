import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/trade-application";
import { BackHeading } from "../../components/admin/BackHeading.tsx";
import { TextArea } from "../../components/admin/fields.tsx";
import { doneMessage, ResultMessage, When } from "../../components/admin/messages/ListParts.tsx";
import { config } from "../../../server/config.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { decideApplication, getApplication } from "../../../server/trade/applications.ts";
import { createOrganizationThroughAuth } from "../../../server/trade/organizations.ts";

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.application.company_name ?? "Application"} | Trade accounts | Back office | ToolHub Wholesale` }, { name: "robots", content: "noindex" }];
}

const DONE = { approved: "Approved: the company's trade account is open and the applicant was emailed.", rejected: "Rejected: the applicant was emailed the reason." };

function parseId(raw: string | undefined): number | null {
  return raw && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { trade: ["view"] });
  const id = parseId(params.id);
  const application = id ? await getApplication(getDb(), id) : null;
  if (!application) throw data("Not found", { status: 404 });
  return { application, done: doneMessage(new URL(request.url), DONE) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { trade: ["decide"] });
  const id = parseId(params.id);
  if (!id) return data({ ok: false, message: "This application doesn't exist.", fieldError: undefined }, { status: 404 });
  const form = await readSmallForm(request);
  const intent = form.get("intent");
  if (intent !== "approve" && intent !== "reject") return data({ ok: false, message: "Unknown action.", fieldError: undefined }, { status: 400 });
  const reason = String(form.get("reason") ?? "").trim().slice(0, 1000) || null;
  if (intent === "reject" && !reason) return data({ ok: false, message: "Give the applicant a reason for the rejection.", fieldError: "Give the applicant a reason for the rejection." }, { status: 400 });
  const db = getDb();
  try {
    await decideApplication(db, {
      id,
      approve: intent === "approve",
      reason,
      actor: { userId: staff.userId, name: staff.name },
      siteUrl: config().siteUrl,
      createOrganization: createOrganizationThroughAuth(db),
    });
  } catch (error) {
    if (isDomainError(error)) return data({ ok: false, message: error.message, fieldError: undefined }, { status: error.status });
    throw error;
  }
  throw redirect(`/admin/trade/${id}?done=${intent === "approve" ? "approved" : "rejected"}`, { status: 303 });
}

export default function TradeApplication({ loaderData, actionData }: Route.ComponentProps) {
  const { application: a, done } = loaderData;
  const address = [a.billing_line1, a.billing_line2, a.billing_city, a.billing_region, a.billing_postcode].filter(Boolean).join(", ");
  return (
    <article aria-labelledby="application-heading">
      <BackHeading backTo="/admin/trade" backLabel="Trade accounts" id="application-heading" title={a.company_name} />
      <ResultMessage result={actionData && !actionData.fieldError ? actionData : done} />
      <dl className="mt-4 grid max-w-3xl grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="font-semibold text-ink">Applicant</dt>
        <dd>
          {a.applicant_name} &lt;{a.applicant_email}&gt;
        </dd>
        <dt className="font-semibold text-ink">Received</dt>
        <dd>
          <When iso={a.created_at} />
        </dd>
        <dt className="font-semibold text-ink">Country</dt>
        <dd>{a.country === "GB" ? "United Kingdom" : "United States"}</dd>
        <dt className="font-semibold text-ink">{a.country === "GB" ? "VAT number" : "EIN"}</dt>
        <dd>{a.tax_id}</dd>
        <dt className="font-semibold text-ink">Billing address</dt>
        <dd>{address}</dd>
        <dt className="font-semibold text-ink">Phone</dt>
        <dd>{a.phone}</dd>
        <dt className="font-semibold text-ink">State</dt>
        <dd>
          {a.status === "pending" ? "Waiting for a decision" : a.status === "approved" ? "Approved" : "Rejected"}
          {a.decided_at ? (
            <>
              {" "}
              <When iso={a.decided_at} />
            </>
          ) : null}
          {a.reason ? ` (reason: ${a.reason})` : ""}
        </dd>
      </dl>
      {a.status === "pending" ? (
        <div className="mt-6 flex max-w-3xl flex-col gap-6">
          <Form method="post">
            <input type="hidden" name="intent" value="approve" />
            <button type="submit" className="btn-primary">
              Approve
            </button>
          </Form>
          <Form method="post" noValidate className="space-y-3">
            <input type="hidden" name="intent" value="reject" />
            <TextArea id="reject-reason" name="reason" label="Reason for the rejection (sent to the applicant)" maxLength={1000} error={actionData?.fieldError} />
            <button type="submit" className="rounded-md border border-red-300 px-4 py-2 font-semibold text-red-800 hover:bg-red-50">
              Reject
            </button>
          </Form>
        </div>
      ) : null}
    </article>
  );
}
