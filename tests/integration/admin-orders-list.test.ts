import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderFilterSchema } from "../../app/lib/order-admin-schema.ts";
import { getOrderForStaff, getPackingSlip, listOrdersForStaff } from "../../server/orders/admin-queries.ts";
import { cancelOrder, deliverOrder, packOrder, shipOrder } from "../../server/orders/fulfilment.ts";
import { getOrderByAccessToken, getOrderForUser } from "../../server/orders/queries.ts";
import { recordReturn } from "../../server/orders/returns.ts";
import { OrderConflictError } from "../../server/orders/states.ts";
import { dialects, freshSeededDb, type TestDb } from "./databases.ts";
import { footprint, placeTestOrder, setStock, SITE, STAFF, OTHER_STAFF } from "./admin-orders-support.ts";

const opts = { siteUrl: SITE };
const at = (iso: string) => new Date(iso);

describe.each(dialects)("the back office's order list and order page on %s", (kind) => {
  let t: TestDb;
  /** The orders of the filter fixture, by name. */
  const o: Record<string, Awaited<ReturnType<typeof placeTestOrder>>> = {};
  const list = async (filter: Record<string, string>, pageSize?: number) => {
    const parsed = orderFilterSchema.parse(filter);
    return listOrdersForStaff(t.db, parsed, pageSize);
  };
  const numbers = async (filter: Record<string, string>) => (await list(filter)).rows.map((r) => r.number);

  beforeAll(async () => {
    t = await freshSeededDb(kind, 30);
    for (let id = 1; id <= 30; id++) await setStock(t.db, id, 500);
    // Every order of this fixture is placed in 2001, so the date filters see only them.
    o.usPod = await placeTestOrder(t.db, {
      lines: [{ productId: 1, quantity: 1 }],
      email: "Alice@Example.com",
      now: at("2001-03-01T10:00:00.000Z"),
    });
    o.gbPod = await placeTestOrder(t.db, {
      lines: [{ productId: 2, quantity: 5 }],
      country: "GB",
      now: at("2001-03-02T10:00:00.000Z"),
    });
    o.usInvoice = await placeTestOrder(t.db, {
      lines: [{ productId: 3, quantity: 2 }],
      payment: "invoice-net30",
      email: "alice@example.com",
      now: at("2001-03-03T23:59:59.000Z"),
    });
    o.gbInvoice = await placeTestOrder(t.db, {
      lines: [{ productId: 4, quantity: 1 }],
      country: "GB",
      payment: "invoice-net30",
      now: at("2001-03-04T00:00:00.000Z"),
    });
    o.guestHold = await placeTestOrder(t.db, {
      guest: true,
      lines: [{ productId: 5, quantity: 1 }],
      now: at("2001-03-05T10:00:00.000Z"),
    });
    const packed = await packOrder(t.db, STAFF, o.gbPod.number, { version: o.gbPod.version }, opts);
    await shipOrder(
      t.db,
      STAFF,
      o.gbPod.number,
      { version: packed.version, carrier: "Royal Mail", trackingNumber: "RM1" + "23456789GB" },
      opts,
    );
    await cancelOrder(t.db, STAFF, o.gbInvoice.number, { version: o.gbInvoice.version }, opts);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("lists placed orders newest first and leaves out guest holds that were never confirmed", async () => {
    expect(await numbers({ from: "2001-01-01", to: "2001-12-31" })).toEqual(
      [o.gbInvoice, o.usInvoice, o.gbPod, o.usPod].map((x) => x.number),
    );
    const rows = (await list({ number: o.gbPod.number })).rows;
    expect(rows).toEqual([
      expect.objectContaining({
        number: o.gbPod.number,
        status: "shipped",
        ship_country: "GB",
        payment_method: "pay-on-delivery",
        payment_status: "due_on_delivery",
        items: 5,
        created_at: "2001-03-02T10:00:00.000Z",
      }),
    ]);
    expect(rows[0]).not.toHaveProperty("id");
  });

  it("filters by each field", async () => {
    const range = { from: "2001-01-01", to: "2001-12-31" };
    expect(await numbers({ ...range, status: "shipped" })).toEqual([o.gbPod.number]);
    expect(await numbers({ ...range, status: "cancelled" })).toEqual([o.gbInvoice.number]);
    expect(await numbers({ ...range, status: "placed" })).toEqual([o.usInvoice.number, o.usPod.number]);
    expect(await numbers({ ...range, status: "awaiting_confirmation" })).toEqual([o.guestHold.number]);
    expect(await numbers({ ...range, country: "GB" })).toEqual([o.gbInvoice.number, o.gbPod.number]);
    expect(await numbers({ ...range, country: "US" })).toEqual([o.usInvoice.number, o.usPod.number]);
    expect(await numbers({ ...range, payment: "invoice-net30" })).toEqual([o.gbInvoice.number, o.usInvoice.number]);
    expect(await numbers({ ...range, payment: "pay-on-delivery" })).toEqual([o.gbPod.number, o.usPod.number]);
    // The email matches whatever case it was typed in.
    expect(await numbers({ email: "ALICE@example.COM" })).toEqual([o.usInvoice.number, o.usPod.number]);
    expect(await numbers({ email: "nobody@example.com" })).toEqual([]);
    expect(await numbers({ number: o.usPod.number.toLowerCase() })).toEqual([o.usPod.number]);
    expect(await numbers({ number: o.usPod.number.slice(3) })).toEqual([o.usPod.number]);
    // Dates are whole UTC days, both ends included.
    expect(await numbers({ from: "2001-03-02", to: "2001-03-03" })).toEqual([o.usInvoice.number, o.gbPod.number]);
    expect(await numbers({ from: "2001-03-04", to: "2001-03-04" })).toEqual([o.gbInvoice.number]);
    expect(await numbers({ to: "2001-03-01" })).toEqual([o.usPod.number]);
    // Filters combine.
    expect(await numbers({ ...range, country: "GB", payment: "invoice-net30", status: "cancelled" })).toEqual([
      o.gbInvoice.number,
    ]);
    expect(await numbers({ ...range, country: "US", status: "shipped" })).toEqual([]);
    // Each order's currency: a shopper's UK delivery is in pounds; a trade company's order is in dollars wherever it goes.
    expect(await numbers({ ...range, currency: "gbp" })).toEqual([o.gbPod.number]);
    expect(await numbers({ ...range, currency: "usd" })).toEqual([
      o.gbInvoice.number,
      o.usInvoice.number,
      o.usPod.number,
    ]);
    expect((await list({ number: o.gbPod.number })).rows[0]).toMatchObject({ currency: "gbp" });
  });

  it("refuses bad filter values with a message per field", () => {
    const bad = orderFilterSchema.safeParse({
      status: "lost",
      from: "2001-02-30",
      to: "yesterday",
      payment: "bitcoin",
      country: "FR",
      currency: "eur",
      number: "12",
      email: "x".repeat(300),
      after: "1; DROP TABLE orders",
    });
    expect(bad.success).toBe(false);
    const fields = new Set(bad.error!.issues.map((i) => String(i.path[0])));
    expect([...fields].sort()).toEqual([
      "after",
      "country",
      "currency",
      "email",
      "from",
      "number",
      "payment",
      "status",
      "to",
    ]);
    const reversed = orderFilterSchema.safeParse({ from: "2001-03-05", to: "2001-03-01" });
    expect(reversed.error!.issues[0].path).toEqual(["to"]);
  });

  it("pages with keysets: forward and back, by date and by total, never repeating or skipping an order", async () => {
    const range = { from: "2001-01-01", to: "2001-12-31" };
    const all = await numbers(range);
    const first = await list(range, 2);
    expect(first.rows.map((r) => r.number)).toEqual(all.slice(0, 2));
    expect(first.previous).toBeNull();
    const second = await list({ ...range, after: first.next! }, 2);
    expect(second.rows.map((r) => r.number)).toEqual(all.slice(2, 4));
    expect(second.next).toBeNull();
    const back = await list({ ...range, before: second.previous! }, 2);
    expect(back.rows.map((r) => r.number)).toEqual(all.slice(0, 2));
    expect(back.previous).toBeNull();
    expect(back.next).toBe(first.next);

    const oldest = await list({ ...range, dir: "asc" }, 3);
    expect(oldest.rows.map((r) => r.number)).toEqual([...all].reverse().slice(0, 3));

    const byTotal = (await list({ ...range, sort: "total", dir: "desc" }, 100)).rows;
    const totals = byTotal.map((r) => r.total_cents);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const p1 = await list({ ...range, sort: "total" }, 3);
    const p2 = await list({ ...range, sort: "total", after: p1.next! }, 3);
    expect([...p1.rows, ...p2.rows].map((r) => r.number)).toEqual(byTotal.map((r) => r.number));
  });

  it("shows one order in full to staff, and an unknown number is null", async () => {
    const detail = await getOrderForStaff(t.db, o.gbPod.number);
    expect(detail).toMatchObject({
      number: o.gbPod.number,
      status: "shipped",
      carrier: "Royal Mail",
      tracking_number: "RM123456789GB",
      ship_country: "GB",
      user_id: o.gbPod.userId,
      actions: { pack: false, ship: false, deliver: true, cancel: false, return: true },
    });
    expect(detail!.lines).toEqual([
      expect.objectContaining({
        title: expect.any(String),
        quantity: 5,
        returned: 0,
        sku: expect.stringMatching(/\S/),
      }),
    ]);
    expect(detail!.events.map((e) => [e.from, e.to, e.details.by])).toEqual([
      ["placed", "packed", "Sam Staff"],
      ["packed", "shipped", "Sam Staff"],
    ]);
    expect(detail).not.toHaveProperty("access_token");
    expect(detail).not.toHaveProperty("checkout_token");
    expect(await getOrderForStaff(t.db, "TH-0000000000")).toBeNull();
    expect(await getOrderForStaff(t.db, "nonsense")).toBeNull();

    const slip = await getPackingSlip(t.db, o.gbPod.number);
    expect(slip).toMatchObject({ number: o.gbPod.number, units: 5, ship_country: "GB" });
    expect(JSON.stringify(slip)).not.toMatch(/cents|price/);
  });

  it("the customer's own order page reads the same history: shipment, cancellation and returns, without staff names", async () => {
    const shipped = await getOrderForUser(t.db, o.gbPod.number, o.gbPod.userId!);
    expect(shipped).toMatchObject({ status: "shipped", carrier: "Royal Mail", tracking_number: "RM123456789GB" });
    expect(shipped!.timeline.map((s) => [s.kind, s.status, s.carrier, s.trackingNumber])).toEqual([
      ["placed", "placed", null, null],
      ["status", "packed", null, null],
      ["status", "shipped", "Royal Mail", "RM123456789GB"],
    ]);
    expect(JSON.stringify(shipped)).not.toMatch(/Sam Staff|staff:|order_id|user_?id/i);

    const cancelled = await getOrderForUser(t.db, o.gbInvoice.number, o.gbInvoice.userId!);
    expect(cancelled!.timeline.at(-1)).toMatchObject({ kind: "status", status: "cancelled" });

    // A guest's link shows the same.
    await t.db.updateTable("orders").set({ user_id: null }).where("number", "=", o.usPod.number).execute();
    const p = await packOrder(t.db, STAFF, o.usPod.number, { version: o.usPod.version }, opts);
    const s = await shipOrder(
      t.db,
      STAFF,
      o.usPod.number,
      { version: p.version, carrier: "USPS", trackingNumber: "9400100000000000000000" },
      opts,
    );
    const d = await deliverOrder(t.db, STAFF, o.usPod.number, { version: s.version }, opts);
    const line = await t.db
      .selectFrom("order_lines")
      .select("id")
      .where("order_id", "=", o.usPod.id)
      .executeTakeFirstOrThrow();
    await recordReturn(
      t.db,
      STAFF,
      o.usPod.number,
      {
        version: d.version,
        reason: "Faulty",
        restock: true,
        note: "internal only",
        lines: [{ lineId: line.id, quantity: 1 }],
      },
      opts,
    );
    const guest = await getOrderByAccessToken(t.db, o.usPod.accessToken);
    expect(guest!.status).toBe("returned");
    expect(guest!.timeline.at(-1)).toMatchObject({
      kind: "return",
      status: "returned",
      reason: "Faulty",
      lines: [expect.objectContaining({ quantity: 1 })],
    });
    expect(JSON.stringify(guest)).not.toContain("internal only");
  });

  it("two staff recording returns from the same page at once: one wins, the other is told the order changed", async () => {
    const order = await placeTestOrder(t.db, { lines: [{ productId: 20, quantity: 4 }] });
    let v = (await packOrder(t.db, STAFF, order.number, { version: order.version }, opts)).version;
    v = (await shipOrder(t.db, STAFF, order.number, { version: v, carrier: "DPD", trackingNumber: "ABCD1234" }, opts))
      .version;
    const line = await t.db
      .selectFrom("order_lines")
      .select("id")
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    const stock = Number(
      (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", 20).executeTakeFirstOrThrow())
        .stock_quantity,
    );
    const results = await Promise.allSettled([
      recordReturn(
        t.db,
        STAFF,
        order.number,
        { version: v, reason: "Faulty", restock: true, lines: [{ lineId: line.id, quantity: 3 }] },
        opts,
      ),
      recordReturn(
        t.db,
        OTHER_STAFF,
        order.number,
        { version: v, reason: "Faulty", restock: true, lines: [{ lineId: line.id, quantity: 3 }] },
        opts,
      ),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!;
    expect(lost.reason).toBeInstanceOf(OrderConflictError);
    const after = await footprint(t.db, order.id);
    expect(after.returns).toBe(1);
    expect(after.order).toMatchObject({ status: "shipped", version: v + 1 });
    expect(
      Number(
        (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", 20).executeTakeFirstOrThrow())
          .stock_quantity,
      ),
    ).toBe(stock + 3);
  });
});
