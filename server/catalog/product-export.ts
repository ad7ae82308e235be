/**
 * CSV export of products and stock, streamed: rows are read by id in pages of 1,000 (keyset), so
 * a 100k-product catalog never sits in memory at once. The columns are the import's (the product
 * form's field names), plus id, the UK price in use (uk_price is empty when the UK price rule
 * derives it), archived and updated_at, which the import ignores. Prices: price in US dollars,
 * uk_price and uk_price_in_use in pounds.
 */
import { stringify } from "csv-stringify/sync";
import { centsToDecimalString } from "../../app/lib/money.ts";
import { PRODUCT_FIELDS } from "../../app/lib/product-schema.ts";
import type { Db } from "../db/connection.ts";
import { productRowToFields, productsWithSlugs } from "./product-rows.ts";
import { assertCan, type StaffActor } from "./staff-actor.ts";

const PAGE = 1000;
const EXPORT_COLUMNS = ["id", ...PRODUCT_FIELDS, "uk_price_in_use", "archived", "updated_at"] as const;

/** Cells that a spreadsheet would run as a formula start with a quote mark (CSV injection). */
function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
}

/** The CSV as chunks of text: the header, then one chunk per page of products. */
export async function* exportProductsCsv(db: Db, actor: StaffActor): AsyncGenerator<string> {
  assertCan(actor, { product: ["export"] });
  yield stringify([EXPORT_COLUMNS]);
  let lastId = 0;
  for (;;) {
    const rows = await productsWithSlugs(db).where("p.id", ">", lastId).orderBy("p.id").limit(PAGE).execute();
    if (rows.length === 0) return;
    yield stringify(
      rows.map((r) => {
        const fields = productRowToFields(r);
        return [
          String(r.id),
          ...PRODUCT_FIELDS.map((f) => safeCell(fields[f])),
          centsToDecimalString(Number(r.uk_price_pence)),
          r.archived_at ? "yes" : "",
          r.updated_at ?? r.created_at,
        ];
      }),
    );
    lastId = Number(rows[rows.length - 1].id);
  }
}
