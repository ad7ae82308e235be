/**
 * Spending limits and approvals through the database, on SQLite and PostgreSQL: an order above
 * its buyer's limit waits without taking stock; an approver places it (stock taken then, never
 * oversold) or rejects it; two approvers at once make one order; a PO number when the company
 * asks for one.
 */
import { insertCompany, insertMember } from "./trade-support.ts";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { placeOrder } from "../../server/orders/place-order.ts";
import { decideApproval, waitingForApproval } from "../../server/trade/approvals.ts";
import { buyerTerms, parseLimit, setSpendingLimit } from "../../server/trade/limits.ts";
import { invitationForRecipient } from "../../server/trade/company.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";

const token = () => randomBytes(18).toString("base64url");
const SITE = "http://store.test";

describe.each(dialects)("spending limits and approvals on %s", (kind) => {
  let t: TestDb;
  let org: string;
  const people: Record<"owner" | "approverA" | "approverB" | "buyer", string> = {
    owner: "",
    approverA: "",
    approverB: "",
    buyer: "",
  };
  let unitCents = 0;
  const PRODUCT = 2;

  const person = (role: string, organizationId: string) => insertMember(t.db, organizationId, role);
  const company = (poRequired = false) => insertCompany(t.db, { poRequired });

  async function order(userId: string, quantity: number, extra: Record<string, string> = {}) {
    const owner = `u:${userId}`;
    await addToCart(t.db, owner, { productId: PRODUCT, quantity });
    return placeOrder(t.db, {
      owner,
      userId,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, ...extra, checkoutToken: token() }),
      siteUrl: SITE,
    });
  }
  const stock = async () =>
    (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", PRODUCT).executeTakeFirstOrThrow())
      .stock_quantity;
  const orderRow = (number: string) =>
    t.db.selectFrom("orders").selectAll().where("number", "=", number).executeTakeFirstOrThrow();
  const mailsTo = (email: string, subject: RegExp) =>
    t.db
      .selectFrom("mail_queue")
      .select(["subject", "text_body"])
      .where("to_address", "=", email)
      .execute()
      .then((rows) => rows.filter((r) => subject.test(r.subject)));
  const emailOf = async (userId: string) =>
    (await t.db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirstOrThrow()).email;
  const approverActor = (who: keyof typeof people, role = "approver") => ({
    userId: people[who],
    name: who,
    organizationId: org,
    role,
  });

  beforeAll(async () => {
    t = await freshSeededDb(kind, 5);
    await t.db.updateTable("products").set({ stock_quantity: 50 }).execute();
    unitCents = (
      await t.db.selectFrom("products").select("sale_price_cents").where("id", "=", PRODUCT).executeTakeFirstOrThrow()
    ).sale_price_cents;
    org = await company();
    people.owner = await person("owner", org);
    people.approverA = await person("approver", org);
    people.approverB = await person("approver", org);
    people.buyer = await person("buyer", org);
    // The limit: a little over two units (with the member discount, shipping free in the US).
    await setSpendingLimit(
      t.db,
      { userId: people.owner, name: "Owner", organizationId: org, role: "owner" },
      people.buyer,
      unitCents * 2 + 1,
    );
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("places an order within the limit at once; above it, the order waits, holds no stock, and the buyer and approvers are mailed", async () => {
    const within = await order(people.buyer, 2);
    expect((await orderRow(within.number)).status).toBe("placed");
    const before = await stock();
    const above = await order(people.buyer, 3);
    expect(above.awaitingApproval).toBe(true);
    const row = await orderRow(above.number);
    expect({ status: row.status, organization: row.organization_id, hold: row.hold_expires_at }).toEqual({
      status: "awaiting_approval",
      organization: org,
      hold: null,
    });
    expect(await stock()).toBe(before);
    expect(
      await t.db.selectFrom("cart_items").select("product_id").where("owner", "=", `u:${people.buyer}`).execute(),
    ).toEqual([]);
    expect(await mailsTo(validCheckoutForm.email, /is waiting for approval$/)).toHaveLength(1);
    for (const who of ["owner", "approverA", "approverB"] as const)
      expect(
        await mailsTo(await emailOf(people[who]), new RegExp(`^Order ${above.number} needs your approval$`)),
      ).toHaveLength(1);
    expect(await mailsTo(await emailOf(people.buyer), /needs your approval/)).toHaveLength(0);
    const waiting = await waitingForApproval(t.db, org);
    expect(waiting.map((w) => [w.number, w.lines[0].quantity])).toContainEqual([above.number, 3]);
  });

  it("two approvers approving at once make one placed order: stock taken once, one mail", async () => {
    const { number } = await order(people.buyer, 4);
    const before = await stock();
    const results = await Promise.allSettled([
      decideApproval(t.db, approverActor("approverA"), number, { approve: true, siteUrl: SITE }),
      decideApproval(t.db, approverActor("approverB"), number, { approve: true, siteUrl: SITE }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "ALREADY_DECIDED", status: 409 });
    const row = await orderRow(number);
    expect(row.status).toBe("placed");
    expect(await stock()).toBe(before - 4);
    const ledger = await t.db.selectFrom("stock_movements").select("delta").where("order_id", "=", row.id).execute();
    expect(ledger.map((l) => l.delta)).toEqual([-4]);
    expect(await mailsTo(validCheckoutForm.email, new RegExp(`^Your ToolHub Wholesale order ${number}$`))).toHaveLength(
      1,
    );
    const approval = await t.db
      .selectFrom("order_approvals")
      .selectAll()
      .where("order_id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(approval.decision).toBe("approved");
  });

  it("a rejection needs a reason, cancels the order without touching stock, and mails the buyer why", async () => {
    const { number } = await order(people.buyer, 3);
    await expect(
      decideApproval(t.db, approverActor("approverA"), number, { approve: false, reason: "  ", siteUrl: SITE }),
    ).rejects.toMatchObject({ code: "REASON_REQUIRED" });
    const before = await stock();
    await decideApproval(t.db, approverActor("approverA"), number, {
      approve: false,
      reason: "Over this month's budget",
      siteUrl: SITE,
    });
    expect((await orderRow(number)).status).toBe("cancelled");
    expect(await stock()).toBe(before);
    const [mail] = await mailsTo(validCheckoutForm.email, new RegExp(`^Your order ${number} was not approved$`));
    expect(mail.text_body).toContain("Over this month's budget");
  });

  it("refuses a buyer, the order's own buyer, and another company's approver", async () => {
    const { number } = await order(people.buyer, 3);
    await expect(
      decideApproval(t.db, { ...approverActor("buyer"), role: "buyer" }, number, { approve: true, siteUrl: SITE }),
    ).rejects.toMatchObject({ code: "NOT_ALLOWED", status: 403 });
    const otherOrg = await company();
    const stranger = await person("approver", otherOrg);
    await expect(
      decideApproval(t.db, { userId: stranger, name: "x", organizationId: otherOrg, role: "approver" }, number, {
        approve: true,
        siteUrl: SITE,
      }),
    ).rejects.toMatchObject({ status: 404 });
    // An approver with a limit of their own can't approve their own order.
    await setSpendingLimit(
      t.db,
      { userId: people.owner, name: "Owner", organizationId: org, role: "owner" },
      people.approverA,
      1,
    );
    const own = await order(people.approverA, 1);
    await expect(
      decideApproval(t.db, approverActor("approverA"), own.number, { approve: true, siteUrl: SITE }),
    ).rejects.toMatchObject({ code: "OWN_ORDER" });
    expect((await orderRow(number)).status).toBe("awaiting_approval");
  });

  it("an order above the limit waits for approval even when the stock is short now: it holds none yet", async () => {
    const owner = `u:${people.buyer}`;
    await addToCart(t.db, owner, { productId: PRODUCT, quantity: 4 });
    await t.db.updateTable("products").set({ stock_quantity: 1 }).where("id", "=", PRODUCT).execute();
    const placed = await placeOrder(t.db, {
      owner,
      userId: people.buyer,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, checkoutToken: token() }),
      siteUrl: SITE,
    });
    expect(placed.awaitingApproval).toBe(true);
    expect((await orderRow(placed.number)).status).toBe("awaiting_approval");
    expect(await stock()).toBe(1);
    await t.db.updateTable("products").set({ stock_quantity: 50 }).where("id", "=", PRODUCT).execute();
  });

  it("approving when the stock has gone is refused and the order keeps waiting; nothing is oversold", async () => {
    const { number } = await order(people.buyer, 5);
    await t.db.updateTable("products").set({ stock_quantity: 2 }).where("id", "=", PRODUCT).execute();
    await expect(
      decideApproval(t.db, approverActor("approverB"), number, { approve: true, siteUrl: SITE }),
    ).rejects.toMatchObject({ code: "OUT_OF_STOCK", message: expect.stringContaining("The order is still waiting") });
    expect((await orderRow(number)).status).toBe("awaiting_approval");
    expect(await stock()).toBe(2);
    await t.db.updateTable("products").set({ stock_quantity: 50 }).where("id", "=", PRODUCT).execute();
  });

  it("a card order above the limit is refused with a reason; the PO number is kept, and required when the company says so", async () => {
    await expect(order(people.buyer, 3, { paymentMethod: "card" })).rejects.toMatchObject({
      code: "APPROVAL_NOT_BY_CARD",
      status: 409,
    });
    await t.db.deleteFrom("cart_items").where("owner", "=", `u:${people.buyer}`).execute();
    const placed = await order(people.buyer, 1, { poNumber: "PO-7781" });
    expect((await orderRow(placed.number)).po_number).toBe("PO-7781");
    const strict = await company(true);
    const buyer = await person("buyer", strict);
    await expect(order(buyer, 1)).rejects.toMatchObject({ code: "PO_REQUIRED", status: 400 });
    expect((await buyerTerms(t.db, buyer))?.poRequired).toBe(true);
    // Someone outside any company: the field is ignored.
    const guestOrder = await placeOrder(t.db, {
      owner: "g:x",
      userId: null,
      checkout: checkoutSchema.parse({ ...validCheckoutForm, poNumber: "PO-1", checkoutToken: token() }),
      siteUrl: SITE,
    }).catch((e) => e);
    expect(guestOrder).toMatchObject({ code: "EMPTY_CART" });
  });

  it("only the owner sets limits, within bounds, for the company's own members, with an audit row", async () => {
    const owner = { userId: people.owner, name: "Owner", organizationId: org, role: "owner" };
    await expect(setSpendingLimit(t.db, { ...owner, role: "approver" }, people.buyer, 100)).rejects.toMatchObject({
      status: 403,
    });
    await expect(setSpendingLimit(t.db, owner, people.buyer, 100_000_001)).rejects.toMatchObject({ code: "BAD_LIMIT" });
    await expect(setSpendingLimit(t.db, owner, "user-elsewhere", 100)).rejects.toMatchObject({ status: 404 });
    await expect(setSpendingLimit(t.db, owner, "user-\u0000", 100)).rejects.toMatchObject({
      code: "NOT_A_MEMBER",
      status: 404,
    });
    expect(await invitationForRecipient(t.db, "inv-\u0000")).toBeUndefined();
    await expect(
      decideApproval(t.db, approverActor("approverA"), "TH-\u0000", { approve: true, siteUrl: SITE }),
    ).rejects.toMatchObject({ code: "ORDER_NOT_FOUND", status: 404 });
    expect(await setSpendingLimit(t.db, owner, people.buyer, null)).toMatch(/has no spending limit now\.$/);
    expect((await buyerTerms(t.db, people.buyer))?.limitCents).toBeNull();
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["action", "after"])
      .where("object_id", "=", people.buyer)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ action: "company.limit", after: JSON.stringify({ perOrderCents: null }) });
    expect([
      parseLimit("250"),
      parseLimit("$1,250.50"),
      parseLimit(""),
      parseLimit("-5"),
      parseLimit("1.234"),
      parseLimit("abc"),
    ]).toEqual([25_000, 125_050, null, undefined, undefined, undefined]);
  });
});
