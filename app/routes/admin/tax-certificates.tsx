import type { Route } from "./+types/tax-certificates";
import { CertificatesTable } from "../../components/trade/CertificatesTable.tsx";
import { getDb } from "../../../server/db/connection.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { staffCertificates } from "../../../server/tax/certificates.ts";

export function meta() {
  return [
    { title: "Exemption certificates | Tax | Back office | ToolHub Wholesale" },
    { name: "robots", content: "noindex" },
  ];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { tax: ["view"] });
  const rows = await staffCertificates(getDb());
  return {
    today: new Date().toISOString().slice(0, 10),
    waiting: rows.filter((r) => r.status === "pending").length,
    certificates: rows.map((c) => ({
      id: c.id,
      companyName: c.company_name,
      stateName: c.state_name,
      number: c.number,
      expiresOn: c.expires_on,
      status: c.status,
      reason: c.reason,
    })),
  };
}

export default function TaxCertificates({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-4">
      <h1 className="text-3xl font-bold text-ink">Exemption certificates</h1>
      <p className="text-sm text-slate-700">
        US trade companies&apos; resale and exemption certificates, those waiting first ({loaderData.waiting} waiting).
        Open one to verify or reject it.{" "}
        <a href="/admin/tax" className="text-brand-800 underline">
          Back to tax
        </a>
      </p>
      <CertificatesTable
        certificates={loaderData.certificates}
        fileBase="/admin/tax/certificates"
        linkBase="/admin/tax/certificates"
        today={loaderData.today}
      />
    </div>
  );
}

/** Nothing to post here; the guard answers first, so guests and customers learn nothing. */
export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { tax: ["view"] });
  return new Response("Method not allowed", { status: 405, headers: { Allow: "GET" } });
}
