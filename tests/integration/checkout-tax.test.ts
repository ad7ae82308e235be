import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import type { StaffActor } from "../../server/catalog/staff-actor.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { submitCheckout, type CheckoutDeps } from "../../server/orders/checkout.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { getOrderByAccessToken } from "../../server/orders/queries.ts";
import { createRateLimiter } from "../../server/security/rate-limit.ts";
import { CheckoutReviewError } from "../../server/orders/checkout-review.ts";
import { importLocalRates, saveUsStates } from "../../server/tax/us-tax-settings.ts";
import { setProductTaxRules } from "../../server/tax/product-tax.ts";
import { productTaxSchema } from "../../app/lib/product-tax.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const admin: StaffActor = { userId: "admin-1", name: "Ada Admin", role: "admin" };
const staff: StaffActor = { userId: "staff-1", name: "Sam Staff", role: "staff" };
const customer: StaffActor = { userId: "cust-1", name: "Cy Customer", role: "customer" };
const LA = { region: "CA", postcode: "90001", city: "Los Angeles" };
const token = () => randomBytes(18).toString("base64url");
const guest = () => `g:${randomBytes(18).toString("base64url")}`;

function checkout(overrides: Record<string, string> = {}) {
  return checkoutSchema.parse({
    ...validCheckoutForm,
    email: "tax.buyer@example.com",
    checkoutToken: token(),
    ...overrides,
  });
}

describe.each(dialects)("sales tax and VAT at checkout (%s)", (kind) => {
  let t: TestDb;
  const PRODUCT = 7;
  beforeAll(async () => {
    t = await freshSeededDb(kind, 12);
    await t.db
      .updateTable("products")
      // The same figure in both markets: $100.00 and £100.00.
      .set({
        price_cents: 10_000,
        sale_price_cents: 10_000,
        uk_price_pence: 10_000,
        uk_sale_price_pence: 10_000,
        discount_percent: null,
        stock_quantity: 500,
      })
      .where("id", "=", PRODUCT)
      .execute();
    // The store collects in California (7.25%, delivery not taxed) and knows 90001's local rates.
    const ca = await t.db.selectFrom("tax_us_states").selectAll().where("code", "=", "CA").executeTakeFirstOrThrow();
    await saveUsStates(t.db, admin, [
      { code: "CA", rate: "7.25", shippingTaxable: false, collect: true, version: Number(ca.version), shown: null },
    ]);
    await importLocalRates(t.db, admin, "zip,state,region,rate\n90001,CA,Los Angeles,2.5\n");
  });
  afterAll(() => t?.drop());

  async function cartOf(quantity = 1, owner = guest()) {
    await addToCart(t.db, owner, { productId: PRODUCT, quantity });
    return owner;
  }
  const guestOrder = (owner: string, input: ReturnType<typeof checkout>) =>
    placeOrder(t.db, { owner, userId: null, checkout: input, siteUrl: "http://x" });
  const orderRow = (number: string) =>
    t.db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
  const taxLines = (orderId: number) =>
    t.db
      .selectFrom("order_tax_lines")
      .select(["jurisdiction", "label", "rate_ppm", "taxable_cents", "tax_cents", "included"])
      .where("order_id", "=", orderId)
      .orderBy("id")
      .execute();
  const stock = async () =>
    Number(
      (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", PRODUCT).executeTakeFirstOrThrow())
        .stock_quantity,
    );

  it("a state the store doesn't collect in: no tax, and the order says why", async () => {
    const owner = await cartOf();
    const placed = await guestOrder(owner, checkout());
    const order = await orderRow(placed.number);
    expect(order).toMatchObject({ tax_cents: 0, total_cents: 10_000, tax_basis: "not-registered", tax_state: "NY" });
    expect(await taxLines(order.id)).toEqual([]);
    expect((await getOrderByAccessToken(t.db, order.access_token))!.tax).toEqual({
      lines: [],
      note: "No sales tax: we don't collect it for deliveries to New York.",
    });
  });

  it("California: the tax is shown first (nothing written), then placed with its lines, which a rate change never alters", async () => {
    const owner = await cartOf();
    const before = await stock();
    const orders = await t.db.selectFrom("orders").select("id").execute();
    const first = checkout(LA);
    const refusal = await guestOrder(owner, first).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(CheckoutReviewError);
    expect((refusal as CheckoutReviewError).review.tax).toEqual({
      postcode: "90001",
      state: "CA",
      lines: [
        { label: "California sales tax 7.25%", taxCents: 725 },
        { label: "Local sales tax 2.5% (Los Angeles)", taxCents: 250 },
      ],
      taxCents: 975,
      totalCents: 10_975,
    });
    expect((refusal as Error).message).toBe(
      "Sales tax of $9.75 applies to delivery to ZIP code 90001 (California), so your total is $109.75. Check the order summary, then place your order again.",
    );
    expect(await t.db.selectFrom("orders").select("id").execute()).toHaveLength(orders.length);
    expect(await stock()).toBe(before);

    // A figure the page showed that isn't the one charged is refused too.
    await expect(guestOrder(owner, { ...first, shownTaxCents: 974 })).rejects.toBeInstanceOf(CheckoutReviewError);

    const placed = await guestOrder(owner, { ...first, shownTaxCents: 975 });
    const order = await orderRow(placed.number);
    expect(order).toMatchObject({
      subtotal_cents: 10_000,
      tax_cents: 975,
      total_cents: 10_975,
      tax_basis: "collected",
    });
    expect(order.tax_state).toBe("CA");
    const stored = [
      {
        jurisdiction: "US-CA",
        label: "California sales tax 7.25%",
        rate_ppm: 72_500,
        taxable_cents: 10_000,
        tax_cents: 725,
        included: 0,
      },
      {
        jurisdiction: "US-CA-90001",
        label: "Local sales tax 2.5% (Los Angeles)",
        rate_ppm: 25_000,
        taxable_cents: 10_000,
        tax_cents: 250,
        included: 0,
      },
    ];
    expect(
      (await taxLines(order.id)).map((l) => ({ ...l, rate_ppm: Number(l.rate_ppm), included: Number(l.included) })),
    ).toEqual(stored);
    expect(await stock()).toBe(before - 1);

    // Staff raise California's rate: the placed order keeps what it was charged.
    const ca = await t.db.selectFrom("tax_us_states").selectAll().where("code", "=", "CA").executeTakeFirstOrThrow();
    await saveUsStates(t.db, admin, [
      { code: "CA", rate: "8", shippingTaxable: false, collect: true, version: Number(ca.version), shown: null },
    ]);
    expect((await orderRow(placed.number)).total_cents).toBe(10_975);
    expect((await taxLines(order.id)).map((l) => Number(l.tax_cents))).toEqual([725, 250]);
    await saveUsStates(t.db, admin, [
      { code: "CA", rate: "7.25", shippingTaxable: false, collect: true, version: Number(ca.version) + 1, shown: null },
    ]);
  });

  it("a trade company's verified certificate for the state removes the tax and is recorded; an expired one doesn't", async () => {
    const organizationId = await insertCompany(t.db, { country: "US" });
    const userId = await insertMember(t.db, organizationId, "owner");
    const today = new Date().toISOString().slice(0, 10);
    const certificate = (expiresOn: string) =>
      t.db
        .insertInto("tax_exemption_certificates")
        .values({
          organization_id: organizationId,
          state: "CA",
          number: `CA-${randomBytes(3).toString("hex")}`,
          expires_on: expiresOn,
          file_key: "x",
          file_type: "application/pdf",
          status: "verified",
          uploaded_by: userId,
          uploaded_at: new Date().toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    const expired = await certificate("2020-01-01");
    const taxed = await placeOrder(t.db, {
      owner: await cartOf(1, `u:${userId}`),
      userId,
      checkout: checkout(LA),
      siteUrl: "http://x",
    }).catch((e: unknown) => e);
    expect(taxed).toBeInstanceOf(CheckoutReviewError);
    const valid = await certificate(today);
    const placed = await placeOrder(t.db, {
      owner: `u:${userId}`,
      userId,
      checkout: checkout(LA),
      siteUrl: "http://x",
    });
    const order = await orderRow(placed.number);
    expect(order).toMatchObject({ tax_cents: 0, total_cents: 10_000, tax_basis: "exempt", tax_state: "CA" });
    expect(order.tax_certificate_id).toBe(valid.id);
    expect(order.tax_certificate_id).not.toBe(expired.id);
    expect(await taxLines(order.id)).toEqual([]);
  });

  it("a UK order keeps its VAT inside the price as a stored line, delivery included", async () => {
    const owner = await cartOf(2);
    const placed = await guestOrder(owner, checkout({ country: "GB", postcode: "SW1A 1AA", region: "" }));
    const order = await orderRow(placed.number);
    // £200.00 of goods and £9.99 delivery: VAT 20% inside £209.99 is £35.00 (34.998 rounded once).
    expect(order).toMatchObject({
      currency: "gbp",
      total_cents: 20_999,
      tax_cents: 0,
      tax_basis: "included",
      tax_state: null,
    });
    expect(
      (await taxLines(order.id)).map((l) => [
        l.label,
        Number(l.taxable_cents),
        Number(l.tax_cents),
        Number(l.included),
      ]),
    ).toEqual([["VAT 20%", 17_499, 3_500, 1]]);
  });

  it("the checkout answers 409 with the tax and the figure to send back, and places the order when it comes back", async () => {
    const owner = await cartOf();
    const deps: CheckoutDeps = {
      siteUrl: "http://x",
      holdMinutes: 60,
      ipLimiter: createRateLimiter({ name: `tax-ip-${kind}`, windowSeconds: 60, max: 100 }),
      emailLimiter: createRateLimiter({ name: `tax-email-${kind}`, windowSeconds: 60, max: 100 }),
      payments: null,
    };
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...validCheckoutForm, ...LA, checkoutToken: token() })) form.set(k, v);
    const shopper = { owner, userId: null, email: null };
    const first = await submitCheckout(t.db, form, { ip: "203.0.113.9" }, shopper, deps);
    expect(first).toMatchObject({
      ok: false,
      status: 409,
      data: { values: { shownTaxCents: "975" }, review: { tax: { taxCents: 975 }, prop65: null } },
    });
    form.set("shownTaxCents", "975");
    expect(await submitCheckout(t.db, form, { ip: "203.0.113.9" }, shopper, deps)).toMatchObject({ ok: true });
    form.set("shownTaxCents", "9e3");
    const bad = await submitCheckout(t.db, form, { ip: "203.0.113.9" }, shopper, deps);
    expect(bad).toMatchObject({ ok: false, status: 400 });
  });

  it("each product's VAT rate: a UK order of standard, reduced and zero-rated goods has a line per rate, delivery shared by value", async () => {
    const rate = (id: number, vat_class: "standard" | "reduced" | "zero") =>
      t.db
        .updateTable("products")
        .set({
          price_cents: 6_000,
          sale_price_cents: 6_000,
          uk_price_pence: 6_000,
          uk_sale_price_pence: 6_000,
          discount_percent: null,
          stock_quantity: 50,
          vat_class,
        })
        .where("id", "=", id)
        .execute();
    await Promise.all([rate(10, "reduced"), rate(11, "zero")]);
    const owner = guest();
    await addToCart(t.db, owner, { productId: PRODUCT, quantity: 1 });
    await addToCart(t.db, owner, { productId: 10, quantity: 1 });
    await addToCart(t.db, owner, { productId: 11, quantity: 1 });
    const placed = await guestOrder(owner, checkout({ country: "GB", postcode: "SW1A 1AA", region: "" }));
    const order = await orderRow(placed.number);
    expect(order.total_cents).toBe(22_999);
    // £9.99 delivery shared by value over £100 / £60 / £60 of goods: 454 / 273 / 272 (largest remainder).
    expect(
      (await taxLines(order.id)).map((l) => [
        l.label,
        Number(l.taxable_cents) + Number(l.tax_cents),
        Number(l.tax_cents),
      ]),
    ).toEqual([
      ["VAT 20%", 10_000 + 454, 1_742],
      ["VAT 5%", 6_000 + 273, 299],
      ["VAT 0%", 6_000 + 272, 0],
    ]);
  });

  it("California's Proposition 65: a flagged product delivered there needs the warning shown first; the order records it", async () => {
    await t.db.updateTable("products").set({ prop65: 1 }).where("id", "=", PRODUCT).execute();
    try {
      const owner = await cartOf();
      const first = checkout(LA);
      const refusal = (await guestOrder(owner, first).catch((e: unknown) => e)) as CheckoutReviewError;
      expect(refusal).toBeInstanceOf(CheckoutReviewError);
      const title = (
        await t.db.selectFrom("products").select("title").where("id", "=", PRODUCT).executeTakeFirstOrThrow()
      ).title;
      expect(refusal.review.prop65).toEqual({
        warning: "WARNING: Cancer and Reproductive Harm - www.P65Warnings.ca.gov.",
        products: [title],
      });
      expect(refusal.message).toContain(
        "A product in your order needs a California Proposition 65 warning: read it below.",
      );
      // The tax alone, seen, is not enough: the warning must have been shown too.
      await expect(guestOrder(owner, { ...first, shownTaxCents: 975 })).rejects.toBeInstanceOf(CheckoutReviewError);
      const placed = await guestOrder(owner, { ...first, shownTaxCents: 975, prop65Shown: true });
      expect(await orderRow(placed.number)).toMatchObject({ prop65_warned: 1, tax_cents: 975 });
      // Elsewhere no warning is needed.
      const ny = await guestOrder(await cartOf(), checkout());
      expect(await orderRow(ny.number)).toMatchObject({ prop65_warned: 0 });
    } finally {
      await t.db.updateTable("products").set({ prop65: 0 }).where("id", "=", PRODUCT).execute();
    }
  });

  it("staff set a product's tax rules: an audit row, a stale form refused, a customer refused", async () => {
    const row = () =>
      t.db
        .selectFrom("products")
        .select(["vat_class", "prop65", "updated_at"])
        .where("id", "=", 12)
        .executeTakeFirstOrThrow();
    const version = (await row()).updated_at ?? "";
    await expect(
      setProductTaxRules(t.db, customer, 12, { vat_class: "zero", prop65: true }, version),
    ).rejects.toMatchObject({ status: 403 });
    expect(await setProductTaxRules(t.db, staff, 12, { vat_class: "reduced", prop65: true }, version)).toEqual({
      changed: true,
    });
    expect(await row()).toMatchObject({ vat_class: "reduced", prop65: 1 });
    await expect(
      setProductTaxRules(t.db, staff, 12, { vat_class: "zero", prop65: false }, version),
    ).rejects.toMatchObject({
      status: 409,
    });
    expect(await row()).toMatchObject({ vat_class: "reduced", prop65: 1 });
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "product.tax")
      .where("object_id", "=", "12")
      .execute();
    expect(audit.map((a) => [JSON.parse(a.before!), JSON.parse(a.after!)])).toEqual([
      [
        { vat_class: "standard", prop65: false },
        { vat_class: "reduced", prop65: true },
      ],
    ]);
    expect(productTaxSchema.safeParse({ vat_class: "luxury" }).success).toBe(false);
    expect(productTaxSchema.safeParse({ vat_class: "zero", prop65: "yes" }).success).toBe(false);
    expect(productTaxSchema.parse({ vat_class: "zero" })).toEqual({ vat_class: "zero", prop65: false });
  });
});

describe("the checkout form's US address rules", () => {
  const parse = (fields: Record<string, string>) => checkoutSchema.safeParse({ ...validCheckoutForm, ...fields });
  const problems = (fields: Record<string, string>) => {
    const result = parse(fields);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
  };

  it("refuses a ZIP code in no state, and a state that isn't the ZIP code's", () => {
    expect(problems({ postcode: "09001" })).toEqual({
      postcode: "We deliver in the 50 states and Washington, DC: enter a ZIP code of one of them",
    });
    expect(problems({ postcode: "90001", region: "New York" })).toEqual({
      region: "ZIP code 90001 is in California: check the state or the ZIP code",
    });
    expect(problems({ postcode: "90001", region: "ca" })).toEqual({});
    expect(problems({ postcode: "90001", region: "Los Angeles County" })).toEqual({});
    expect(problems({ postcode: "73301", region: "TX" })).toEqual({});
    expect(problems({ country: "GB", postcode: "SW1A 1AA", region: "Texas" })).toEqual({});
  });
});
