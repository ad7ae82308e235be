import { data, Link } from "react-router";
import type { Route } from "./+types/account-company";
import { BackToAccount } from "../components/account/BackToAccount.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { CompanyMembers, InviteForm, type ActionMessage } from "../components/trade/CompanyMembers.tsx";
import { SpendingLimits } from "../components/trade/SpendingLimits.tsx";
import { seo } from "../lib/seo.ts";
import { COMPANY_ROLE_LABELS, companyCan, isCompanyRole } from "../../server/auth/company-roles.ts";
import { getDb } from "../../server/db/connection.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { cancelInvitation, inviteColleague, removeMember } from "../../server/trade/company-actions.ts";
import { companyMembers, pendingInvitations } from "../../server/trade/company.ts";
import { requireCompanyMember } from "../../server/trade/guard.ts";
import { parseLimit, setSpendingLimit, spendingLimits } from "../../server/trade/limits.ts";
import { waitingForApproval } from "../../server/trade/approvals.ts";
import { isDomainError } from "../../server/errors.ts";
import { CompanyInvoices } from "../components/trade/CompanyInvoices.tsx";
import { creditStanding } from "../../server/invoices/credit.ts";
import { companyOpenInvoices } from "../../server/invoices/open-invoices.ts";
import { formText } from "../lib/form-text.ts";
import { PostAnswer } from "../components/ui/PostAnswer.tsx";
import { HeadedSection } from "../components/ui/HeadedSection.tsx";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Your company",
    description: "Your company's trade account.",
    path: "/account/company",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const { session, company, role } = await requireCompanyMember(getDb(), request);
  const db = getDb();
  const manages = companyCan(role, { member: ["create"] });
  const approves = companyCan(role, { order: ["approve"] });
  const [members, invitations, limits, waiting, credit, invoices] = await Promise.all([
    companyMembers(db, company.organization_id),
    manages ? pendingInvitations(db, company.organization_id) : [],
    spendingLimits(db, company.organization_id),
    approves ? waitingForApproval(db, company.organization_id) : [],
    company.net30 ? creditStanding(db, company.organization_id) : null,
    company.net30 ? companyOpenInvoices(db, company.organization_id) : [],
  ]);
  return {
    company: {
      name: company.name,
      country: company.country,
      taxId: company.tax_id,
      net30: Boolean(company.net30),
      poRequired: Boolean(company.po_required),
      creditLimitCents: company.credit_limit_cents,
    },
    roleLabel: role
      .split(",")
      .filter(isCompanyRole)
      .map((r) => COMPANY_ROLE_LABELS[r])
      .join(", "),
    manages,
    approves,
    waitingCount: waiting.length,
    members: members.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      role: m.role,
      you: m.userId === session.userId,
    })),
    limits: members.map((m) => ({ userId: m.userId, name: m.name, limitCents: limits.get(m.userId) ?? null })),
    credit,
    invoices: invoices.map((i) => ({
      number: i.number,
      orderNumber: i.orderNumber,
      totalCents: i.totalCents,
      dueAt: i.dueAt,
      daysOverdue: i.daysOverdue,
      yours: i.buyerUserId === session.userId,
    })),
    invitations: invitations.map((i) => ({
      id: i.id,
      email: i.email,
      role: i.role ?? "buyer",
      expiresAt: new Date(i.expiresAt).toISOString(),
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const { company, role, session } = await requireCompanyMember(getDb(), request);
  const form = await readSmallForm(request);
  const intent = formText(form, "intent");
  if (intent === "set-limit")
    return limitAction(form, {
      userId: session.userId,
      name: session.user.fullName,
      organizationId: company.organization_id,
      role,
    });
  const result =
    intent === "invite"
      ? await inviteColleague(request, company.organization_id, form)
      : intent === "cancel-invitation"
        ? await cancelInvitation(request, form)
        : intent === "remove-member"
          ? await removeMember(request, company.organization_id, form)
          : { ok: false, status: 400, message: "Unknown action." };
  const body: ActionMessage = {
    ok: result.ok,
    message: result.message,
    intent,
    field: "field" in result ? result.field : undefined,
    email: intent === "invite" ? formText(form, "email").slice(0, 254) : undefined,
  };
  return data(body, { status: result.ok ? 200 : result.status });
}

async function limitAction(
  form: FormData,
  owner: { userId: string; name: string; organizationId: string; role: string },
) {
  const cents = parseLimit(form.get("limit"));
  const answer = (ok: boolean, message: string, status = 200) =>
    data<ActionMessage>({ ok, message, intent: "set-limit" }, { status });
  if (cents === undefined)
    return answer(
      false,
      "Give the limit as an amount in dollars, like 250 or 1250.50, or leave it empty for no limit.",
      400,
    );
  try {
    return answer(true, await setSpendingLimit(getDb(), owner, formText(form, "userId").slice(0, 100), cents));
  } catch (error) {
    if (isDomainError(error)) return answer(false, error.message, error.status);
    throw error;
  }
}

export default function AccountCompany({ loaderData, actionData }: Route.ComponentProps) {
  const { company, roleLabel, manages, approves, waitingCount, members, invitations, limits } = loaderData;
  return (
    <>
      <PageHeader title="Your company" intro={`${company.name} · your role: ${roleLabel}`} />
      <div className="mx-auto max-w-4xl space-y-8 px-4 py-10 text-slate-700">
        <PostAnswer answer={actionData} />
        <HeadedSection id="company-details-heading" title="Trade account" headingClassName="text-lg font-bold text-ink">
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1">
            <dt className="font-semibold">Company</dt>
            <dd>{company.name}</dd>
            <dt className="font-semibold">{company.country === "GB" ? "VAT number" : "EIN"}</dt>
            <dd>{company.taxId}</dd>
            <dt className="font-semibold">Payment terms</dt>
            <dd>{company.net30 ? "Invoice, net 30" : "Card or pay on delivery (ask us about net-30 terms)"}</dd>
          </dl>
        </HeadedSection>
        {loaderData.credit ? <CompanyInvoices credit={loaderData.credit} invoices={loaderData.invoices} /> : null}
        {company.country === "US" ? (
          <p>
            <Link to="/account/company/tax-exemptions" className="font-semibold text-brand-800 hover:underline">
              Tax exemption certificates
            </Link>
          </p>
        ) : null}
        {approves ? (
          <p>
            <Link to="/account/company/approvals" className="font-semibold text-brand-800 hover:underline">
              Orders waiting for approval ({waitingCount})
            </Link>
          </p>
        ) : null}
        <CompanyMembers members={members} invitations={invitations} manages={manages} />
        <SpendingLimits members={limits} manages={manages} />
        {manages ? (
          <InviteForm error={actionData && !actionData.ok && actionData.intent === "invite" ? actionData : undefined} />
        ) : null}
        <BackToAccount />
      </div>
    </>
  );
}
