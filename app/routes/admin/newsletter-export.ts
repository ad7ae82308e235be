import { data } from "react-router";
import type { Route } from "./+types/newsletter-export";
import { getDb } from "../../../server/db/connection.ts";
import { parseNewsletterStatus, subscribersCsv } from "../../../server/newsletter/admin.ts";
import { csvDownload } from "../../../server/http/csv-download.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

/** The subscribers as CSV (email, status, dates), streamed in batches; ?status= narrows it. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, { message: ["view"] });
  const url = new URL(request.url);
  const raw = url.searchParams.get("status");
  const status = parseNewsletterStatus(raw);
  if (raw && !status) throw data("Unknown status: use pending, confirmed or unsubscribed.", { status: 400 });
  const chunks = subscribersCsv(getDb(), { status });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return csvDownload(body, `newsletter-${status ?? "all"}-${day}.csv`);
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { message: ["view"] });
  throw data("Method not allowed", { status: 405 });
}
