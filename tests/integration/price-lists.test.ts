/**
 * Price lists and company terms as staff set them in the back office (server/trade/price-lists.ts,
 * server/trade/company-terms.ts): lists and their rules, refusals with a message each, audit rows,
 * optimistic concurrency on a company's terms, and a member's cart following the list it is given,
 * on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsToDecimalString } from "../../app/lib/money.ts";
import { discountedPriceCents } from "../../app/lib/pricing.ts";
import { can } from "../../server/auth/permissions.ts";
import { addToCart, getCart } from "../../server/cart/cart.ts";
import { DomainError } from "../../server/errors.ts";
import {
  companyTermsOf,
  CompanyTermsFieldError,
  parseCompanyTermsForm,
  saveCompanyTerms,
  TERMS_CONFLICT_MESSAGE,
} from "../../server/trade/company-terms.ts";
import {
  addPriceListRule,
  createPriceList,
  getPriceList,
  listPriceLists,
  parsePriceListName,
  parseRuleForm,
  priceListChoices,
  PriceListFieldError,
  removePriceListRule,
  renamePriceList,
  type RuleForm,
} from "../../server/trade/price-lists.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const staff = { userId: "staff-price-lists", name: "Sam Staff" };

/** The refusal a call throws: its field (if any), message and status. */
async function refusal(run: () => unknown): Promise<{ field?: string; message: string; status: number }> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const field =
      error instanceof PriceListFieldError || error instanceof CompanyTermsFieldError ? error.field : undefined;
    return { ...(field ? { field } : {}), message: error.message, status: error.status };
  }
  throw new Error("expected a refusal");
}

describe("who may manage price lists and company terms", () => {
  it("lets staff and admins view and change trade accounts; customers neither", () => {
    for (const role of ["staff", "admin"] as const) expect(can(role, { trade: ["view", "update"] })).toBe(true);
    expect(can("customer", { trade: ["view"] })).toBe(false);
    expect(can("customer", { trade: ["update"] })).toBe(false);
  });
});

describe("the price-list and terms forms' parsing", () => {
  it("takes a trimmed name and refuses an empty, over-long or control-character one", async () => {
    expect(parsePriceListName("  Gold trade  ")).toBe("Gold trade");
    expect(await refusal(() => parsePriceListName("   "))).toEqual({
      field: "name",
      message: "Enter a name for the price list.",
      status: 400,
    });
    expect(await refusal(() => parsePriceListName("Gold\u0000"))).toMatchObject({
      field: "name",
      message: expect.stringContaining("aren't allowed"),
      status: 400,
    });
    expect(await refusal(() => parsePriceListName("x".repeat(81)))).toEqual({
      field: "name",
      message: "The name must be 80 characters or fewer.",
      status: 400,
    });
    expect(await refusal(() => parsePriceListName(undefined))).toMatchObject({ field: "name", status: 400 });
  });

  it("reads a rule for everything, a category or a product, with a percent or (a product only) a fixed price", () => {
    expect(parseRuleForm({ appliesTo: "all", percentOff: "5" })).toEqual({
      target: { kind: "all" },
      amount: { percentOff: 5, fixedCents: null },
    });
    expect(parseRuleForm({ appliesTo: "category", categoryId: "3", percentOff: "12%", sku: "ignored" })).toEqual({
      target: { kind: "category", categoryId: 3 },
      amount: { percentOff: 12, fixedCents: null },
    });
    expect(parseRuleForm({ appliesTo: "product", sku: " th-0000001 ", fixedPrice: "$1,012.5" })).toEqual({
      target: { kind: "product", sku: "TH-0000001" },
      amount: { percentOff: null, fixedCents: 101250 },
    });
  });

  it("refuses a bad rule with a message on the field at fault", async () => {
    const cases: [RuleForm, string, RegExp][] = [
      [{ appliesTo: "everything", percentOff: "5" }, "appliesTo", /^Choose what the rule applies to/],
      [{ appliesTo: "category", categoryId: "", percentOff: "5" }, "categoryId", /^Choose the category/],
      [{ appliesTo: "product", sku: "", percentOff: "5" }, "sku", /^Enter the SKU/],
      [{ appliesTo: "product", sku: "TH-\u00001", percentOff: "5" }, "sku", /^No product has the SKU "TH-1"\.$/],
      [{ appliesTo: "product", sku: "X".repeat(65), percentOff: "5" }, "sku", /^No product has the SKU/],
      [{ appliesTo: "all", percentOff: "0" }, "percentOff", /whole number from 1 to 90/],
      [{ appliesTo: "all", percentOff: "91" }, "percentOff", /whole number from 1 to 90/],
      [{ appliesTo: "all", percentOff: "5.5" }, "percentOff", /whole number from 1 to 90/],
      [{ appliesTo: "all", percentOff: "-5" }, "percentOff", /whole number from 1 to 90/],
      [{ appliesTo: "all" }, "percentOff", /^Give a percent off\.$/],
      [{ appliesTo: "product", sku: "TH-0000001" }, "percentOff", /^Give a percent off or a fixed price\.$/],
      [{ appliesTo: "product", sku: "TH-0000001", percentOff: "5", fixedPrice: "10" }, "percentOff", /not both/],
      [{ appliesTo: "all", fixedPrice: "10" }, "fixedPrice", /applies to one product only/],
      [{ appliesTo: "category", categoryId: "2", fixedPrice: "10" }, "fixedPrice", /applies to one product only/],
      [{ appliesTo: "product", sku: "TH-0000001", fixedPrice: "0" }, "fixedPrice", /from \$0\.01 to \$1,000,000\.00/],
      [{ appliesTo: "product", sku: "TH-0000001", fixedPrice: "12.345" }, "fixedPrice", /like 12\.50/],
      [{ appliesTo: "product", sku: "TH-0000001", fixedPrice: "99999999" }, "fixedPrice", /from \$0\.01/],
    ];
    for (const [form, field, message] of cases) {
      const refused = await refusal(() => parseRuleForm(form));
      expect(refused, JSON.stringify(form)).toMatchObject({ field, status: 400 });
      expect(refused.message, JSON.stringify(form)).toMatch(message);
    }
  });

  it("reads the terms form: an optional price list, two checkboxes and a credit limit from $0 to $10,000,000", async () => {
    expect(parseCompanyTermsForm({ priceListId: "4", poRequired: "on", creditLimit: "$25,000.50" })).toEqual({
      priceListId: 4,
      poRequired: true,
      net30: false,
      creditLimitCents: 2_500_050,
    });
    expect(parseCompanyTermsForm({ priceListId: "", net30: "on", creditLimit: "0" })).toEqual({
      priceListId: null,
      poRequired: false,
      net30: true,
      creditLimitCents: 0,
    });
    expect(parseCompanyTermsForm({ creditLimit: "10000000" }).creditLimitCents).toBe(1_000_000_000);
    for (const creditLimit of ["10000000.01", "-1", "abc", "1e5", "12.345"]) {
      expect(await refusal(() => parseCompanyTermsForm({ creditLimit })), creditLimit).toMatchObject({
        field: "creditLimit",
        message: expect.stringMatching(/from \$0 to \$10,000,000\.00/),
        status: 400,
      });
    }
    expect(await refusal(() => parseCompanyTermsForm({ creditLimit: "" }))).toMatchObject({
      field: "creditLimit",
      message: "Enter a credit limit in dollars (0 for none).",
      status: 400,
    });
    expect(await refusal(() => parseCompanyTermsForm({ priceListId: "1 OR 1=1", creditLimit: "0" }))).toMatchObject({
      field: "priceListId",
      status: 400,
    });
  });
});

describe.each(dialects)("price lists and company terms on %s", (kind) => {
  let t: TestDb;
  let products: { id: number; sku: string; sale_price_cents: number; category_id: number }[] = [];
  const audit = (objectType: string, objectId: string | number) =>
    t.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "actor_name", "before", "after"])
      .where("object_type", "=", objectType)
      .where("object_id", "=", String(objectId))
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
    await t.db.updateTable("products").set({ stock_quantity: 500 }).execute();
    products = await t.db
      .selectFrom("products")
      .select(["id", "sku", "sale_price_cents", "category_id"])
      .orderBy("id")
      .execute();
  });
  afterAll(async () => {
    await t?.drop();
  });

  /** An approved company with one member (a buyer) and its user; returns their ids. */
  async function companyWithMember(): Promise<{ organizationId: string; userId: string }> {
    const organizationId = await insertCompany(t.db, { country: "GB" });
    return { organizationId, userId: await insertMember(t.db, organizationId, "buyer") };
  }

  it("creates a list with an audit row, and refuses a name already taken (whatever its case) or a bad one", async () => {
    const { id } = await createPriceList(t.db, staff, "  Gold trade ");
    expect(await getPriceList(t.db, id)).toMatchObject({ id, name: "Gold trade", rules: [], companies: [] });
    expect(await audit("price_list", id)).toEqual([
      {
        action: "price_list.create",
        actor_id: staff.userId,
        actor_name: "Sam Staff",
        before: null,
        after: JSON.stringify({ name: "Gold trade" }),
      },
    ]);
    expect(await refusal(() => createPriceList(t.db, staff, "GOLD TRADE"))).toEqual({
      field: "name",
      message: 'A price list named "GOLD TRADE" already exists. Choose another name.',
      status: 409,
    });
    expect(await refusal(() => createPriceList(t.db, staff, "Nul\u0000list"))).toMatchObject({
      field: "name",
      status: 400,
    });
    expect(await refusal(() => createPriceList(t.db, staff, "y".repeat(500)))).toMatchObject({
      field: "name",
      status: 400,
    });
    expect((await priceListChoices(t.db)).map((l) => l.name)).toEqual(["Gold trade"]);
  });

  it("renames a list with an audit row of the change; refuses a taken name and an unknown list", async () => {
    const { id } = await createPriceList(t.db, staff, "Silver");
    expect(await renamePriceList(t.db, staff, id, "Silver")).toEqual({ changed: false });
    expect(await renamePriceList(t.db, staff, id, "Silver trade")).toEqual({ changed: true });
    expect((await getPriceList(t.db, id))!.name).toBe("Silver trade");
    expect((await audit("price_list", id)).map((r) => [r.action, r.before, r.after])).toEqual([
      ["price_list.create", null, JSON.stringify({ name: "Silver" })],
      ["price_list.rename", JSON.stringify({ name: "Silver" }), JSON.stringify({ name: "Silver trade" })],
    ]);
    expect(await refusal(() => renamePriceList(t.db, staff, id, "gold trade"))).toMatchObject({
      field: "name",
      status: 409,
    });
    expect(await refusal(() => renamePriceList(t.db, staff, 999_999, "Bronze"))).toEqual({
      message: "This price list doesn't exist.",
      status: 404,
    });
  });

  it("adds a rule of each kind with an audit row each, and refuses unknown targets, archived products and a second rule for a target", async () => {
    const { id } = await createPriceList(t.db, staff, "Rules of each kind");
    const [first, second, archived] = [products[0], products[1], products[2]];
    await addPriceListRule(t.db, staff, id, parseRuleForm({ appliesTo: "all", percentOff: "5" }));
    await addPriceListRule(
      t.db,
      staff,
      id,
      parseRuleForm({ appliesTo: "category", categoryId: String(second.category_id), percentOff: "10" }),
    );
    await addPriceListRule(
      t.db,
      staff,
      id,
      parseRuleForm({ appliesTo: "product", sku: first.sku.toLowerCase(), fixedPrice: "7.25" }),
    );
    await addPriceListRule(t.db, staff, id, parseRuleForm({ appliesTo: "product", sku: second.sku, percentOff: "20" }));
    const stored = await t.db
      .selectFrom("price_list_rules")
      .select(["target", "percent_off", "fixed_cents"])
      .where("price_list_id", "=", id)
      .execute();
    const byTarget = <T extends { target: string }>(rows: T[]) =>
      [...rows].sort((a, b) => (a.target < b.target ? -1 : 1));
    expect(byTarget(stored)).toEqual(
      byTarget([
        { target: "all", percent_off: 5, fixed_cents: null },
        { target: `category:${second.category_id}`, percent_off: 10, fixed_cents: null },
        { target: `product:${first.id}`, percent_off: null, fixed_cents: 725 },
        { target: `product:${second.id}`, percent_off: 20, fixed_cents: null },
      ]),
    );
    const view = await getPriceList(t.db, id);
    // Shown most general first: everything, categories, then products.
    expect(view!.rules.map((r) => r.kind)).toEqual(["all", "category", "product", "product"]);
    expect(view!.rules.find((r) => r.target === `product:${first.id}`)).toMatchObject({
      label: expect.stringContaining(first.sku),
      listCents: first.sale_price_cents,
      archived: false,
    });
    const added = await audit("price_list", id);
    expect(added.map((r) => r.action)).toEqual([
      "price_list.create",
      "price_list.rule_add",
      "price_list.rule_add",
      "price_list.rule_add",
      "price_list.rule_add",
    ]);
    expect(JSON.parse(added[3].after!)).toEqual({
      target: `product:${first.id}`,
      percent_off: null,
      fixed_cents: 725,
    });

    expect(
      await refusal(() => addPriceListRule(t.db, staff, id, parseRuleForm({ appliesTo: "all", percentOff: "7" }))),
    ).toEqual({
      message: "This list already has a rule for everything. Remove that rule first to change it.",
      status: 409,
    });
    expect(
      await refusal(() =>
        addPriceListRule(t.db, staff, id, parseRuleForm({ appliesTo: "product", sku: first.sku, percentOff: "7" })),
      ),
    ).toMatchObject({
      message: `This list already has a rule for the product ${first.sku}. Remove that rule first to change it.`,
      status: 409,
    });
    expect(
      await refusal(() =>
        addPriceListRule(t.db, staff, id, parseRuleForm({ appliesTo: "product", sku: "TH-9999999", percentOff: "7" })),
      ),
    ).toEqual({
      field: "sku",
      message: 'No product has the SKU "TH-9999999".',
      status: 400,
    });
    await t.db
      .updateTable("products")
      .set({ archived_at: new Date().toISOString() })
      .where("id", "=", archived.id)
      .execute();
    expect(
      await refusal(() =>
        addPriceListRule(t.db, staff, id, parseRuleForm({ appliesTo: "product", sku: archived.sku, percentOff: "7" })),
      ),
    ).toEqual({
      field: "sku",
      message: `The product ${archived.sku} is archived: it isn't on sale, so it can't get a trade price.`,
      status: 400,
    });
    await t.db.updateTable("products").set({ archived_at: null }).where("id", "=", archived.id).execute();
    expect(
      await refusal(() =>
        addPriceListRule(
          t.db,
          staff,
          id,
          parseRuleForm({ appliesTo: "category", categoryId: "999999", percentOff: "7" }),
        ),
      ),
    ).toMatchObject({ field: "categoryId", status: 400 });
    expect(
      await refusal(() => addPriceListRule(t.db, staff, 999_999, parseRuleForm({ appliesTo: "all", percentOff: "7" }))),
    ).toEqual({ message: "This price list doesn't exist.", status: 404 });
    // Nothing refused was written, in the rules or the audit log.
    expect(
      await t.db.selectFrom("price_list_rules").select("target").where("price_list_id", "=", id).execute(),
    ).toHaveLength(4);
    expect(await audit("price_list", id)).toHaveLength(5);
  });

  it("removes a rule with an audit row of what it was; a second removal or a made-up target is refused", async () => {
    const { id } = await createPriceList(t.db, staff, "To prune");
    await addPriceListRule(t.db, staff, id, parseRuleForm({ appliesTo: "all", percentOff: "8" }));
    await removePriceListRule(t.db, staff, id, "all");
    expect((await getPriceList(t.db, id))!.rules).toEqual([]);
    const last = (await audit("price_list", id)).at(-1)!;
    expect([last.action, last.before, last.after]).toEqual([
      "price_list.rule_remove",
      JSON.stringify({ target: "all", percent_off: 8, fixed_cents: null }),
      null,
    ]);
    expect(await refusal(() => removePriceListRule(t.db, staff, id, "all"))).toEqual({
      message: "That rule was already removed.",
      status: 404,
    });
    expect(await refusal(() => removePriceListRule(t.db, staff, id, "all' OR 1=1 --"))).toEqual({
      message: "That rule doesn't exist.",
      status: 400,
    });
    expect(await refusal(() => removePriceListRule(t.db, staff, id, null))).toMatchObject({ status: 400 });
  });

  it("saves a company's terms with one audit row of the changes, and refuses a stale form, writing nothing", async () => {
    const { id: listId } = await createPriceList(t.db, staff, "Terms list");
    const { organizationId } = await companyWithMember();
    const before = (await companyTermsOf(t.db, organizationId))!;
    expect(before).toMatchObject({ priceListId: null, poRequired: false, net30: false, creditLimitCents: 0 });

    const terms = parseCompanyTermsForm({
      priceListId: String(listId),
      poRequired: "on",
      net30: "on",
      creditLimit: "25,000",
    });
    expect(await saveCompanyTerms(t.db, staff, { organizationId, terms, expectedUpdatedAt: before.updatedAt })).toEqual(
      { changed: true },
    );
    const after = (await companyTermsOf(t.db, organizationId))!;
    expect(after).toMatchObject({ priceListId: listId, poRequired: true, net30: true, creditLimitCents: 2_500_000 });
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect(await audit("company", organizationId)).toEqual([
      {
        action: "company.terms",
        actor_id: staff.userId,
        actor_name: "Sam Staff",
        before: JSON.stringify({ price_list_id: null, po_required: 0, net30: 0, credit_limit_cents: 0 }),
        after: JSON.stringify({ price_list_id: listId, po_required: 1, net30: 1, credit_limit_cents: 2_500_000 }),
      },
    ]);
    expect((await listPriceLists(t.db)).find((l) => l.id === listId)).toMatchObject({
      rule_count: 0,
      company_count: 1,
    });
    expect((await getPriceList(t.db, listId))!.companies.map((c) => c.organization_id)).toEqual([organizationId]);

    // The form rendered before that save is stale now: refused, and nothing is written.
    const stale = parseCompanyTermsForm({ priceListId: "", creditLimit: "1" });
    expect(
      await refusal(() =>
        saveCompanyTerms(t.db, staff, { organizationId, terms: stale, expectedUpdatedAt: before.updatedAt }),
      ),
    ).toEqual({ message: TERMS_CONFLICT_MESSAGE, status: 409 });
    expect(await companyTermsOf(t.db, organizationId)).toEqual(after);
    expect(await audit("company", organizationId)).toHaveLength(1);

    // Saving the same terms again changes nothing and writes no audit row.
    expect(await saveCompanyTerms(t.db, staff, { organizationId, terms, expectedUpdatedAt: after.updatedAt })).toEqual({
      changed: false,
    });
    expect(await audit("company", organizationId)).toHaveLength(1);

    expect(
      await refusal(() =>
        saveCompanyTerms(t.db, staff, {
          organizationId,
          terms: { ...terms, priceListId: 999_999 },
          expectedUpdatedAt: after.updatedAt,
        }),
      ),
    ).toMatchObject({ field: "priceListId", status: 400 });
    expect(
      await refusal(() =>
        saveCompanyTerms(t.db, staff, { organizationId: "org-missing", terms, expectedUpdatedAt: after.updatedAt }),
      ),
    ).toEqual({ message: "This company doesn't exist.", status: 404 });
    expect(await audit("company", organizationId)).toHaveLength(1);
  });

  it("prices a member's cart by the list the company is given, and by list prices once it is taken away", async () => {
    // Two products without volume breaks (the seed gives ids 3, 8, … breaks).
    const [plain, fixed] = products.filter((p) => p.id % 5 !== 3).slice(3, 5) as [
      (typeof products)[0],
      (typeof products)[0],
    ];
    const { id: listId } = await createPriceList(t.db, staff, "Cart list");
    await addPriceListRule(t.db, staff, listId, parseRuleForm({ appliesTo: "all", percentOff: "5" }));
    await addPriceListRule(
      t.db,
      staff,
      listId,
      parseRuleForm({
        appliesTo: "product",
        sku: fixed.sku,
        fixedPrice: centsToDecimalString(fixed.sale_price_cents - 100),
      }),
    );
    const { organizationId, userId } = await companyWithMember();
    const owner = `u:${userId}`;
    await addToCart(t.db, owner, { productId: plain.id, quantity: 1 });
    await addToCart(t.db, owner, { productId: fixed.id, quantity: 1 });
    const prices = async () =>
      Object.fromEntries(
        (await getCart(t.db, owner)).lines.map((l) => [l.productId, [l.unitPriceCents, l.priceSource]]),
      );
    expect(await prices()).toEqual({
      [plain.id]: [plain.sale_price_cents, "list"],
      [fixed.id]: [fixed.sale_price_cents, "list"],
    });

    const terms = async (priceListId: number | null) => {
      const current = (await companyTermsOf(t.db, organizationId))!;
      await saveCompanyTerms(t.db, staff, {
        organizationId,
        terms: { ...current, priceListId },
        expectedUpdatedAt: current.updatedAt,
      });
    };
    await terms(listId);
    expect(await prices()).toEqual({
      [plain.id]: [discountedPriceCents(plain.sale_price_cents, 5), "trade"],
      [fixed.id]: [fixed.sale_price_cents - 100, "trade"],
    });
    await terms(null);
    expect(await prices()).toEqual({
      [plain.id]: [plain.sale_price_cents, "list"],
      [fixed.id]: [fixed.sale_price_cents, "list"],
    });
  });
});
