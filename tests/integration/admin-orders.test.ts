import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelOrder, deliverOrder, packOrder, shipOrder } from "../../server/orders/fulfilment.ts";
import { OrderInputError } from "../../server/orders/input.ts";
import { recordReturn } from "../../server/orders/returns.ts";
import { StaleOrderError } from "../../server/orders/staff-order.ts";
import { OrderConflictError } from "../../server/orders/states.ts";
import { dialects, freshSeededDb, mailsTo, type TestDb } from "./databases.ts";
import {
  domainError,
  footprint,
  OTHER_STAFF,
  placeTestOrder,
  setStock,
  SITE,
  STAFF,
  stockOf,
} from "./admin-orders-support.ts";

describe.each(dialects)("back-office order moves on %s", (kind) => {
  let t: TestDb;
  let nextProduct = 1;
  /** A product no other test touches, with this much stock. */
  async function product(stock = 50) {
    const id = nextProduct++;
    await setStock(t.db, id, stock);
    return id;
  }
  const opts = { siteUrl: SITE };

  beforeAll(async () => {
    t = await freshSeededDb(kind, 50);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("packs, ships and delivers: each move is one event, one audit row and one mail, and the version goes up", async () => {
    const p = await product();
    const order = await placeTestOrder(t.db, { lines: [{ productId: p, quantity: 2 }] });
    expect(order.status).toBe("placed");

    const packed = await packOrder(t.db, STAFF, order.number, { version: String(order.version) }, opts);
    expect(packed).toMatchObject({ status: "packed", version: order.version + 1 });
    const shipped = await shipOrder(
      t.db,
      STAFF,
      order.number,
      { version: String(packed.version), carrier: "DPD", trackingNumber: " 15501 234 5678 " },
      opts,
    );
    expect(shipped).toMatchObject({ status: "shipped", version: order.version + 2 });
    const delivered = await deliverOrder(t.db, OTHER_STAFF, order.number, { version: shipped.version }, opts);
    expect(delivered).toMatchObject({ status: "delivered", version: order.version + 3 });

    const row = await t.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "delivered", carrier: "DPD", tracking_number: "155012345678" });
    expect(row.updated_at).toBeTruthy();

    const events = await t.db
      .selectFrom("order_events")
      .selectAll()
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(events.map((e) => [e.kind, e.from_status, e.to_status, e.actor])).toEqual([
      ["status", "placed", "packed", "staff:staff-1"],
      ["status", "packed", "shipped", "staff:staff-1"],
      ["status", "shipped", "delivered", "staff:staff-2"],
    ]);
    expect(JSON.parse(events[1].details)).toMatchObject({
      carrier: "DPD",
      trackingNumber: "155012345678",
      by: "Sam Staff",
    });

    const audit = await t.db
      .selectFrom("audit_log")
      .selectAll()
      .where("object_id", "=", order.number)
      .orderBy("id")
      .execute();
    expect(audit.map((a) => [a.action, a.object_type, a.actor_id, a.actor_name])).toEqual([
      ["order.pack", "order", "staff-1", "Sam Staff"],
      ["order.ship", "order", "staff-1", "Sam Staff"],
      ["order.deliver", "order", "staff-2", "Pat Packer"],
    ]);
    expect(JSON.parse(audit[1].before!)).toEqual({
      status: "packed",
      version: order.version + 1,
      carrier: null,
      tracking_number: null,
    });
    expect(JSON.parse(audit[1].after!)).toEqual({
      status: "shipped",
      version: order.version + 2,
      carrier: "DPD",
      tracking_number: "155012345678",
    });

    const mails = await mailsTo(t.db, order.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Your ToolHub Wholesale order ${order.number}`,
      `Your order ${order.number} is packed`,
      `Your order ${order.number} has shipped`,
      `Your order ${order.number} was delivered`,
    ]);
    expect(mails[2].text_body).toContain("Tracking number: 155012345678");
    expect(mails[2].text_body).toContain(`${SITE}/account/orders/${order.number}`);
  });

  it("a guest's mails link to the guest order page", async () => {
    const p = await product();
    const order = await placeTestOrder(t.db, { lines: [{ productId: p, quantity: 1 }] });
    // Stands in for a guest's confirmed order: no account, the private link instead.
    await t.db.updateTable("orders").set({ user_id: null }).where("id", "=", order.id).execute();
    await packOrder(t.db, STAFF, order.number, { version: order.version }, opts);
    const mails = await mailsTo(t.db, order.email);
    expect(mails.at(-1)!.text_body).toContain(`${SITE}/orders/${order.accessToken}`);
  });

  it("refuses moves the order's status doesn't allow, with a clear message, and writes nothing", async () => {
    const p = await product();
    const order = await placeTestOrder(t.db, { lines: [{ productId: p, quantity: 1 }] });
    const before = await footprint(t.db, order.id);
    const v = { version: order.version };
    expect(
      (
        await domainError(
          shipOrder(t.db, STAFF, order.number, { ...v, carrier: "UPS", trackingNumber: "1Z999" }, opts),
          "INVALID_TRANSITION",
          409,
        )
      ).message,
    ).toBe("Pack this order before you ship it.");
    await domainError(deliverOrder(t.db, STAFF, order.number, v, opts), "INVALID_TRANSITION", 409);
    const ret = { ...v, reason: "Faulty", restock: "yes", lines: [{ lineId: 1, quantity: 1 }] };
    expect(
      (await domainError(recordReturn(t.db, STAFF, order.number, ret, opts), "INVALID_TRANSITION", 409)).message,
    ).toMatch(/Nothing has been shipped yet/);
    expect(await footprint(t.db, order.id)).toEqual(before);

    const packed = await packOrder(t.db, STAFF, order.number, v, opts);
    expect(
      (
        await domainError(
          packOrder(t.db, STAFF, order.number, { version: packed.version }, opts),
          "INVALID_TRANSITION",
          409,
        )
      ).message,
    ).toBe("This order is already packed.");
    const shipped = await shipOrder(
      t.db,
      STAFF,
      order.number,
      { version: packed.version, carrier: "UPS", trackingNumber: "1Z999AA10123456784" },
      opts,
    );
    const afterShip = await footprint(t.db, order.id);
    const fresh = { version: shipped.version };
    expect(
      (
        await domainError(
          shipOrder(t.db, STAFF, order.number, { ...fresh, carrier: "DHL", trackingNumber: "JD0002" }, opts),
          "INVALID_TRANSITION",
          409,
        )
      ).message,
    ).toBe("This order has already been shipped.");
    expect(
      (await domainError(cancelOrder(t.db, STAFF, order.number, fresh, opts), "INVALID_TRANSITION", 409)).message,
    ).toMatch(/already been shipped, so it can't be cancelled/);
    await domainError(packOrder(t.db, STAFF, order.number, fresh, opts), "INVALID_TRANSITION", 409);
    expect(await footprint(t.db, order.id)).toEqual(afterShip);
    expect(afterShip.order).toMatchObject({ carrier: "UPS", tracking_number: "1Z999AA10123456784" });
  });

  it("a cancelled order can't be packed, shipped, delivered, cancelled again or returned", async () => {
    const p = await product();
    const order = await placeTestOrder(t.db, { lines: [{ productId: p, quantity: 1 }] });
    const cancelled = await cancelOrder(t.db, STAFF, order.number, { version: order.version }, opts);
    const before = await footprint(t.db, order.id);
    const v = { version: cancelled.version };
    for (const attempt of [
      () => packOrder(t.db, STAFF, order.number, v, opts),
      () => shipOrder(t.db, STAFF, order.number, { ...v, carrier: "DPD", trackingNumber: "ABCD1234" }, opts),
      () => deliverOrder(t.db, STAFF, order.number, v, opts),
      () => cancelOrder(t.db, STAFF, order.number, v, opts),
      () =>
        recordReturn(
          t.db,
          STAFF,
          order.number,
          { ...v, reason: "Faulty", restock: true, lines: [{ lineId: 1, quantity: 1 }] },
          opts,
        ),
    ]) {
      expect((await domainError(attempt(), "INVALID_TRANSITION", 409)).message).toMatch(/cancelled/);
    }
    expect(await footprint(t.db, order.id)).toEqual(before);
  });

  it("a form from an older version of the order is refused as stale, naming where the order stands, and writes nothing", async () => {
    const p = await product();
    const order = await placeTestOrder(t.db, { lines: [{ productId: p, quantity: 1 }] });
    await packOrder(t.db, STAFF, order.number, { version: order.version }, opts);
    const before = await footprint(t.db, order.id);
    const error = await domainError(
      cancelOrder(t.db, OTHER_STAFF, order.number, { version: order.version }, opts),
      "ORDER_CHANGED",
      409,
    );
    expect(error).toBeInstanceOf(OrderConflictError);
    expect(error).toBeInstanceOf(StaleOrderError);
    expect(error.message).toMatch(/Someone else changed this order while you had it open: it is now packed/);
    expect(await footprint(t.db, order.id)).toEqual(before);
    expect(await stockOf(t.db, p)).toBe(49);
  });

  it("two staff shipping one order at once: exactly one wins; one event, one mail, the winner's tracking number", async () => {
    const p = await product();
    const order = await placeTestOrder(t.db, { lines: [{ productId: p, quantity: 1 }] });
    const packed = await packOrder(t.db, STAFF, order.number, { version: order.version }, opts);
    const results = await Promise.allSettled([
      shipOrder(
        t.db,
        STAFF,
        order.number,
        { version: packed.version, carrier: "DPD", trackingNumber: "DPDAAAA1" },
        opts,
      ),
      shipOrder(
        t.db,
        OTHER_STAFF,
        order.number,
        { version: packed.version, carrier: "DHL", trackingNumber: "DHLBBBB2" },
        opts,
      ),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(OrderConflictError);
    expect((lost[0].reason as Error).message).toMatch(/it is now shipped/);
    const winner =
      results[0].status === "fulfilled"
        ? { carrier: "DPD", tracking_number: "DPDAAAA1" }
        : { carrier: "DHL", tracking_number: "DHLBBBB2" };
    const after = await footprint(t.db, order.id);
    expect(after.order).toMatchObject({ status: "shipped", version: packed.version + 1, ...winner });
    const shipEvents = await t.db
      .selectFrom("order_events")
      .select("id")
      .where("order_id", "=", order.id)
      .where("to_status", "=", "shipped")
      .execute();
    expect(shipEvents).toHaveLength(1);
    expect((await mailsTo(t.db, order.email)).filter((m) => /has shipped/.test(m.subject))).toHaveLength(1);
    expect(
      await t.db
        .selectFrom("audit_log")
        .select("id")
        .where("object_id", "=", order.number)
        .where("action", "=", "order.ship")
        .execute(),
    ).toHaveLength(1);
  });

  it("cancelling a placed or a packed order puts its stock back with ledger rows, and tells the customer why", async () => {
    const a = await product(10);
    const b = await product(10);
    const order = await placeTestOrder(t.db, {
      lines: [
        { productId: a, quantity: 3 },
        { productId: b, quantity: 2 },
      ],
    });
    expect([await stockOf(t.db, a), await stockOf(t.db, b)]).toEqual([7, 8]);
    const done = await cancelOrder(
      t.db,
      STAFF,
      order.number,
      { version: String(order.version), reason: "Customer asked us to cancel" },
      opts,
    );
    expect(done.status).toBe("cancelled");
    expect([await stockOf(t.db, a), await stockOf(t.db, b)]).toEqual([10, 10]);
    const ledger = await t.db
      .selectFrom("stock_movements")
      .select(["product_id", "delta", "reason", "actor", "stock_before", "stock_after"])
      .where("order_id", "=", order.id)
      .where("reason", "=", "cancellation")
      .orderBy("product_id")
      .execute();
    expect(ledger).toEqual([
      { product_id: a, delta: 3, reason: "cancellation", actor: "staff:staff-1", stock_before: 7, stock_after: 10 },
      { product_id: b, delta: 2, reason: "cancellation", actor: "staff:staff-1", stock_before: 8, stock_after: 10 },
    ]);
    const event = await t.db
      .selectFrom("order_events")
      .select("details")
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.details)).toMatchObject({ reason: "Customer asked us to cancel" });
    const mail = (await mailsTo(t.db, order.email)).at(-1)!;
    expect(mail.subject).toBe(`Your order ${order.number} was cancelled`);
    expect(mail.text_body).toContain("Reason: Customer asked us to cancel");

    const c = await product(5);
    const packedOrder = await placeTestOrder(t.db, { lines: [{ productId: c, quantity: 5 }] });
    expect(await stockOf(t.db, c)).toBe(0);
    const packed = await packOrder(t.db, STAFF, packedOrder.number, { version: packedOrder.version }, opts);
    await cancelOrder(t.db, STAFF, packedOrder.number, { version: packed.version }, opts);
    expect(await stockOf(t.db, c)).toBe(5);
  });

  it("records a partial return with restock (order stays delivered), then the rest without restock (order becomes returned)", async () => {
    const a = await product(20);
    const b = await product(20);
    const order = await placeTestOrder(t.db, {
      lines: [
        { productId: a, quantity: 4 },
        { productId: b, quantity: 1 },
      ],
    });
    const lines = await t.db
      .selectFrom("order_lines")
      .select(["id", "product_id"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    const [la, lb] = [lines.find((l) => l.product_id === a)!.id, lines.find((l) => l.product_id === b)!.id];
    let v = (await packOrder(t.db, STAFF, order.number, { version: order.version }, opts)).version;
    v = (
      await shipOrder(
        t.db,
        STAFF,
        order.number,
        { version: v, carrier: "Royal Mail", trackingNumber: "RM123456789GB" },
        opts,
      )
    ).version;
    v = (await deliverOrder(t.db, STAFF, order.number, { version: v }, opts)).version;

    const first = await recordReturn(
      t.db,
      STAFF,
      order.number,
      {
        version: String(v),
        reason: "Faulty",
        restock: "yes",
        note: "Box dented",
        lines: [
          { lineId: la, quantity: 3 },
          { lineId: lb, quantity: 0 },
        ],
      },
      opts,
    );
    expect(first).toMatchObject({ status: "delivered", version: v + 1 });
    expect(await stockOf(t.db, a)).toBe(19);
    expect(
      await t.db
        .selectFrom("stock_movements")
        .select(["product_id", "delta", "reason", "actor"])
        .where("order_id", "=", order.id)
        .where("reason", "=", "return")
        .execute(),
    ).toEqual([{ product_id: a, delta: 3, reason: "return", actor: "staff:staff-1" }]);
    const mail = (await mailsTo(t.db, order.email)).at(-1)!;
    expect(mail.subject).toBe(`We received a return from your order ${order.number}`);
    expect(mail.text_body).toContain("Reason: Faulty");
    expect(mail.text_body).not.toContain("Box dented");

    const second = await recordReturn(
      t.db,
      STAFF,
      order.number,
      {
        version: first.version,
        reason: "Damaged in transit",
        restock: false,
        lines: [
          { lineId: la, quantity: 1 },
          { lineId: lb, quantity: 1 },
        ],
      },
      opts,
    );
    expect(second.status).toBe("returned");
    expect([await stockOf(t.db, a), await stockOf(t.db, b)]).toEqual([19, 19]);
    const returns = await t.db
      .selectFrom("order_returns")
      .select(["reason", "restock", "note"])
      .where("order_id", "=", order.id)
      .orderBy("id")
      .execute();
    expect(returns.map((r) => [r.reason, Number(r.restock), r.note])).toEqual([
      ["Faulty", 1, "Box dented"],
      ["Damaged in transit", 0, null],
    ]);
    const events = await t.db
      .selectFrom("order_events")
      .select(["kind", "from_status", "to_status"])
      .where("order_id", "=", order.id)
      .where("kind", "=", "return")
      .orderBy("id")
      .execute();
    expect(events).toEqual([
      { kind: "return", from_status: "delivered", to_status: null },
      { kind: "return", from_status: "delivered", to_status: "returned" },
    ]);
    expect((await mailsTo(t.db, order.email)).at(-1)!.subject).toBe(
      `We received the return of your order ${order.number}`,
    );
    expect(
      await t.db
        .selectFrom("audit_log")
        .select("id")
        .where("object_id", "=", order.number)
        .where("action", "=", "order.return")
        .execute(),
    ).toHaveLength(2);

    // Nothing is left to return.
    const before = await footprint(t.db, order.id);
    await domainError(
      recordReturn(
        t.db,
        STAFF,
        order.number,
        { version: second.version, reason: "Faulty", restock: true, lines: [{ lineId: la, quantity: 1 }] },
        opts,
      ),
      "INVALID_TRANSITION",
      409,
    );
    expect(await footprint(t.db, order.id)).toEqual(before);
  });

  it("takes a whole return straight from shipped (a refused parcel)", async () => {
    const a = await product(10);
    const order = await placeTestOrder(t.db, { lines: [{ productId: a, quantity: 2 }] });
    const line = await t.db
      .selectFrom("order_lines")
      .select("id")
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    let v = (await packOrder(t.db, STAFF, order.number, { version: order.version }, opts)).version;
    v = (
      await shipOrder(t.db, STAFF, order.number, { version: v, carrier: "Evri", trackingNumber: "H01234567890" }, opts)
    ).version;
    const done = await recordReturn(
      t.db,
      STAFF,
      order.number,
      { version: v, reason: "Refused at delivery", restock: true, lines: [{ lineId: line.id, quantity: 2 }] },
      opts,
    );
    expect(done.status).toBe("returned");
    expect(await stockOf(t.db, a)).toBe(10);
  });

  it("queues the mail in the move's transaction: when the mail can't be queued, nothing is written at all", async () => {
    const a = await product(10);
    const order = await placeTestOrder(t.db, { lines: [{ productId: a, quantity: 2 }] });
    await t.db.updateTable("orders").set({ email: "not an address" }).where("id", "=", order.id).execute();
    const before = await footprint(t.db, order.id);
    await expect(cancelOrder(t.db, STAFF, order.number, { version: order.version }, opts)).rejects.toThrow(
      /Invalid mail to/,
    );
    await expect(packOrder(t.db, STAFF, order.number, { version: order.version }, opts)).rejects.toThrow(
      /Invalid mail to/,
    );
    expect(await footprint(t.db, order.id)).toEqual(before);
    expect(await stockOf(t.db, a)).toBe(8);
  });

  it("an order whose customer deleted their account moves without a mail", async () => {
    const a = await product(10);
    const order = await placeTestOrder(t.db, { lines: [{ productId: a, quantity: 1 }] });
    await t.db.updateTable("orders").set({ email: "", user_id: null }).where("id", "=", order.id).execute();
    const before = await footprint(t.db, order.id);
    await packOrder(t.db, STAFF, order.number, { version: order.version }, opts);
    const after = await footprint(t.db, order.id);
    expect({
      events: after.events - before.events,
      audit: after.audit - before.audit,
      mails: after.mails - before.mails,
    }).toEqual({ events: 1, audit: 1, mails: 0 });
  });

  describe("bad input gets a 4xx with a reason, and writes nothing", () => {
    it("unknown or malformed order numbers", async () => {
      for (const number of ["TH-0000000000", "TH-XYZ", "", "x".repeat(10_000), "1 OR 1=1"]) {
        await domainError(packOrder(t.db, STAFF, number, { version: 0 }, opts), "ORDER_NOT_FOUND", 404);
        await domainError(
          recordReturn(
            t.db,
            STAFF,
            number,
            { version: 0, reason: "Faulty", restock: true, lines: [{ lineId: 1, quantity: 1 }] },
            opts,
          ),
          "ORDER_NOT_FOUND",
          404,
        );
      }
    });

    it("bad versions, carriers, tracking numbers and reasons", async () => {
      const a = await product(10);
      const order = await placeTestOrder(t.db, { lines: [{ productId: a, quantity: 1 }] });
      const packed = await packOrder(t.db, STAFF, order.number, { version: order.version }, opts);
      const before = await footprint(t.db, order.id);
      const v = packed.version;
      const cases: [() => Promise<unknown>, string][] = [
        [
          () =>
            shipOrder(
              t.db,
              STAFF,
              order.number,
              { version: v, carrier: "Pigeon Post", trackingNumber: "ABCD1234" },
              opts,
            ),
          "carrier",
        ],
        [
          () => shipOrder(t.db, STAFF, order.number, { version: v, carrier: "", trackingNumber: "ABCD1234" }, opts),
          "carrier",
        ],
        [
          () => shipOrder(t.db, STAFF, order.number, { version: v, carrier: "DPD", trackingNumber: "" }, opts),
          "trackingNumber",
        ],
        [
          () =>
            shipOrder(t.db, STAFF, order.number, { version: v, carrier: "DPD", trackingNumber: "A".repeat(41) }, opts),
          "trackingNumber",
        ],
        [
          () => shipOrder(t.db, STAFF, order.number, { version: v, carrier: "DPD", trackingNumber: "<script>" }, opts),
          "trackingNumber",
        ],
        [
          () => shipOrder(t.db, STAFF, order.number, { version: v, carrier: ["DPD"], trackingNumber: 12345 }, opts),
          "carrier",
        ],
        [
          () =>
            shipOrder(t.db, STAFF, order.number, { version: "abc", carrier: "DPD", trackingNumber: "ABCD1234" }, opts),
          "version",
        ],
        [
          () =>
            shipOrder(t.db, STAFF, order.number, { version: "-1", carrier: "DPD", trackingNumber: "ABCD1234" }, opts),
          "version",
        ],
        [
          () =>
            shipOrder(
              t.db,
              STAFF,
              order.number,
              { version: "99999999999999", carrier: "DPD", trackingNumber: "ABCD1234" },
              opts,
            ),
          "version",
        ],
        [() => shipOrder(t.db, STAFF, order.number, { carrier: "DPD", trackingNumber: "ABCD1234" }, opts), "version"],
        [() => cancelOrder(t.db, STAFF, order.number, { version: v, reason: "x".repeat(501) }, opts), "reason"],
        [() => cancelOrder(t.db, STAFF, order.number, { version: v, reason: "bad\u0000byte" }, opts), "reason"],
        [() => cancelOrder(t.db, STAFF, order.number, { version: v, reason: { evil: true } }, opts), "reason"],
      ];
      for (const [attempt, field] of cases) {
        const error = await domainError(attempt(), "INVALID_INPUT", 400);
        expect(error).toBeInstanceOf(OrderInputError);
        expect(Object.keys((error as OrderInputError).fields)).toContain(field);
      }
      expect(await footprint(t.db, order.id)).toEqual(before);
      // A stale but well-formed version is a conflict, not bad input.
      await domainError(
        shipOrder(t.db, STAFF, order.number, { version: v + 5, carrier: "DPD", trackingNumber: "ABCD1234" }, opts),
        "ORDER_CHANGED",
        409,
      );
    });

    it("return quantities: above what's returnable, negative, huge, not numbers, other orders' lines, nothing at all", async () => {
      const a = await product(10);
      const order = await placeTestOrder(t.db, { lines: [{ productId: a, quantity: 2 }] });
      const other = await placeTestOrder(t.db, { lines: [{ productId: a, quantity: 1 }] });
      const line = (
        await t.db.selectFrom("order_lines").select("id").where("order_id", "=", order.id).executeTakeFirstOrThrow()
      ).id;
      const otherLine = (
        await t.db.selectFrom("order_lines").select("id").where("order_id", "=", other.id).executeTakeFirstOrThrow()
      ).id;
      let v = (await packOrder(t.db, STAFF, order.number, { version: order.version }, opts)).version;
      v = (await shipOrder(t.db, STAFF, order.number, { version: v, carrier: "DPD", trackingNumber: "ABCD1234" }, opts))
        .version;
      v = (await deliverOrder(t.db, STAFF, order.number, { version: v }, opts)).version;
      v = (
        await recordReturn(
          t.db,
          STAFF,
          order.number,
          { version: v, reason: "Faulty", restock: true, lines: [{ lineId: line, quantity: 1 }] },
          opts,
        )
      ).version;
      const before = await footprint(t.db, order.id);
      const stock = await stockOf(t.db, a);
      const base = { version: v, reason: "Faulty", restock: true };
      const cases: [Record<string, unknown>, string, RegExp?][] = [
        [
          { ...base, lines: [{ lineId: line, quantity: 2 }] },
          `qty-${line}`,
          /At most 1 of .* can come back \(2 ordered, 1 returned already\)/,
        ],
        [{ ...base, lines: [{ lineId: line, quantity: -1 }] }, `qty-${line}`, /can't be negative/],
        [{ ...base, lines: [{ lineId: line, quantity: "-1" }] }, `qty-${line}`],
        [{ ...base, lines: [{ lineId: line, quantity: 1e12 }] }, `qty-${line}`],
        [{ ...base, lines: [{ lineId: line, quantity: "999999999999999999999" }] }, `qty-${line}`],
        [{ ...base, lines: [{ lineId: line, quantity: 1.5 }] }, `qty-${line}`],
        [{ ...base, lines: [{ lineId: line, quantity: "two" }] }, `qty-${line}`],
        [{ ...base, lines: [{ lineId: otherLine, quantity: 1 }] }, `qty-${otherLine}`, /isn't part of this order/],
        [{ ...base, lines: [{ lineId: line, quantity: 0 }] }, "lines"],
        [{ ...base, lines: [] }, "lines"],
        [{ ...base, lines: "all" }, "lines"],
        [
          {
            ...base,
            lines: [
              { lineId: line, quantity: 1 },
              { lineId: line, quantity: 1 },
            ],
          },
          "lines",
        ],
        [{ ...base, reason: "Because", lines: [{ lineId: line, quantity: 1 }] }, "reason"],
        [{ ...base, restock: "maybe", lines: [{ lineId: line, quantity: 1 }] }, "restock"],
        [{ ...base, note: "n".repeat(501), lines: [{ lineId: line, quantity: 1 }] }, "note"],
      ];
      for (const [input, field, message] of cases) {
        const error = await domainError(recordReturn(t.db, STAFF, order.number, input, opts), "INVALID_INPUT", 400);
        expect(Object.keys((error as OrderInputError).fields), JSON.stringify(input).slice(0, 100)).toContain(field);
        if (message) expect((error as OrderInputError).fields[field]).toMatch(message);
      }
      expect(await footprint(t.db, order.id)).toEqual(before);
      expect(await stockOf(t.db, a)).toBe(stock);
      expect(await footprint(t.db, other.id)).toMatchObject({ events: 0, returns: 0 });
    });
  });
});
