import type { Route } from "./+types/products-export";
import { exportProductsCsv } from "../../../server/catalog/product-export.ts";
import { getDb } from "../../../server/db/connection.ts";
import { csvDownload } from "../../../server/http/csv-download.ts";
import { requireStaff } from "../../../server/staff/guard.ts";

/** Every product with its stock, as CSV, streamed page by page. */
export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, { product: ["export"] });
  const rows = exportProductsCsv(getDb(), staff);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await rows.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const stamp = new Date().toISOString().slice(0, 10);
  return csvDownload(body, `products-${stamp}.csv`);
}

/** Nothing to post; the guard answers first, so guests and customers learn nothing. */
export async function action({ request }: Route.ActionArgs) {
  await requireStaff(request, { product: ["export"] });
  return new Response("Method not allowed", { status: 405, headers: { Allow: "GET" } });
}
