/**
 * The inputs of the one price rule (app/lib/pricing.ts) from the database: each product's volume
 * breaks, and the price list of the company a signed-in buyer orders for.
 */
import type { Kysely, Transaction } from "kysely";
import { buyerUnitCents, type PriceListRules, type TradeRule, type VolumeBreak } from "../../app/lib/pricing.ts";
import { compiledOnce } from "../db/compiled-once.ts";
import type { Database } from "../db/schema.ts";

type Handle = Kysely<Database> | Transaction<Database>;

export async function volumeBreaksFor(db: Handle, productIds: readonly number[]): Promise<Map<number, VolumeBreak[]>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("volume_breaks")
    .select(["product_id", "min_quantity", "percent_off"])
    .where("product_id", "in", [...new Set(productIds)])
    .execute();
  return groupVolumeBreaks(rows);
}

const productVolumeBreakRows = compiledOnce((db: Kysely<Database>, productId: number) =>
  db
    .selectFrom("volume_breaks")
    .select(["product_id", "min_quantity", "percent_off"])
    .where("product_id", "=", productId),
);

/** One product's volume breaks, smallest quantity first: a product page's, its query compiled once. */
export async function productVolumeBreaks(db: Kysely<Database>, productId: number): Promise<VolumeBreak[]> {
  return groupVolumeBreaks(await productVolumeBreakRows(db, productId)).get(productId) ?? [];
}

/**
 * Each product's volume breaks, smallest quantity first, from rows of volume_breaks in any order
 * (or of a left join to it, where a product without breaks has nulls and a break may come once per
 * cart line).
 */
export function groupVolumeBreaks(
  rows: readonly { product_id: number; min_quantity: number | null; percent_off: number | null }[],
): Map<number, VolumeBreak[]> {
  const out = new Map<number, VolumeBreak[]>();
  for (const r of rows) {
    if (r.min_quantity == null || r.percent_off == null) continue;
    const list = out.get(r.product_id) ?? [];
    if (!list.some((b) => b.minQuantity === r.min_quantity))
      list.push({ minQuantity: r.min_quantity, percentOff: r.percent_off });
    out.set(r.product_id, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.minQuantity - b.minQuantity);
  return out;
}

function ruleOf(row: { percent_off: number | null; fixed_cents: number | null }): TradeRule | null {
  if (row.fixed_cents != null) return { fixedCents: row.fixed_cents };
  if (row.percent_off != null) return { percentOff: row.percent_off };
  return null;
}

type RuleRow = { target: string | null; percent_off: number | null; fixed_cents: number | null };

function rulesFrom(rows: readonly RuleRow[]): PriceListRules {
  const products = new Map<number, TradeRule>();
  const categories = new Map<number, TradeRule>();
  let everything: TradeRule | null = null;
  for (const row of rows) {
    if (row.target == null) continue;
    const rule = ruleOf(row);
    if (!rule) continue;
    const [kind, id] = row.target.split(":");
    if (kind === "all") everything = rule;
    else if (kind === "product") products.set(Number(id), rule);
    else if (kind === "category") categories.set(Number(id), rule);
  }
  return { products, categories, everything };
}

export async function priceListRules(db: Handle, priceListId: number): Promise<PriceListRules> {
  const rows = await db
    .selectFrom("price_list_rules")
    .select(["target", "percent_off", "fixed_cents"])
    .where("price_list_id", "=", priceListId)
    .execute();
  return rulesFrom(rows);
}

/**
 * The price-list rules of the company this user orders for, or null (no company, or no list).
 * One query: the user's oldest membership of a company, and that company's list's rules joined to
 * it (a left join, so a list without rules still gives empty rules rather than none).
 */
export async function buyerPriceRules(db: Handle, userId: string | null): Promise<PriceListRules | null> {
  if (!userId) return null;
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("member as m")
        .innerJoin("companies as c", "c.organization_id", "m.organizationId")
        .select("c.price_list_id")
        .where("m.userId", "=", userId)
        .orderBy("m.createdAt")
        .limit(1)
        .as("b"),
    )
    .leftJoin("price_list_rules as r", "r.price_list_id", "b.price_list_id")
    .select(["b.price_list_id", "r.target", "r.percent_off", "r.fixed_cents"])
    .execute();
  return rows[0]?.price_list_id ? rulesFrom(rows) : null;
}

/** The user id of a cart owner ("u:<id>"); a guest's cart ("g:…") has none. */
export function userOfOwner(owner: string): string | null {
  return owner.startsWith("u:") ? owner.slice(2) : null;
}

/**
 * A signed-in trade buyer's price for one unit of each listed product, where it is below the
 * list price: what the shop's grid shows them as "Your price". Empty for everyone else. Products
 * that carry their `categoryId` (the shop search's hits do) are priced without reading it again;
 * the ones without it, if any, are looked up, and only when the buyer's list has category rules.
 */
export async function tradeGridPrices(
  db: Handle,
  userId: string | null,
  products: readonly { id: number; salePriceCents: number; categoryId?: number }[],
): Promise<Record<number, number>> {
  const rules = products.length ? await buyerPriceRules(db, userId) : null;
  if (!rules) return {};
  const categoryOf = new Map<number, number>();
  for (const p of products) if (p.categoryId != null) categoryOf.set(p.id, p.categoryId);
  const missing = products.filter((p) => p.categoryId == null).map((p) => p.id);
  if (missing.length > 0 && (rules.categories?.size ?? 0) > 0) {
    const rows = await db.selectFrom("products").select(["id", "category_id"]).where("id", "in", missing).execute();
    for (const r of rows) categoryOf.set(Number(r.id), Number(r.category_id));
  }
  const prices: Record<number, number> = {};
  for (const p of products) {
    const cents = buyerUnitCents(rules, {
      id: p.id,
      salePriceCents: p.salePriceCents,
      categoryId: categoryOf.get(p.id) ?? 0,
    });
    if (cents !== null) prices[p.id] = cents;
  }
  return prices;
}
