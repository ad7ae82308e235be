import { Form, useNavigation } from "react-router";
import { PostButton } from "../../ui/PostButton.tsx";
import type { LedgerEntry } from "../../../../server/inventory/adjust.ts";
import { ADJUST_REASONS, type FieldErrors } from "../../../lib/product-schema.ts";
import { fieldAria, FieldShell, FormMessage, Select, TextInput } from "../fields.tsx";
import { HeadedSection } from "../../ui/HeadedSection.tsx";
import { UploadForm } from "../UploadForm.tsx";

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

const REASON_LABELS: Record<string, string> = {
  order: "Order placed",
  order_released: "Order hold released",
  cancellation: "Order cancelled",
  return: "Returned",
  adjustment: "Adjustment",
  import: "CSV import",
  received: "Received",
  count_correction: "Count correction",
  damaged: "Damaged",
};

export function StockPanel({
  stock,
  errors = {},
  values = {},
}: {
  stock: number;
  errors?: FieldErrors;
  values?: Record<string, string>;
}) {
  const busy = useBusy("adjust-stock");
  return (
    <section aria-labelledby="stock-heading" className="rounded-lg border border-slate-200 p-4">
      <h2 id="stock-heading" className="text-lg font-semibold text-ink">
        Stock: <span data-testid="current-stock">{stock}</span>
      </h2>
      <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-4 sm:items-start" aria-label="Adjust stock">
        <input type="hidden" name="intent" value="adjust-stock" />
        <Select
          id="stock-reason"
          name="reason"
          label="Reason"
          defaultValue={values.reason ?? "received"}
          error={errors.reason}
          options={ADJUST_REASONS.map((r) => ({ value: r.value, label: r.label }))}
        />
        <TextInput
          id="stock-change"
          name="change"
          label="Change (+/−)"
          inputMode="numeric"
          defaultValue={values.change ?? ""}
          error={errors.change}
          hint="e.g. 12 or -3"
        />
        <TextInput
          id="stock-note"
          name="note"
          label="Note"
          required={false}
          defaultValue={values.note ?? ""}
          error={errors.note}
          maxLength={500}
        />
        <button type="submit" className="btn-outline sm:mt-6" disabled={busy}>
          {busy ? "Adjusting…" : "Adjust stock"}
        </button>
      </Form>
    </section>
  );
}

export function LedgerTable({ rows }: { rows: LedgerEntry[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-700">No stock movements yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="mb-2 text-left text-lg font-semibold text-ink">Recent stock movements</caption>
        <thead className="sticky top-0 bg-white">
          <tr className="border-b border-slate-300">
            {["When", "Who", "Reason", "Change", "Before", "After", "Order", "Note"].map((h) => (
              <th key={h} scope="col" className="px-2 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-b border-slate-200">
              <td className="px-2 py-1 whitespace-nowrap">
                <time dateTime={r.createdAt}>{r.createdAt.slice(0, 16).replace("T", " ")}</time>
              </td>
              <td className="px-2 py-1">{r.who}</td>
              <td className="px-2 py-1">{REASON_LABELS[r.reason] ?? r.reason}</td>
              <td className="px-2 py-1 tabular-nums">{r.delta > 0 ? `+${r.delta}` : r.delta}</td>
              <td className="px-2 py-1 tabular-nums">{r.before}</td>
              <td className="px-2 py-1 tabular-nums">{r.after}</td>
              <td className="px-2 py-1">{r.orderNumber ?? "—"}</td>
              <td className="px-2 py-1">{r.note ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ImagesPanel({
  title,
  images,
  error,
}: {
  title: string;
  images: { id: number; url: string; thumbnailUrl: string }[];
  error?: string;
}) {
  const busy = useBusy("upload-image");
  return (
    <HeadedSection
      id="images-heading"
      title="Pictures"
      headingClassName="text-lg font-semibold text-ink"
      className="rounded-lg border border-slate-200 p-4"
    >
      {images.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">No uploaded pictures: the shop shows the generated drawing.</p>
      ) : null}
      <ul className="mt-3 flex flex-wrap gap-4">
        {images.map((img, i) => (
          <li key={img.id} className="w-40">
            {/* eslint-disable-next-line jsx-a11y/img-redundant-alt -- "picture N" tells staff which upload this is */}
            <img
              src={img.thumbnailUrl}
              alt={`${title} — picture ${i + 1}`}
              width={160}
              height={160}
              className="h-40 w-40 rounded border border-slate-200 bg-slate-50 object-contain"
            />
            <div className="mt-1 flex flex-wrap gap-2">
              {i > 0 ? (
                <PostButton
                  fields={{ intent: "cover-image", imageId: img.id }}
                  className="text-sm text-brand-800 underline"
                  aria-label={`Show picture ${i + 1} first`}
                >
                  Show first
                </PostButton>
              ) : (
                <span className="text-sm text-slate-700">Shown first</span>
              )}
              <Form method="post">
                <input type="hidden" name="intent" value="remove-image" />
                <input type="hidden" name="imageId" value={img.id} />
                <button type="submit" className="text-sm text-red-700 underline" aria-label={`Remove picture ${i + 1}`}>
                  Remove
                </button>
              </Form>
            </div>
          </li>
        ))}
      </ul>
      <UploadForm intent="upload-image" label="Upload a picture" className="mt-4 flex flex-wrap items-end gap-3">
        <FieldShell id="image-file" label="Picture (JPEG, PNG or WebP, up to 10 MB)" error={error}>
          <input
            id="image-file"
            name="image"
            type="file"
            accept="image/jpeg,image/png,image/webp"
            required
            {...fieldAria("image-file", error)}
            className="mt-1 block text-sm"
          />
        </FieldShell>
        <button type="submit" className="btn-outline" disabled={busy}>
          {busy ? "Uploading…" : "Upload picture"}
        </button>
      </UploadForm>
    </HeadedSection>
  );
}

export function ArchivePanel({ archivedAt, orderCount }: { archivedAt: string | null; orderCount: number }) {
  const busy = useBusy(archivedAt ? "unarchive" : "archive");
  return (
    <section aria-labelledby="archive-heading" className="rounded-lg border border-slate-200 p-4">
      <h2 id="archive-heading" className="text-lg font-semibold text-ink">
        {archivedAt ? "Archived" : "On sale"}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {archivedAt
          ? `Archived on ${archivedAt.slice(0, 10)}: not in the shop, search or sitemap. Orders that have it still show it.`
          : `Archiving takes the product out of the shop, search and sitemap; its ${orderCount} order line${orderCount === 1 ? "" : "s"} keep showing it. Products are archived, never deleted.`}
      </p>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value={archivedAt ? "unarchive" : "archive"} />
        <button type="submit" className={archivedAt ? "btn-primary" : "btn-outline"} disabled={busy}>
          {archivedAt ? "Put back on sale" : "Archive product"}
        </button>
      </Form>
    </section>
  );
}

export { FormMessage };
