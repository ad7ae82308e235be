import { data, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/products-import";
import { FormMessage } from "../../components/admin/fields.tsx";
import { ProductsHeading } from "../../components/admin/BackHeading.tsx";
import {
  applyImport,
  MAX_IMPORT_BYTES,
  previewImport,
  type ImportPlan,
} from "../../../server/catalog/product-import.ts";
import { getDb } from "../../../server/db/connection.ts";
import { isDomainError } from "../../../server/errors.ts";
import { ADMIN_UPLOAD_LIMIT_BYTES } from "../../../server/http/body-limit.ts";
import { readSmallForm } from "../../../server/http/form-action.ts";
import { requireStaff } from "../../../server/staff/guard.ts";
import { formText } from "../../lib/form-text.ts";
import { HeadedSection } from "../../components/ui/HeadedSection.tsx";
import { UploadForm } from "../../components/admin/UploadForm.tsx";
import { CsvSourceFields } from "../../components/admin/CsvSourceFields.tsx";

export function meta() {
  return [{ title: "Import products | Back office | ToolHub Wholesale" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { product: ["import"] });
  const url = new URL(request.url);
  return {
    created: Number(url.searchParams.get("created") ?? -1),
    updated: Number(url.searchParams.get("updated") ?? -1),
  };
}

/** Rows listed on the page; the counts cover the whole file. */
const SHOWN_ROWS = 500;

type Answer = { csv: string; plan: ImportPlan | null; message: string | null };

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireStaff(request, { product: ["import"] });
  const form = await readSmallForm(request, ADMIN_UPLOAD_LIMIT_BYTES);
  const file = form.get("file");
  const pasted = formText(form, "csv");
  const csv = file instanceof File && file.size > 0 ? await file.text() : pasted;
  const reply = (body: Answer, status = 200) => data(body, { status });
  if (!csv.trim()) return reply({ csv: "", plan: null, message: "Choose a CSV file or paste its text." }, 400);
  if (Buffer.byteLength(csv) > MAX_IMPORT_BYTES)
    return reply({ csv: "", plan: null, message: "The file must be 10 MB or smaller." }, 413);
  const db = getDb();
  try {
    if (form.get("intent") === "apply") {
      const result = await applyImport(db, staff, csv, formText(form, "hash"));
      throw redirect(`/admin/products/import?created=${result.created}&updated=${result.updated}`);
    }
    return reply({ csv, plan: await previewImport(db, staff, csv), message: null });
  } catch (error) {
    if (isDomainError(error)) {
      // A refused apply shows the fresh preview, so staff see what changed.
      const plan = await previewImport(db, staff, csv).catch(() => null);
      return reply({ csv, plan, message: error.message }, error.status);
    }
    throw error;
  }
}

export default function ImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const plan = actionData?.plan ?? null;
  const changing = plan ? plan.rows.filter((r) => r.action !== "unchanged") : [];
  const canApply = plan && plan.errors.length === 0 && changing.length > 0;
  return (
    <div className="space-y-6">
      <div>
        <ProductsHeading title="Import products" />
        <p className="mt-2 max-w-3xl text-sm text-slate-700">
          Either two columns, <code>sku,stock</code>, to set stock counts, or every product column as the{" "}
          <a href="/admin/products/export.csv" className="text-brand-800 underline">
            export
          </a>{" "}
          writes them (<code>id</code>, <code>archived</code> and <code>updated_at</code> are ignored; new SKUs create
          products). You see a preview first; nothing is written until you apply it, and then everything is written
          together or nothing is.
        </p>
      </div>
      {loaderData.created >= 0 && !actionData ? (
        <FormMessage tone="success">{`Imported: ${loaderData.created} created, ${loaderData.updated} updated. The shop shows the changes now.`}</FormMessage>
      ) : null}
      {actionData?.message ? <FormMessage tone="error">{actionData.message}</FormMessage> : null}

      <UploadForm intent="preview" label="CSV to preview" className="space-y-4 rounded-lg border border-slate-200 p-4">
        <CsvSourceFields id="import" rows={8} pasted={plan ? "" : (actionData?.csv ?? "")} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy && navigation.formData?.get("intent") === "preview" ? "Reading…" : "Preview"}
        </button>
      </UploadForm>

      {plan ? (
        <HeadedSection
          id="preview-heading"
          title="Preview"
          headingClassName="text-xl font-semibold text-ink"
          className="space-y-4"
        >
          <p role="status" className="text-sm">
            {plan.mode === "stock" ? "Stock counts" : plan.mode === "full" ? "Full product rows" : "Unreadable file"}:{" "}
            {plan.rows.filter((r) => r.action === "create").length} to create,{" "}
            {plan.rows.filter((r) => r.action === "update").length} to update,{" "}
            {plan.rows.filter((r) => r.action === "unchanged").length} unchanged, {plan.errors.length} bad row
            {plan.errors.length === 1 ? "" : "s"}.
          </p>
          {plan.errors.length ? (
            <div>
              <h3 className="font-semibold text-red-800">Bad rows — fix them and preview again</h3>
              <ul className="mt-2 list-disc pl-5 text-sm text-red-900" aria-label="Bad rows">
                {plan.errors.slice(0, SHOWN_ROWS).map((e, i) => (
                  <li key={i}>
                    Line {e.line}: {e.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {changing.length ? (
            <div className="max-h-[60vh] overflow-auto rounded-lg border border-slate-200">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Changes the import makes</caption>
                <thead className="sticky top-0 bg-slate-100">
                  <tr>
                    {["Line", "SKU", "Action", "Changes"].map((h) => (
                      <th key={h} scope="col" className="px-2 py-2">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {changing.slice(0, SHOWN_ROWS).map((r) => (
                    <tr key={r.line} className="border-t border-slate-200">
                      <td className="px-2 py-1 tabular-nums">{r.line}</td>
                      <td className="px-2 py-1 font-mono">{r.sku}</td>
                      <td className="px-2 py-1">{r.action === "create" ? "Create" : "Update"}</td>
                      <td className="px-2 py-1">{r.changes.join(", ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {changing.length > SHOWN_ROWS ? (
            <p className="text-sm">…and {changing.length - SHOWN_ROWS} more rows.</p>
          ) : null}
          {canApply ? (
            <UploadForm intent="apply" label="Apply the import">
              <input type="hidden" name="hash" value={plan.hash} />
              <textarea name="csv" hidden readOnly value={actionData!.csv} aria-hidden="true" tabIndex={-1} />
              <button type="submit" className="btn-primary" disabled={busy}>
                {busy && navigation.formData?.get("intent") === "apply"
                  ? "Applying…"
                  : `Apply ${changing.length} change${changing.length === 1 ? "" : "s"}`}
              </button>
            </UploadForm>
          ) : plan.errors.length === 0 ? (
            <p className="text-sm">Nothing to change.</p>
          ) : null}
        </HeadedSection>
      ) : null}
    </div>
  );
}
