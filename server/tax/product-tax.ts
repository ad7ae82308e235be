import type { ProductTaxInput } from "../../app/lib/product-tax.ts";
import { writeAudit } from "../audit/audit.ts";
import { ProductConflictError, nextStamp, versionOf } from "../catalog/product-form.ts";
import { assertCan, type StaffActor } from "../catalog/staff-actor.ts";
import type { Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import { NotFoundError } from "../errors.ts";

/**
 * Sets a product's tax rules (its UK VAT rate class and the Proposition 65 flag) from the product
 * page's form: one audit row with what changed, and a form older than the product's last save is
 * refused (the same version as the product form), so two staff can't both win.
 */
export async function setProductTaxRules(
  db: Db,
  actor: StaffActor,
  id: number,
  input: ProductTaxInput,
  expectedVersion: string,
): Promise<{ changed: boolean }> {
  assertCan(actor, { product: ["update"] });
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom("products")
        .select(["vat_class", "prop65", "updated_at"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!current) throw new NotFoundError("not_found", "That product doesn't exist.");
      if (versionOf(current) !== expectedVersion) throw new ProductConflictError();
      const before = { vat_class: current.vat_class, prop65: Number(current.prop65) === 1 };
      const after = { vat_class: input.vat_class, prop65: input.prop65 };
      if (before.vat_class === after.vat_class && before.prop65 === after.prop65) return { changed: false };
      let update = trx
        .updateTable("products")
        .set({ vat_class: after.vat_class, prop65: after.prop65 ? 1 : 0, updated_at: nextStamp(current.updated_at) })
        .where("id", "=", id);
      update =
        current.updated_at === null
          ? update.where("updated_at", "is", null)
          : update.where("updated_at", "=", current.updated_at);
      if (Number((await update.executeTakeFirst()).numUpdatedRows) !== 1) throw new ProductConflictError();
      await writeAudit(trx, actor, { action: "product.tax", objectType: "product", objectId: id, before, after });
      return { changed: true };
    }),
  );
}
