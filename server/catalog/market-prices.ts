/**
 * Each product's price in the UK market (issue 51, decision 0051): set by staff, or derived from
 * its US price by the rule staff keep (a rate and a price ending). A derived price is stored when
 * the rule or the US price is saved, never computed while a page is served.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import { type DerivationRule, derivedPriceMinor, parseDerivationRule } from "../../app/lib/price-derivation.ts";
import { discountedPriceCents } from "../../app/lib/pricing.ts";
import { writeAudit } from "../audit/audit.ts";
import { dbKind, type Db } from "../db/connection.ts";
import { withTransactionRetry } from "../db/retry.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, InvalidError } from "../errors.ts";
import { assertCan, type StaffActor } from "./staff-actor.ts";
import { bumpCatalogVersion } from "./version.ts";

type Handle = Db | Transaction<Database>;

export interface UkPriceRule extends DerivationRule {
  /** What a form that changes the rule carries, so a stale form is refused. */
  version: number;
  updatedAt: string | null;
}

/**
 * The rule that derives UK prices from US prices. A transaction that stores a derived price reads
 * it with `forSaving`: on PostgreSQL that holds the rule row shared until it commits, so a new
 * rule is saved either before it (and it derives by the new rule) or after it (and the new rule's
 * re-derivation reads its new US price). SQLite runs one writing transaction at a time.
 */
export async function readUkPriceRule(db: Handle, options: { forSaving?: boolean } = {}): Promise<UkPriceRule> {
  let query = db
    .selectFrom("market_price_rules")
    .select(["rate_micros", "ending", "version", "updated_at"])
    .where("market", "=", "uk");
  if (options.forSaving && dbKind(db) === "postgres") query = query.forShare();
  const row = await query.executeTakeFirstOrThrow();
  return {
    rateMicros: Number(row.rate_micros),
    ending: row.ending === null ? null : Number(row.ending),
    version: Number(row.version),
    updatedAt: row.updated_at,
  };
}

/**
 * A product's stored UK price columns: the price staff set (pence), or, when they set none, the
 * price the rule derives from the US price. Either way the sale price follows the discount.
 */
export function ukPriceColumns(
  product: { priceCents: number; discountPercent: number | null; ukPricePence: number | null },
  rule: DerivationRule,
) {
  const set = product.ukPricePence !== null;
  const price = set ? product.ukPricePence! : derivedPriceMinor(product.priceCents, rule);
  return {
    uk_price_pence: price,
    uk_sale_price_pence: discountedPriceCents(price, product.discountPercent),
    uk_price_set: set ? 1 : 0,
  };
}

/** The rule's form holds a bad rate or ending. */
export class PriceRuleInvalidError extends InvalidError {
  readonly field: "rate" | "ending";
  constructor(message: string, field: "rate" | "ending") {
    super("invalid_price_rule", message);
    this.field = field;
  }
}

/** Someone changed the rule after this form was opened. */
export class PriceRuleConflictError extends ConflictError {
  constructor() {
    super(
      "price_rule_conflict",
      "Someone else changed the UK price rule while you were editing it. The form now shows their rule; make your change again.",
    );
  }
}

/**
 * Saves the UK price rule and derives every product's UK price that staff didn't set, in one
 * transaction with one audit row: shoppers never see some prices by the old rule and some by the
 * new. A form older than the rule's last change is refused.
 */
export async function setUkPriceRule(
  db: Db,
  actor: StaffActor,
  input: { rate: string; ending: string; version: number },
): Promise<{ changed: boolean; repriced: number }> {
  assertCan(actor, { market: ["update"] });
  const parsed = parseDerivationRule(input);
  if ("problem" in parsed) throw new PriceRuleInvalidError(parsed.problem, parsed.field);
  const rule = parsed.rule;
  return withTransactionRetry(() =>
    db.transaction().execute(async (trx) => {
      const current = await readUkPriceRule(trx);
      if (current.version !== input.version) throw new PriceRuleConflictError();
      if (current.rateMicros === rule.rateMicros && current.ending === rule.ending)
        return { changed: false, repriced: 0 };
      const saved = await trx
        .updateTable("market_price_rules")
        .set({
          rate_micros: rule.rateMicros,
          ending: rule.ending,
          version: current.version + 1,
          updated_at: new Date().toISOString(),
        })
        .where("market", "=", "uk")
        .where("version", "=", current.version)
        .executeTakeFirst();
      if (Number(saved.numUpdatedRows) !== 1) throw new PriceRuleConflictError();
      const repriced = await rederiveUkPrices(trx, rule);
      await writeAudit(trx, actor, {
        action: "market.price_rule",
        objectType: "market",
        objectId: "uk",
        before: { rate_micros: current.rateMicros, ending: current.ending },
        after: { rate_micros: rule.rateMicros, ending: rule.ending, repriced },
      });
      await bumpCatalogVersion(trx);
      return { changed: true, repriced };
    }),
  );
}

/** Derives again the UK price of every product whose UK price staff didn't set; returns how many changed. */
export async function rederiveUkPrices(db: Kysely<Database>, rule: DerivationRule): Promise<number> {
  const products = await db
    .selectFrom("products")
    .select(["id", "price_cents", "discount_percent", "uk_price_pence", "uk_sale_price_pence"])
    .where("uk_price_set", "=", 0)
    .execute();
  const changes: UkPriceChange[] = [];
  for (const p of products) {
    const columns = ukPriceColumns(
      { priceCents: Number(p.price_cents), discountPercent: p.discount_percent, ukPricePence: null },
      rule,
    );
    if (
      columns.uk_price_pence === Number(p.uk_price_pence) &&
      columns.uk_sale_price_pence === Number(p.uk_sale_price_pence)
    )
      continue;
    changes.push({ id: Number(p.id), price: columns.uk_price_pence, sale: columns.uk_sale_price_pence });
  }
  await writeUkPrices(db, changes);
  return changes.length;
}

interface UkPriceChange {
  id: number;
  price: number;
  sale: number;
}

/** Rows per UPDATE: three parameters each, well inside both databases' limits. */
const UPDATE_BATCH = 1000;

/**
 * Writes derived UK prices, a thousand products per statement (UPDATE … FROM a VALUES list, which
 * SQLite and PostgreSQL both read), so a catalog of 100,000 products takes a hundred statements.
 */
async function writeUkPrices(db: Kysely<Database>, changes: readonly UkPriceChange[]): Promise<void> {
  for (let i = 0; i < changes.length; i += UPDATE_BATCH) {
    const rows = sql.join(changes.slice(i, i + UPDATE_BATCH).map((c) => sql`(${c.id}, ${c.price}, ${c.sale})`));
    await sql`
      update products set uk_price_pence = v.price, uk_sale_price_pence = v.sale
      from (
        select cast(column1 as integer) as id, cast(column2 as integer) as price, cast(column3 as integer) as sale
        from (values ${rows}) as typed_in
      ) as v
      where products.id = v.id`.execute(db);
  }
}

/** How many products (archived ones too) have a UK price staff set, and how many the rule derives. */
export async function ukPriceCounts(db: Handle): Promise<{ set: number; derived: number }> {
  const rows = await db
    .selectFrom("products")
    .select(["uk_price_set", (eb) => eb.fn.countAll<number>().as("count")])
    .groupBy("uk_price_set")
    .execute();
  const count = (set: number) => Number(rows.find((r) => Number(r.uk_price_set) === set)?.count ?? 0);
  return { set: count(1), derived: count(0) };
}
