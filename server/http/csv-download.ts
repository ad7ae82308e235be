/** A CSV file for staff to download: an attachment under `filename`, never kept by a shared cache or indexed. */
export function csvDownload(body: BodyInit, filename: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
