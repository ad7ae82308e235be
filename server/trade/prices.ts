/**
 * The inputs of the one price rule (app/lib/pricing.ts) from the database: each product's volume
 * breaks, and the price list of the company a signed-in buyer orders for.
 */
import type { Kysely, Transaction } from "kysely";
import { tradeRuleFor, unitPrice, type PriceListRules, type TradeRule, type VolumeBreak } from "../../app/lib/pricing.ts";
import type { Database } from "../db/schema.ts";

type Handle = Kysely<Database> | Transaction<Database>;

export async function volumeBreaksFor(db: Handle, productIds: readonly number[]): Promise<Map<number, VolumeBreak[]>> {
  const out = new Map<number, VolumeBreak[]>();
  if (productIds.length === 0) return out;
  const rows = await db
    .selectFrom("volume_breaks")
    .select(["product_id", "min_quantity", "percent_off"])
    .where("product_id", "in", [...new Set(productIds)])
    .orderBy("product_id")
    .orderBy("min_quantity")
    .execute();
  for (const r of rows) {
    const list = out.get(r.product_id) ?? [];
    list.push({ minQuantity: r.min_quantity, percentOff: r.percent_off });
    out.set(r.product_id, list);
  }
  return out;
}

function ruleOf(row: { percent_off: number | null; fixed_cents: number | null }): TradeRule | null {
  if (row.fixed_cents != null) return { fixedCents: row.fixed_cents };
  if (row.percent_off != null) return { percentOff: row.percent_off };
  return null;
}

export async function priceListRules(db: Handle, priceListId: number): Promise<PriceListRules> {
  const rows = await db.selectFrom("price_list_rules").select(["target", "percent_off", "fixed_cents"]).where("price_list_id", "=", priceListId).execute();
  const products = new Map<number, TradeRule>();
  const categories = new Map<number, TradeRule>();
  let everything: TradeRule | null = null;
  for (const row of rows) {
    const rule = ruleOf(row);
    if (!rule) continue;
    const [kind, id] = row.target.split(":");
    if (kind === "all") everything = rule;
    else if (kind === "product") products.set(Number(id), rule);
    else if (kind === "category") categories.set(Number(id), rule);
  }
  return { products, categories, everything };
}

/** The price-list rules of the company this user orders for, or null (no company, or no list). */
export async function buyerPriceRules(db: Handle, userId: string | null): Promise<PriceListRules | null> {
  if (!userId) return null;
  const row = await db
    .selectFrom("member as m")
    .innerJoin("companies as c", "c.organization_id", "m.organizationId")
    .select("c.price_list_id")
    .where("m.userId", "=", userId)
    .orderBy("m.createdAt")
    .limit(1)
    .executeTakeFirst();
  return row?.price_list_id ? priceListRules(db, row.price_list_id) : null;
}

/** The user id of a cart owner ("u:<id>"); a guest's cart ("g:…") has none. */
export function userOfOwner(owner: string): string | null {
  return owner.startsWith("u:") ? owner.slice(2) : null;
}

/**
 * A signed-in trade buyer's price for one unit of each listed product, where it is below the
 * list price: what the shop's grid shows them as "Your price". Empty for everyone else.
 */
export async function tradeGridPrices(db: Handle, userId: string | null, products: readonly { id: number; salePriceCents: number }[]): Promise<Record<number, number>> {
  const rules = products.length ? await buyerPriceRules(db, userId) : null;
  if (!rules) return {};
  const categories = await db.selectFrom("products").select(["id", "category_id"]).where("id", "in", products.map((p) => p.id)).execute();
  const categoryOf = new Map(categories.map((c) => [c.id, c.category_id]));
  const prices: Record<number, number> = {};
  for (const p of products) {
    const unit = unitPrice({ listCents: p.salePriceCents, quantity: 1, volumeBreaks: [], trade: tradeRuleFor(rules, p.id, categoryOf.get(p.id) ?? 0) });
    if (unit.source === "trade") prices[p.id] = unit.unitCents;
  }
  return prices;
}
