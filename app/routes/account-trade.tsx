import { data, redirect } from "react-router";
import type { Route } from "./+types/account-trade";
import { BackToAccount } from "../components/account/BackToAccount.tsx";
import { PageHeader } from "../components/layout/PageHeader.tsx";
import { ApplicationForm } from "../components/trade/ApplicationForm.tsx";
import { readFields, validate } from "../lib/forms.ts";
import { seo } from "../lib/seo.ts";
import { TRADE_FIELDS } from "../lib/trade-labels.ts";
import { tradeApplicationSchema } from "../lib/trade-schema.ts";
import { config } from "../../server/config.ts";
import { getDb } from "../../server/db/connection.ts";
import { isDomainError } from "../../server/errors.ts";
import { readSmallForm } from "../../server/http/form-action.ts";
import { applyForTrade, latestApplication } from "../../server/trade/applications.ts";
import { companyOf } from "../../server/trade/company.ts";
import { requireCustomer } from "../../server/trade/guard.ts";

export function meta({ matches }: Route.MetaArgs) {
  return seo({
    title: "Trade account",
    description: "Apply for a ToolHub Wholesale trade account.",
    path: "/account/trade",
    matches,
    noindex: true,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const session = await requireCustomer(request);
  const db = getDb();
  if (await companyOf(db, session.userId)) throw redirect("/account/company");
  const application = await latestApplication(db, session.userId);
  return {
    application: application
      ? {
          status: application.status,
          companyName: application.company_name,
          reason: application.reason,
          createdAt: application.created_at,
        }
      : null,
    submitted: new URL(request.url).searchParams.has("submitted"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const session = await requireCustomer(request);
  const values = readFields(await readSmallForm(request), TRADE_FIELDS, 200);
  const result = validate(tradeApplicationSchema, values);
  if (!result.ok)
    return data({ errors: result.errors, values, message: "Please correct the highlighted fields." }, { status: 400 });
  try {
    await applyForTrade(getDb(), {
      userId: session.userId,
      email: session.user.email,
      name: session.user.fullName,
      form: result.data,
      siteUrl: config().siteUrl,
    });
  } catch (error) {
    if (isDomainError(error)) return data({ errors: {}, values, message: error.message }, { status: error.status });
    throw error;
  }
  throw redirect("/account/trade?submitted=1", { status: 303 });
}

export default function AccountTrade({ loaderData, actionData }: Route.ComponentProps) {
  const { application, submitted } = loaderData;
  const pending = application?.status === "pending";
  return (
    <>
      <PageHeader
        title="Trade account"
        intro="Company prices, purchase-order numbers, invoices and payment terms for businesses."
      />
      <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 text-slate-700">
        {pending ? (
          <p role="status" className="rounded-lg bg-green-50 p-4 text-green-900">
            {submitted ? "Thank you: your application is sent. " : ""}Your application for {application.companyName} is
            being reviewed. We'll email you the decision, usually within one working day.
          </p>
        ) : (
          <>
            {application?.status === "rejected" ? (
              <div role="status" className="rounded-lg bg-amber-50 p-4 text-amber-900">
                <p>Your application for {application.companyName} was not approved.</p>
                {application.reason ? <p className="mt-1">Reason: {application.reason}</p> : null}
                <p className="mt-1">You can correct the details and apply again below.</p>
              </div>
            ) : (
              <p>
                A trade account lets your company's buyers order at your trade prices, add a purchase-order number to
                each order and pay by invoice. Tell us about your company; we check every application.
              </p>
            )}
            <ApplicationForm errors={actionData?.errors} values={actionData?.values} message={actionData?.message} />
          </>
        )}
        <BackToAccount />
      </div>
    </>
  );
}
