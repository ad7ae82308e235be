/**
 * Trade price lists as staff manage them in the back office: create and rename a list, add and
 * remove its rules (one per target). How a rule prices a product is app/lib/pricing.ts; how a
 * company's list reaches the cart is server/trade/prices.ts. Every change writes an audit row in
 * its own transaction (objectType "price_list").
 */
import { parseRowId } from "../../app/lib/order-rules.ts";
import { sql, type Transaction } from "kysely";
import {
  FIXED_PRICE_MAX_CENTS,
  PERCENT_OFF_MAX,
  PERCENT_OFF_MIN,
  PRICE_LIST_NAME_MAX,
  SKU_MAX,
} from "../../app/lib/admin/trade-limits.ts";
import { formatMoney } from "../../app/lib/money.ts";
import { diffFields, writeAudit, type AuditActor } from "../audit/audit.ts";
import type { Db } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { ConflictError, DomainError, InvalidError, NotFoundError } from "../errors.ts";
import { CONTROL_IN_LINE, withoutControl } from "../../app/lib/control-characters.ts";

/** A refusal tied to one field of the posted form, so the page can show it under that field. */
export class PriceListFieldError extends DomainError {
  readonly field: string;
  constructor(field: string, message: string, kind: "invalid" | "conflict" = "invalid") {
    super(kind, "PRICE_LIST_FIELD", message);
    this.field = field;
  }
}

const SKU_SHAPE = /^[A-Z0-9][A-Z0-9._-]*$/;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === "23505" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

/** The name as it will be stored, or a PriceListFieldError on `name`. */
export function parsePriceListName(raw: unknown): string {
  const name = typeof raw === "string" ? raw.trim() : "";
  if (!name) throw new PriceListFieldError("name", "Enter a name for the price list.");
  if (CONTROL_IN_LINE.test(name))
    throw new PriceListFieldError(
      "name",
      "The name contains characters that aren't allowed (line breaks or control characters).",
    );
  if (name.length > PRICE_LIST_NAME_MAX)
    throw new PriceListFieldError("name", `The name must be ${PRICE_LIST_NAME_MAX} characters or fewer.`);
  return name;
}

type RuleTarget = { kind: "all" } | { kind: "category"; categoryId: number } | { kind: "product"; sku: string };
type RuleAmount = { percentOff: number; fixedCents: null } | { percentOff: null; fixedCents: number };
export type RuleInput = { target: RuleTarget; amount: RuleAmount };

/** The fields of the "Add a rule" form, as posted. */
export interface RuleForm {
  appliesTo?: unknown;
  categoryId?: unknown;
  sku?: unknown;
  percentOff?: unknown;
  fixedPrice?: unknown;
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

function parseTarget(form: RuleForm): RuleTarget {
  const appliesTo = text(form.appliesTo);
  if (appliesTo === "all") return { kind: "all" };
  if (appliesTo === "category") {
    const categoryId = parseRowId(form.categoryId);
    if (categoryId == null) throw new PriceListFieldError("categoryId", "Choose the category the rule applies to.");
    return { kind: "category", categoryId };
  }
  if (appliesTo === "product") {
    const sku = text(form.sku).toUpperCase();
    if (!sku) throw new PriceListFieldError("sku", "Enter the SKU of the product the rule applies to.");
    if (sku.length > SKU_MAX || !SKU_SHAPE.test(sku))
      throw new PriceListFieldError("sku", `No product has the SKU "${withoutControl(sku.slice(0, SKU_MAX))}".`);
    return { kind: "product", sku };
  }
  throw new PriceListFieldError("appliesTo", "Choose what the rule applies to: everything, a category or a product.");
}

function parseAmount(form: RuleForm, target: RuleTarget): RuleAmount {
  const percentText = text(form.percentOff).replace(/%$/, "").trim();
  const fixedText = text(form.fixedPrice).replace(/^\$/, "").replace(/,/g, "");
  if (percentText && fixedText)
    throw new PriceListFieldError("percentOff", "Give either a percent off or a fixed price, not both.");
  if (!percentText && !fixedText)
    throw new PriceListFieldError(
      "percentOff",
      target.kind === "product" ? "Give a percent off or a fixed price." : "Give a percent off.",
    );
  if (percentText) {
    const percent = /^\d{1,3}$/.test(percentText) ? Number(percentText) : NaN;
    if (!(percent >= PERCENT_OFF_MIN && percent <= PERCENT_OFF_MAX))
      throw new PriceListFieldError(
        "percentOff",
        `The percent off must be a whole number from ${PERCENT_OFF_MIN} to ${PERCENT_OFF_MAX}.`,
      );
    return { percentOff: percent, fixedCents: null };
  }
  // A fixed unit price belongs to one product (decision 0013): a category or everything at one price means nothing.
  if (target.kind !== "product")
    throw new PriceListFieldError(
      "fixedPrice",
      "A fixed price applies to one product only; give a category or everything a percent off.",
    );
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(fixedText);
  const cents = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  if (!(cents >= 1 && cents <= FIXED_PRICE_MAX_CENTS))
    throw new PriceListFieldError(
      "fixedPrice",
      `The fixed price must be an amount in dollars from $0.01 to ${formatMoney(FIXED_PRICE_MAX_CENTS)}, like 12.50.`,
    );
  return { percentOff: null, fixedCents: cents };
}

/** The posted rule, checked for shape (whether its category or product exists is checked on adding). */
export function parseRuleForm(form: RuleForm): RuleInput {
  const target = parseTarget(form);
  return { target, amount: parseAmount(form, target) };
}

/** "all", "category:<id>" or "product:<id>" as stored in price_list_rules.target. */
function isStoredTarget(value: unknown): value is string {
  return typeof value === "string" && /^(all|category:[1-9]\d{0,9}|product:[1-9]\d{0,9})$/.test(value);
}

const count = (n: unknown) => Number(n ?? 0);

export async function listPriceLists(db: Db) {
  const rows = await db
    .selectFrom("price_lists as pl")
    .select((eb) => [
      "pl.id",
      "pl.name",
      "pl.created_at",
      eb
        .selectFrom("price_list_rules as r")
        .select(eb.fn.countAll().as("n"))
        .whereRef("r.price_list_id", "=", "pl.id")
        .as("rule_count"),
      eb
        .selectFrom("companies as c")
        .select(eb.fn.countAll().as("n"))
        .whereRef("c.price_list_id", "=", "pl.id")
        .as("company_count"),
    ])
    .orderBy("pl.name")
    .execute();
  return rows.map((r) => ({ ...r, rule_count: count(r.rule_count), company_count: count(r.company_count) }));
}

/** The categories a rule can target, in the shop's order. */
export async function categoryChoices(db: Db) {
  return db.selectFrom("categories").select(["id", "name"]).orderBy("position").orderBy("name").execute();
}

/** The lists a company can be given (id and name), by name. */
export async function priceListChoices(db: Db) {
  return db.selectFrom("price_lists").select(["id", "name"]).orderBy("name").execute();
}

export interface RuleView {
  target: string;
  kind: "all" | "category" | "product";
  /** "Everything", the category's name, or the product's SKU and title. */
  label: string;
  percentOff: number | null;
  fixedCents: number | null;
  /** A product rule's current list price (its sale price), to compare with a fixed price. */
  listCents: number | null;
  archived: boolean;
}

const KIND_ORDER = { all: 0, category: 1, product: 2 } as const;

async function rulesOf(db: Db, priceListId: number): Promise<RuleView[]> {
  const rows = await db
    .selectFrom("price_list_rules")
    .select(["target", "percent_off", "fixed_cents"])
    .where("price_list_id", "=", priceListId)
    .execute();
  const idsOf = (kind: string) =>
    rows.filter((r) => r.target.startsWith(`${kind}:`)).map((r) => Number(r.target.split(":")[1]));
  const [categoryIds, productIds] = [idsOf("category"), idsOf("product")];
  const [categories, products] = await Promise.all([
    categoryIds.length
      ? db.selectFrom("categories").select(["id", "name"]).where("id", "in", categoryIds).execute()
      : [],
    productIds.length
      ? db
          .selectFrom("products")
          .select(["id", "sku", "title", "sale_price_cents", "archived_at"])
          .where("id", "in", productIds)
          .execute()
      : [],
  ]);
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  const product = new Map(products.map((p) => [p.id, p]));
  const views = rows.map((r): RuleView => {
    const [kind, rawId] = r.target.split(":") as ["all" | "category" | "product", string | undefined];
    const id = Number(rawId);
    const p = kind === "product" ? product.get(id) : undefined;
    const label =
      kind === "all"
        ? "Everything"
        : kind === "category"
          ? `Category: ${categoryName.get(id) ?? `#${id} (removed)`}`
          : p
            ? `${p.sku} · ${p.title}`
            : `Product #${id} (removed)`;
    return {
      target: r.target,
      kind,
      label,
      percentOff: r.percent_off,
      fixedCents: r.fixed_cents,
      listCents: p?.sale_price_cents ?? null,
      archived: Boolean(p?.archived_at),
    };
  });
  return views.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.label.localeCompare(b.label));
}

/** A list with its rules and the companies it is given to; null when there is no such list. */
export async function getPriceList(db: Db, id: number) {
  const list = await db
    .selectFrom("price_lists")
    .select(["id", "name", "created_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!list) return null;
  const [rules, companies] = await Promise.all([
    rulesOf(db, id),
    db
      .selectFrom("companies")
      .select(["organization_id", "name", "application_id"])
      .where("price_list_id", "=", id)
      .orderBy("name")
      .execute(),
  ]);
  return { ...list, rules, companies };
}

async function assertNameFree(db: Db, name: string, exceptId?: number) {
  let query = db
    .selectFrom("price_lists")
    .select("id")
    .where(sql<string>`lower(name)`, "=", name.toLowerCase());
  if (exceptId != null) query = query.where("id", "!=", exceptId);
  if (await query.executeTakeFirst())
    throw new PriceListFieldError(
      "name",
      `A price list named "${name}" already exists. Choose another name.`,
      "conflict",
    );
}

function nameTaken(error: unknown, name: string): never {
  if (isUniqueViolation(error))
    throw new PriceListFieldError(
      "name",
      `A price list named "${name}" already exists. Choose another name.`,
      "conflict",
    );
  throw error;
}

export async function createPriceList(
  db: Db,
  actor: AuditActor,
  rawName: unknown,
  now = new Date(),
): Promise<{ id: number }> {
  const name = parsePriceListName(rawName);
  await assertNameFree(db, name);
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("price_lists")
        .values({ name, created_at: now.toISOString() })
        .returning("id")
        .executeTakeFirstOrThrow();
      await writeAudit(
        trx,
        actor,
        { action: "price_list.create", objectType: "price_list", objectId: row.id, after: { name } },
        now,
      );
      return { id: row.id };
    });
  } catch (error) {
    return nameTaken(error, name);
  }
}

function listNotFound(): never {
  throw new NotFoundError("NOT_FOUND", "This price list doesn't exist.");
}

export async function renamePriceList(
  db: Db,
  actor: AuditActor,
  id: number,
  rawName: unknown,
): Promise<{ changed: boolean }> {
  const name = parsePriceListName(rawName);
  await assertNameFree(db, name, id);
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom("price_lists").select("name").where("id", "=", id).executeTakeFirst();
      if (!current) listNotFound();
      const diff = diffFields(current, { name });
      if (!("name" in diff.after)) return { changed: false };
      await trx.updateTable("price_lists").set({ name }).where("id", "=", id).execute();
      await writeAudit(trx, actor, { action: "price_list.rename", objectType: "price_list", objectId: id, ...diff });
      return { changed: true };
    });
  } catch (error) {
    return nameTaken(error, name);
  }
}

/** The stored target of a parsed target: the category must exist, the product must exist and be on sale. */
async function storedTarget(
  trx: Transaction<Database>,
  target: RuleTarget,
): Promise<{ target: string; label: string }> {
  if (target.kind === "all") return { target: "all", label: "everything" };
  if (target.kind === "category") {
    const category = await trx
      .selectFrom("categories")
      .select(["id", "name"])
      .where("id", "=", target.categoryId)
      .executeTakeFirst();
    if (!category) throw new PriceListFieldError("categoryId", "That category doesn't exist any more. Choose another.");
    return { target: `category:${category.id}`, label: `the category ${category.name}` };
  }
  const product = await trx
    .selectFrom("products")
    .select(["id", "sku", "archived_at"])
    .where("sku", "=", target.sku)
    .executeTakeFirst();
  if (!product) throw new PriceListFieldError("sku", `No product has the SKU "${target.sku}".`);
  if (product.archived_at)
    throw new PriceListFieldError(
      "sku",
      `The product ${product.sku} is archived: it isn't on sale, so it can't get a trade price.`,
    );
  return { target: `product:${product.id}`, label: `the product ${product.sku}` };
}

export async function addPriceListRule(
  db: Db,
  actor: AuditActor,
  id: number,
  input: RuleInput,
): Promise<{ target: string }> {
  return db.transaction().execute(async (trx) => {
    const list = await trx.selectFrom("price_lists").select("id").where("id", "=", id).executeTakeFirst();
    if (!list) listNotFound();
    const { target, label } = await storedTarget(trx, input.target);
    const values = {
      price_list_id: id,
      target,
      percent_off: input.amount.percentOff,
      fixed_cents: input.amount.fixedCents,
    };
    const inserted = await trx
      .insertInto("price_list_rules")
      .values(values)
      .onConflict((oc) => oc.columns(["price_list_id", "target"]).doNothing())
      .returning("target")
      .executeTakeFirst();
    if (!inserted)
      throw new ConflictError(
        "RULE_EXISTS",
        `This list already has a rule for ${label}. Remove that rule first to change it.`,
      );
    await writeAudit(trx, actor, {
      action: "price_list.rule_add",
      objectType: "price_list",
      objectId: id,
      after: { target, percent_off: values.percent_off, fixed_cents: values.fixed_cents },
    });
    return { target };
  });
}

export async function removePriceListRule(db: Db, actor: AuditActor, id: number, target: unknown): Promise<void> {
  if (!isStoredTarget(target)) throw new InvalidError("BAD_TARGET", "That rule doesn't exist.");
  await db.transaction().execute(async (trx) => {
    const rule = await trx
      .selectFrom("price_list_rules")
      .select(["target", "percent_off", "fixed_cents"])
      .where("price_list_id", "=", id)
      .where("target", "=", target)
      .executeTakeFirst();
    if (!rule) throw new NotFoundError("RULE_GONE", "That rule was already removed.");
    await trx.deleteFrom("price_list_rules").where("price_list_id", "=", id).where("target", "=", target).execute();
    await writeAudit(trx, actor, {
      action: "price_list.rule_remove",
      objectType: "price_list",
      objectId: id,
      before: rule,
    });
  });
}
