/**
 * Net 30 on account, on SQLite and PostgreSQL: only a company with net-30 terms may order on
 * invoice; an order that would take its unpaid invoices above the credit limit is refused (also
 * when two race for the last of it, and again when an approver approves one); staff mark an
 * invoice paid once, with an audit row; cancelling voids the invoice; overdue invoices are listed.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { loadDashboard } from "../../server/admin/dashboard.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { creditStanding } from "../../server/invoices/credit.ts";
import { markInvoicePaid } from "../../server/invoices/mark-paid.ts";
import { companyOpenInvoices, overdueInvoices } from "../../server/invoices/open-invoices.ts";
import { cancelOrder } from "../../server/orders/fulfilment.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { decideApproval } from "../../server/trade/approvals.ts";
import { setSpendingLimit } from "../../server/trade/limits.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { countRows, dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { insertCompany, insertMember } from "./trade-support.ts";

const SITE = "http://store.test";
const STAFF = { userId: "staff-1", name: "Sam Staff" };
const PRODUCT = 2;
const token = () => randomBytes(18).toString("base64url");

describe.each(dialects)("net 30 and credit limits on %s", (kind) => {
  let t: TestDb;
  let unitCents = 0;

  beforeAll(async () => {
    t = await freshSeededDb(kind, 5);
    await t.db.updateTable("products").set({ stock_quantity: 500 }).execute();
    // The list price: what a unit costs at most (a member's discount only lowers it; US shipping is free).
    unitCents = (
      await t.db.selectFrom("products").select("sale_price_cents").where("id", "=", PRODUCT).executeTakeFirstOrThrow()
    ).sale_price_cents;
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function order(userId: string, quantity: number, paymentMethod = "invoice-net30") {
    const owner = `u:${userId}`;
    await t.db.deleteFrom("cart_items").where("owner", "=", owner).execute();
    await addToCart(t.db, owner, { productId: PRODUCT, quantity });
    return placeOrder(t.db, {
      owner,
      userId,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, paymentMethod, checkoutToken: token() }),
      siteUrl: SITE,
    });
  }
  const orderRow = (number: string) =>
    t.db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
  const invoiceOf = async (number: string) =>
    t.db
      .selectFrom("invoices")
      .selectAll()
      .where("order_id", "=", (await orderRow(number)).id)
      .executeTakeFirst();
  const countOrders = () => countRows(t.db, "orders");
  async function buyerWithCredit(creditLimitCents: number, net30 = true) {
    const organizationId = await insertCompany(t.db, { net30, creditLimitCents });
    return { organizationId, userId: await insertMember(t.db, organizationId, "owner") };
  }

  it("places a net-30 order within the credit, invoiced at once and due in 30 days; the next one above the limit is refused and nothing is written", async () => {
    const buyer = await buyerWithCredit(unitCents * 3 + 50);
    const placed = await order(buyer.userId, 2);
    const row = await orderRow(placed.number);
    expect({ status: row.status, payment: row.payment_status, organization: row.organization_id }).toEqual({
      status: "placed",
      payment: "invoiced_net30",
      organization: buyer.organizationId,
    });
    const invoice = (await invoiceOf(placed.number))!;
    expect(invoice).toMatchObject({
      status: "unpaid",
      total_cents: row.total_cents,
      organization_id: buyer.organizationId,
    });
    expect(new Date(invoice.due_at!).getTime() - new Date(invoice.issued_at).getTime()).toBe(30 * 86_400_000);
    expect(await creditStanding(t.db, buyer.organizationId)).toEqual({
      net30: true,
      limitCents: unitCents * 3 + 50,
      owedCents: row.total_cents,
      availableCents: unitCents * 3 + 50 - row.total_cents,
    });

    const before = {
      orders: await countOrders(),
      stock: (
        await t.db.selectFrom("products").select("stock_quantity").where("id", "=", PRODUCT).executeTakeFirstOrThrow()
      ).stock_quantity,
    };
    const refused = order(buyer.userId, 2);
    await expect(refused).rejects.toMatchObject({ code: "CREDIT_LIMIT", status: 409 });
    await expect(refused).rejects.toThrow(/above its credit limit of \$[\d,.]+ \(\$[\d,.]+ left\)/);
    expect(await countOrders()).toBe(before.orders);
    expect(
      (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", PRODUCT).executeTakeFirstOrThrow())
        .stock_quantity,
    ).toBe(before.stock);
    // The cart is kept, so the buyer can pay another way.
    expect(
      await t.db.selectFrom("cart_items").select("quantity").where("owner", "=", `u:${buyer.userId}`).execute(),
    ).toEqual([{ quantity: 2 }]);
    // Pay on delivery is still open to them.
    expect((await orderRow((await order(buyer.userId, 2, "pay-on-delivery")).number)).status).toBe("placed");
  });

  it("refuses net 30 to a company without net-30 terms", async () => {
    const buyer = await buyerWithCredit(1_000_000, false);
    await expect(order(buyer.userId, 1)).rejects.toMatchObject({ code: "NET30_NOT_OFFERED", status: 409 });
  });

  it("two orders racing for the last of the credit: exactly one is placed", async () => {
    const organizationId = await insertCompany(t.db, { net30: true, creditLimitCents: unitCents * 3 });
    const a = await insertMember(t.db, organizationId, "owner");
    const b = await insertMember(t.db, organizationId, "buyer");
    const results = await Promise.allSettled([order(a, 2), order(b, 2)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      code: "CREDIT_LIMIT",
    });
    expect((await creditStanding(t.db, organizationId)).owedCents).toBeLessThanOrEqual(unitCents * 3);
  });

  it("staff mark an invoice paid once (audit row, credit free again); twice at once, one wins; a void or non-net-30 invoice is refused", async () => {
    const buyer = await buyerWithCredit(unitCents * 2 + 50);
    const first = await order(buyer.userId, 2);
    await expect(order(buyer.userId, 1)).rejects.toMatchObject({ code: "CREDIT_LIMIT" });
    const results = await Promise.allSettled([
      markInvoicePaid(t.db, STAFF, first.number),
      markInvoicePaid(t.db, { userId: "staff-2", name: "Pat" }, first.number),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({
      code: "INVOICE_NOT_OPEN",
      status: 409,
    });
    const invoice = (await invoiceOf(first.number))!;
    expect(invoice.status).toBe("paid");
    expect(invoice.paid_at).not.toBeNull();
    expect((await orderRow(first.number)).payment_status).toBe("paid");
    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "invoice.mark-paid")
      .where("object_id", "=", invoice.number)
      .execute();
    expect(audit).toHaveLength(1);
    // The credit is free again.
    expect((await orderRow((await order(buyer.userId, 2)).number)).status).toBe("placed");

    const cod = await order(buyer.userId, 1, "pay-on-delivery");
    await expect(markInvoicePaid(t.db, STAFF, cod.number)).rejects.toMatchObject({
      code: "NO_NET30_INVOICE",
      status: 409,
    });
    await expect(markInvoicePaid(t.db, STAFF, "TH-0000000000")).rejects.toMatchObject({ status: 404 });
    await expect(markInvoicePaid(t.db, STAFF, "nonsense\u0000")).rejects.toMatchObject({ status: 404 });
  });

  it("cancelling a net-30 order voids its invoice and gives the credit back", async () => {
    const buyer = await buyerWithCredit(unitCents * 2 + 50);
    const placed = await order(buyer.userId, 2);
    const row = await orderRow(placed.number);
    await cancelOrder(t.db, STAFF, placed.number, { version: Number(row.version), reason: "Customer asked" });
    expect((await invoiceOf(placed.number))!.status).toBe("void");
    expect((await creditStanding(t.db, buyer.organizationId)).owedCents).toBe(0);
    await expect(markInvoicePaid(t.db, STAFF, placed.number)).rejects.toMatchObject({
      code: "INVOICE_NOT_OPEN",
      message: expect.stringContaining("void"),
    });
  });

  it("an approver's approval checks the credit again: refused while it is used up, placed and invoiced once an invoice is paid", async () => {
    const organizationId = await insertCompany(t.db, { net30: true, creditLimitCents: unitCents * 3 });
    const owner = await insertMember(t.db, organizationId, "owner");
    const buyer = await insertMember(t.db, organizationId, "buyer");
    await setSpendingLimit(t.db, { userId: owner, name: "Owner", organizationId, role: "owner" }, buyer, unitCents);
    const waiting = await order(buyer, 2);
    expect(waiting.awaitingApproval).toBe(true);
    expect(await invoiceOf(waiting.number)).toBeUndefined();
    // Meanwhile the owner uses most of the credit.
    const owners = await order(owner, 2);
    const approver = { userId: owner, name: "Owner", organizationId, role: "owner" };
    await expect(
      decideApproval(t.db, approver, waiting.number, { approve: true, siteUrl: SITE }),
    ).rejects.toMatchObject({ code: "CREDIT_LIMIT", message: expect.stringContaining("The order is still waiting") });
    expect((await orderRow(waiting.number)).status).toBe("awaiting_approval");
    await markInvoicePaid(t.db, STAFF, owners.number);
    await decideApproval(t.db, approver, waiting.number, { approve: true, siteUrl: SITE });
    expect((await orderRow(waiting.number)).status).toBe("placed");
    expect((await invoiceOf(waiting.number))!.status).toBe("unpaid");
  });

  it("lists a company's open invoices and every overdue one, oldest first, for the account page and the dashboard", async () => {
    const buyer = await buyerWithCredit(10_000_000);
    const early = await order(buyer.userId, 1);
    const later = await order(buyer.userId, 1);
    const sixtyOneDaysAgo = new Date(Date.now() - 61 * 86_400_000).toISOString();
    await t.db
      .updateTable("invoices")
      .set({ due_at: sixtyOneDaysAgo })
      .where("order_id", "=", (await orderRow(early.number)).id)
      .execute();
    const open = await companyOpenInvoices(t.db, buyer.organizationId);
    expect(open.map((i) => [i.orderNumber, i.daysOverdue > 0, i.buyerUserId])).toEqual([
      [early.number, true, buyer.userId],
      [later.number, false, buyer.userId],
    ]);
    expect(open[0].daysOverdue).toBe(61);
    const overdue = await overdueInvoices(t.db);
    expect(overdue.first.map((i) => i.orderNumber)).toContain(early.number);
    expect(overdue.first.map((i) => i.orderNumber)).not.toContain(later.number);
    expect((await loadDashboard(t.db)).overdueInvoices.count).toBe(overdue.count);
    await markInvoicePaid(t.db, STAFF, early.number);
    expect((await overdueInvoices(t.db)).first.map((i) => i.orderNumber)).not.toContain(early.number);
  });
});
