import { AdminTable } from "../../components/admin/AdminTable.tsx";
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/audit";
import { listAudit } from "../../../server/audit/audit.ts";
import { getDb } from "../../../server/db/connection.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Audit log | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

function param(url: URL, name: string, max = 100): string | undefined {
  const value = url.searchParams.get(name)?.trim().slice(0, max);
  return value ? value : undefined;
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { audit: ["view"] });
  const url = new URL(request.url);
  const before = Number(url.searchParams.get("before"));
  const filter = { actorId: param(url, "actor"), objectType: param(url, "type", 40), objectId: param(url, "object") };
  const db = getDb();
  const [page, actors, types] = await Promise.all([
    listAudit(db, { ...filter, beforeId: Number.isSafeInteger(before) && before > 0 ? before : undefined, limit: 50 }),
    db.selectFrom("audit_log").select(["actor_id", "actor_name"]).distinct().orderBy("actor_name").limit(200).execute(),
    db.selectFrom("audit_log").select("object_type").distinct().orderBy("object_type").limit(50).execute(),
  ]);
  return { page, filter, actors, types: types.map((t) => t.object_type) };
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { audit: ["view"] });
  throw data("Method not allowed", { status: 405 });
}

const time = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });

function Values({ json }: { json: string | null }) {
  if (!json) return <span className="text-slate-600">—</span>;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return <code>{json}</code>;
  }
  if (!value || typeof value !== "object") return <code>{String(value)}</code>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-semibold">{k}</dt>
          <dd className="break-all">{typeof v === "string" ? v : JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function AuditPage({ loaderData }: Route.ComponentProps) {
  const { page, filter, actors, types } = loaderData;
  const next = new URLSearchParams();
  if (filter.actorId) next.set("actor", filter.actorId);
  if (filter.objectType) next.set("type", filter.objectType);
  if (filter.objectId) next.set("object", filter.objectId);
  if (page.nextBeforeId) next.set("before", String(page.nextBeforeId));
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading" className="text-3xl font-bold text-ink">
        Audit log
      </h1>
      <p className="mt-2 text-slate-700">Every change made in the back office, newest first. Times are UTC.</p>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="audit-actor" className="block text-sm font-semibold text-ink">
            Person
          </label>
          <select id="audit-actor" name="actor" defaultValue={filter.actorId ?? ""} className="field mt-1 w-auto">
            <option value="">Everyone</option>
            {actors.map((a) => (
              <option key={a.actor_id} value={a.actor_id}>
                {a.actor_name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-type" className="block text-sm font-semibold text-ink">
            Object type
          </label>
          <select id="audit-type" name="type" defaultValue={filter.objectType ?? ""} className="field mt-1 w-auto">
            <option value="">All</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-object" className="block text-sm font-semibold text-ink">
            Object id
          </label>
          <input id="audit-object" name="object" defaultValue={filter.objectId ?? ""} maxLength={100} className="field mt-1 w-40" />
        </div>
        <button type="submit" className="btn-primary">
          Filter
        </button>
      </Form>
      <AdminTable caption="Audit log entries" columns={["When", "Who", "What", "Object", "Before", "After"]} className="mt-6">
            {page.rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="px-3 py-6 text-center text-slate-700">
                  No entries match.
                </td>
              </tr>
            ) : (
              page.rows.map((row) => (
                <tr key={row.id} className="border-t border-slate-200 align-top">
                  <td className="whitespace-nowrap px-3 py-2">{time.format(new Date(row.created_at))}</td>
                  <td className="px-3 py-2">{row.actor_name}</td>
                  <td className="px-3 py-2 font-mono">{row.action}</td>
                  <td className="px-3 py-2">
                    {row.object_type} {row.object_id}
                  </td>
                  <td className="px-3 py-2">
                    <Values json={row.before} />
                  </td>
                  <td className="px-3 py-2">
                    <Values json={row.after} />
                  </td>
                </tr>
              ))
            )}
          </AdminTable>
      {page.nextBeforeId ? (
        <p className="mt-4">
          <Link to={`/admin/audit?${next}`} className="font-semibold text-brand-800 underline">
            Older entries
          </Link>
        </p>
      ) : null}
    </section>
  );
}
