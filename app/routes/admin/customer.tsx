import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/customer";
import { BackHeading } from "../../components/admin/BackHeading.tsx";
import { TextArea } from "../../components/admin/fields.tsx";
import {
  BAN_MESSAGES,
  BAN_REASON_MAX,
  CUSTOMER_INTENTS,
  methodLabels,
  ROLE_LABELS,
} from "../../lib/admin/customer-labels.ts";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { When } from "../../components/admin/list/When.tsx";
import { doneMessage, fieldErrorOf, ResultMessage } from "../../components/admin/ResultMessage.tsx";
import { formatMoney, formatPerCurrency } from "../../lib/money.ts";
import { banCustomer, checkBanReason, unbanCustomer } from "../../../server/customers/ban.ts";
import { getCustomer } from "../../../server/customers/detail.ts";
import { getDb } from "../../../server/db/connection.ts";
import { answerFormAction, readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { STAFF_ROLES } from "../../../server/auth/permissions.ts";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.customer.name || loaderData?.customer.email || "Customer";
  return [{ title: `${name} | Customers | Back office | ToolHub Wholesale` }, { name: "robots", content: "noindex" }];
}

const DONE = { banned: "Customer banned. Their sessions were ended.", unbanned: BAN_MESSAGES.unbanned };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireStaff(request, { customer: ["view"] });
  const customer = await getCustomer(getDb(), params.id);
  if (!customer) throw data("Not found", { status: 404 });
  return { customer, isStaff: STAFF_ROLES.includes(customer.role), done: doneMessage(new URL(request.url), DONE) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const staff = await requireStaff(request, { customer: ["ban"] });
  const form = await readSmallForm(request);
  const intent = form.get("intent");
  const self = `/admin/customers/${encodeURIComponent(params.id)}`;
  if (intent === CUSTOMER_INTENTS.ban) {
    const checked = checkBanReason(typeof form.get("reason") === "string" ? form.get("reason") : "");
    if (!checked.ok) return data({ ok: false, message: checked.message, fieldError: checked.message }, { status: 400 });
    return answerFormAction(request, () => banCustomer(getDb(), staff, params.id, { reason: checked.reason }), {
      redirectTo: `${self}?done=banned`,
    });
  }
  if (intent === CUSTOMER_INTENTS.unban) {
    return answerFormAction(request, () => unbanCustomer(getDb(), staff, params.id), {
      redirectTo: `${self}?done=unbanned`,
    });
  }
  return data({ ok: false, message: "Unknown action." }, { status: 400 });
}

function BanForm({ fieldError, busy }: { fieldError?: string; busy: boolean }) {
  return (
    <Form method="post" className="mt-4 max-w-xl space-y-3" preventScrollReset>
      <input type="hidden" name="intent" value={CUSTOMER_INTENTS.ban} />
      <TextArea
        id="ban-reason"
        name="reason"
        label="Reason for the ban"
        rows={3}
        maxLength={BAN_REASON_MAX}
        error={fieldError}
        hint={
          fieldError
            ? undefined
            : "Kept in the audit log. Banning signs the customer out everywhere and stops them signing in."
        }
      />
      <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={busy}>
        {busy ? "Banning…" : "Ban customer"}
      </button>
    </Form>
  );
}

export default function Customer({ loaderData, actionData }: Route.ComponentProps) {
  const { customer: c, done, isStaff } = loaderData;
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const result = actionData ?? done;
  const fieldError = fieldErrorOf(actionData);
  return (
    <section aria-labelledby="customer-heading">
      <BackHeading backTo="/admin/customers" backLabel="Customers" id="customer-heading" title={c.name || c.email} />
      <ResultMessage result={fieldError ? null : result} />

      <dl className="mt-6 grid max-w-3xl grid-cols-[auto_1fr] gap-x-6 gap-y-2">
        <dt className="font-semibold text-ink">Email</dt>
        <dd>
          {c.email} {c.emailVerified ? "(confirmed)" : "(not confirmed)"}
        </dd>
        <dt className="font-semibold text-ink">Role</dt>
        <dd>{ROLE_LABELS[c.role]}</dd>
        <dt className="font-semibold text-ink">Sign-in methods</dt>
        <dd>{methodLabels(c.methods).join(", ")}</dd>
        <dt className="font-semibold text-ink">Joined</dt>
        <dd>
          <When iso={c.createdAt} />
        </dd>
        <dt className="font-semibold text-ink">Signed-in devices</dt>
        <dd>{c.activeSessions}</dd>
        <dt className="font-semibold text-ink">Status</dt>
        <dd>{c.banned ? `Banned: ${c.banReason ?? "no reason given"}` : "Active"}</dd>
        <dt className="font-semibold text-ink">Placed orders</dt>
        <dd>{c.orderCount}</dd>
        <dt className="font-semibold text-ink">Lifetime value</dt>
        <dd>{formatPerCurrency(c.lifetimeValue)}</dd>
      </dl>

      <HeadedSection
        id="orders-heading"
        title="Orders"
        headingClassName="text-xl font-semibold text-ink"
        className="mt-8"
      >
        <AdminList
          caption={`Orders of ${c.name || c.email}, newest first`}
          rows={c.orders}
          rowKey={(o) => o.number}
          columns={[
            {
              header: "Order",
              cell: (o) => (
                <Link to={`/admin/orders/${encodeURIComponent(o.number)}`} className="font-medium underline">
                  {o.number}
                </Link>
              ),
            },
            { header: "Placed", cell: (o) => <When iso={o.createdAt} /> },
            { header: "Status", cell: (o) => o.status.replace(/_/g, " ") },
            { header: "Total", cell: (o) => formatMoney(o.totalCents, o.currency) },
          ]}
          empty="No orders on this account."
        />
        {c.allOrders > c.orders.length ? (
          <p className="mt-2 text-sm text-slate-700">
            Showing the newest {c.orders.length} of {c.allOrders} orders.
          </p>
        ) : null}
      </HeadedSection>

      <HeadedSection
        id="access-heading"
        title="Access"
        headingClassName="text-xl font-semibold text-ink"
        className="mt-8"
      >
        {isStaff ? (
          <p className="mt-2 text-slate-700">{BAN_MESSAGES.staff}</p>
        ) : c.banned ? (
          <Form method="post" className="mt-4" preventScrollReset>
            <input type="hidden" name="intent" value={CUSTOMER_INTENTS.unban} />
            <button type="submit" className="btn-outline" disabled={busyIntent === CUSTOMER_INTENTS.unban}>
              {busyIntent === CUSTOMER_INTENTS.unban ? "Unbanning…" : "Unban customer"}
            </button>
          </Form>
        ) : (
          <BanForm fieldError={fieldError} busy={busyIntent === CUSTOMER_INTENTS.ban} />
        )}
      </HeadedSection>
    </section>
  );
}
