import { data } from "react-router";
import { Options } from "../../components/ui/Options.tsx";
import type { Route } from "./+types/audit";
import { AdminList } from "../../components/admin/list/AdminList.tsx";
import { FilterField, FilterForm } from "../../components/admin/list/FilterForm.tsx";
import { cursorPager } from "../../lib/admin/list-pager.ts";
import { auditFilterChoices } from "../../../server/admin/audit-choices.ts";
import { auditListFilters } from "../../../server/admin/list-filters.ts";
import { loadListPage } from "../../../server/admin/list-page.ts";
import { listAudit } from "../../../server/audit/audit.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

export function meta() {
  return [{ title: "Audit log | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const { filter, list, beside, pager } = await loadListPage(request, {
    permission: { audit: ["view"] },
    filters: auditListFilters,
    list: (db, query) => listAudit(db, { ...query, limit: 50 }),
    beside: (db) => auditFilterChoices(db),
    pager: (page) => cursorPager(null, page.nextBeforeId ? { before: page.nextBeforeId } : null),
  });
  const { actorId, objectType, objectId } = filter;
  return { rows: list.rows, filter: { actorId, objectType, objectId }, ...beside, pager };
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
  const { rows, filter, actors, types, pager } = loaderData;
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading" className="text-3xl font-bold text-ink">
        Audit log
      </h1>
      <p className="mt-2 text-slate-700">Every change made in the back office, newest first. Times are UTC.</p>
      <FilterForm search={false} button="Filter" className="mt-6 flex flex-wrap items-end gap-4">
        <FilterField id="audit-actor" label="Person">
          <select id="audit-actor" name="actor" defaultValue={filter.actorId ?? ""} className="field mt-1 w-auto">
            <option value="">Everyone</option>
            <Options options={actors.map((a) => ({ value: a.actor_id, label: a.actor_name }))} />
          </select>
        </FilterField>
        <FilterField id="audit-type" label="Object type">
          <select id="audit-type" name="type" defaultValue={filter.objectType ?? ""} className="field mt-1 w-auto">
            <option value="">All</option>
            <Options options={types.map((t) => ({ value: t, label: t }))} />
          </select>
        </FilterField>
        <FilterField id="audit-object" label="Object id">
          <input
            id="audit-object"
            name="object"
            defaultValue={filter.objectId ?? ""}
            maxLength={100}
            className="field mt-1 w-40"
          />
        </FilterField>
      </FilterForm>
      <AdminList
        caption="Audit log entries"
        rows={rows}
        rowKey={(row) => row.id}
        columns={[
          { header: "When", className: "whitespace-nowrap", cell: (row) => time.format(new Date(row.created_at)) },
          { header: "Who", cell: (row) => row.actor_name },
          { header: "What", className: "font-mono", cell: (row) => row.action },
          { header: "Object", cell: (row) => `${row.object_type} ${row.object_id}` },
          { header: "Before", cell: (row) => <Values json={row.before} /> },
          { header: "After", cell: (row) => <Values json={row.after} /> },
        ]}
        empty="No entries match."
        pager={{
          label: "Audit log pages",
          pager,
          path: "/admin/audit",
          query: { actor: filter.actorId, type: filter.objectType, object: filter.objectId },
          nextText: "Older entries",
        }}
      />
    </section>
  );
}
