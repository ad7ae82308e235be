import { parseRowId } from "../../lib/order-rules.ts";
import { data, Form, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/trade-application";
import { BackHeading } from "../../components/admin/BackHeading.tsx";
import { TextArea } from "../../components/admin/fields.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { doneMessage, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import {
  CompanyTermsForm,
  CompanyTermsSummary,
  type TermsFormValues,
} from "../../components/admin/trade/CompanyTermsForm.tsx";
import { can } from "../../../server/auth/permissions.ts";
import { config } from "../../../server/config.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff, type StaffSession } from "../../../server/staff/guard.ts";
import { decideApplication, getApplication } from "../../../server/trade/applications.ts";
import { checkUkVatNumber, vatCheckText } from "../../../server/tax/vat-check.ts";
import {
  companyTermsOf,
  CompanyTermsFieldError,
  parseCompanyTermsForm,
  saveCompanyTerms,
} from "../../../server/trade/company-terms.ts";
import { createOrganizationThroughAuth } from "../../../server/trade/organizations.ts";
import { priceListChoices } from "../../../server/trade/price-lists.ts";
import { creditStanding } from "../../../server/invoices/credit.ts";
import { companyOpenInvoices } from "../../../server/invoices/open-invoices.ts";
import { CompanyInvoices } from "../../components/trade/CompanyInvoices.tsx";
import { formText } from "../../lib/form-text.ts";
import { withoutControl } from "../../lib/control-characters.ts";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: `${loaderData?.application.company_name ?? "Application"} | Trade accounts | Back office | ToolHub Wholesale`,
    },
    { name: "robots", content: "noindex" },
  ];
}

const DONE = {
  approved: "Approved: the company's trade account is open and the applicant was emailed.",
  rejected: "Rejected: the applicant was emailed the reason.",
  terms: "Company terms saved.",
  "terms-unchanged": "Nothing to save: the company's terms were already these.",
};

export async function loader({ request, params }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { trade: ["view"] });
  const id = parseRowId(params.id);
  const db = getDb();
  const application = id ? await getApplication(db, id) : null;
  if (!application) throw data("Not found", { status: 404 });
  const org = application.organization_id;
  const [terms, priceLists, credit, invoices] = org
    ? await Promise.all([
        companyTermsOf(db, org),
        priceListChoices(db),
        creditStanding(db, org),
        companyOpenInvoices(db, org),
      ])
    : [null, [], null, []];
  const invoiceRows = invoices.map((i) => ({
    number: i.number,
    orderNumber: i.orderNumber,
    totalCents: i.totalCents,
    dueAt: i.dueAt,
    daysOverdue: i.daysOverdue,
    yours: false,
  }));
  const vatCheck =
    application.country === "GB"
      ? vatCheckText(await checkUkVatNumber(application.tax_id, config().VAT_CHECK_URL))
      : null;
  return {
    application,
    vatCheck,
    terms,
    priceLists,
    credit: credit && (credit.net30 || invoiceRows.length) ? credit : null,
    invoices: invoiceRows,
    canChangeTerms: can(staff.role, { trade: ["update"] }),
    done: doneMessage(new URL(request.url), DONE),
  };
}

/** A refused save re-reads the company, so the terms form shows what someone else saved. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 ? true : defaultShouldRevalidate;
}

type Answer = {
  ok: false;
  message: string;
  fieldError?: string;
  terms?: { values?: TermsFormValues; errors?: Partial<Record<"priceListId" | "creditLimit", string>> };
};
const refuse = (answer: Omit<Answer, "ok">, status: number) => data<Answer>({ ok: false, ...answer }, { status });
const NO_PERMISSION = "You don't have permission to do that.";

async function saveTerms(staff: StaffSession, id: number, form: FormData) {
  if (!can(staff.role, { trade: ["update"] })) return refuse({ message: NO_PERMISSION }, 403);
  const db = getDb();
  const application = await getApplication(db, id);
  if (!application) return refuse({ message: "This application doesn't exist." }, 404);
  if (!application.organization_id)
    return refuse({ message: "Only an approved application has a company whose terms can be set." }, 409);
  const posted = {
    priceListId: form.get("priceListId"),
    poRequired: form.get("poRequired"),
    net30: form.get("net30"),
    creditLimit: form.get("creditLimit"),
  };
  const values: TermsFormValues = {
    priceListId: formText(form, "priceListId").slice(0, 12),
    poRequired: posted.poRequired === "on",
    net30: posted.net30 === "on",
    creditLimit: withoutControl(formText(form, "creditLimit")).slice(0, 20),
  };
  try {
    const terms = parseCompanyTermsForm(posted);
    const { changed } = await saveCompanyTerms(
      db,
      { userId: staff.userId, name: staff.name },
      { organizationId: application.organization_id, terms, expectedUpdatedAt: formText(form, "updatedAt") },
    );
    throw redirect(`/admin/trade/${id}?done=${changed ? "terms" : "terms-unchanged"}`, { status: 303 });
  } catch (error) {
    if (error instanceof CompanyTermsFieldError)
      return refuse(
        { message: error.message, terms: { values, errors: { [error.field]: error.message } } },
        error.status,
      );
    if (isDomainError(error)) return refuse({ message: error.message }, error.status);
    throw error;
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { trade: ["view"] });
  const id = parseRowId(params.id);
  if (!id) return refuse({ message: "This application doesn't exist." }, 404);
  const form = await readSmallForm(request);
  const intent = form.get("intent");
  if (intent === "terms") return saveTerms(staff, id, form);
  if (intent !== "approve" && intent !== "reject") return refuse({ message: "Unknown action." }, 400);
  if (!can(staff.role, { trade: ["decide"] })) return refuse({ message: NO_PERMISSION }, 403);
  const reason = formText(form, "reason").trim().slice(0, 1000) || null;
  if (intent === "reject" && !reason)
    return refuse(
      {
        message: "Give the applicant a reason for the rejection.",
        fieldError: "Give the applicant a reason for the rejection.",
      },
      400,
    );
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
    if (isDomainError(error)) return refuse({ message: error.message }, error.status);
    throw error;
  }
  throw redirect(`/admin/trade/${id}?done=${intent === "approve" ? "approved" : "rejected"}`, { status: 303 });
}

export default function TradeApplication({ loaderData, actionData }: Route.ComponentProps) {
  const { application: a, terms, priceLists, canChangeTerms, done } = loaderData;
  const fieldRefusal = Boolean(actionData?.fieldError || actionData?.terms?.errors);
  const address = [a.billing_line1, a.billing_line2, a.billing_city, a.billing_region, a.billing_postcode]
    .filter(Boolean)
    .join(", ");
  return (
    <article aria-labelledby="application-heading">
      <BackHeading backTo="/admin/trade" backLabel="Trade accounts" id="application-heading" title={a.company_name} />
      <ResultMessage result={actionData ? (fieldRefusal ? null : actionData) : done} />
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
        <dd>
          {a.tax_id}
          {loaderData.vatCheck ? <span data-testid="vat-check"> — {loaderData.vatCheck}</span> : null}
        </dd>
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
            <TextArea
              id="reject-reason"
              name="reason"
              label="Reason for the rejection (sent to the applicant)"
              maxLength={1000}
              error={actionData?.fieldError}
            />
            <button
              type="submit"
              className="rounded-md border border-red-300 px-4 py-2 font-semibold text-red-800 hover:bg-red-50"
            >
              Reject
            </button>
          </Form>
        </div>
      ) : null}
      {terms ? (
        <HeadedSection
          id="terms-heading"
          title="Company terms"
          headingClassName="text-xl font-semibold text-ink"
          className="mt-8 max-w-3xl border-t border-slate-200 pt-6"
        >
          {canChangeTerms ? (
            <CompanyTermsForm
              key={terms.updatedAt}
              terms={terms}
              priceLists={priceLists}
              values={actionData?.terms?.values}
              errors={actionData?.terms?.errors}
            />
          ) : (
            <CompanyTermsSummary terms={terms} priceLists={priceLists} />
          )}
        </HeadedSection>
      ) : null}
      {loaderData.credit ? (
        <div className="mt-8 max-w-3xl border-t border-slate-200 pt-6">
          <CompanyInvoices
            credit={loaderData.credit}
            invoices={loaderData.invoices}
            orderHref={(n) => `/admin/orders/${n}`}
          />
        </div>
      ) : null}
    </article>
  );
}
