import { describe, expect, it } from "vitest";
import {
  MAX_LINE_QUANTITY,
  MAX_ORDER_QUANTITY,
  parseWholeQuantity,
  QUANTITY_LIMIT_MESSAGES,
  quantityLimitProblem,
} from "../../app/lib/order-rules.ts";
import { isRetryableTransactionError, withTransactionRetry } from "../../server/db/retry.ts";
import { DomainError, OutOfStockError } from "../../server/errors.ts";
import { STOCK_REASONS } from "../../server/inventory/stock.ts";
import { emailKey, waitText } from "../../server/orders/checkout.ts";
import {
  canChangePayment,
  canTransition,
  changePaymentStatus,
  HOLD_STATUSES,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  OrderConflictError,
  PAYMENT_STATUSES,
  PAYMENT_TRANSITIONS,
  PaymentTransitionError,
  transitionRule,
  type OrderStatus,
  type PaymentStatus,
} from "../../server/orders/states.ts";

/** Records the one `update orders` a payment change makes; `rows` is what the database answers. */
function fakeOrderUpdates(writes: unknown[], rows: number) {
  return {
    updateTable(table: string) {
      expect(table).toBe("orders");
      const write = { set: {} as object, where: [] as unknown[][] };
      const builder = {
        set(values: object) {
          write.set = values;
          return builder;
        },
        where(...condition: unknown[]) {
          write.where.push(condition);
          return builder;
        },
        async executeTakeFirst() {
          writes.push(write);
          return { numUpdatedRows: BigInt(rows) };
        },
      };
      return builder;
    },
  } as unknown as Parameters<typeof changePaymentStatus>[0];
}

describe("order caps", () => {
  it("are 100 units a line and 1,000 units an order, with messages that say so", () => {
    expect(MAX_LINE_QUANTITY).toBe(100);
    expect(MAX_ORDER_QUANTITY).toBe(1_000);
    expect(QUANTITY_LIMIT_MESSAGES.line).toBe("You can order at most 100 of one item in a single order.");
    expect(QUANTITY_LIMIT_MESSAGES.order).toBe("A single order can hold at most 1,000 units in all.");
  });

  it.each([
    [[1], null],
    [[100], null],
    [[101], "line"],
    [[100, 100, 100, 100, 100, 100, 100, 100, 100, 100], null],
    [[100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 1], "order"],
    [[5, 101, 2000], "line"],
    [[], null],
  ] as const)("quantityLimitProblem(%j) is %j", (quantities, expected) => {
    expect(quantityLimitProblem(quantities)).toBe(expected);
  });

  it("parseWholeQuantity accepts any whole number of units and refuses the rest", () => {
    expect(parseWholeQuantity("101")).toBe(101);
    expect(parseWholeQuantity("999999")).toBe(999_999);
    for (const bad of ["0", "-1", "1.5", "1e3", "1000000", "abc", "", null, undefined, 2.5])
      expect(parseWholeQuantity(bad)).toBeNull();
  });
});

describe("order states", () => {
  const allowed: [OrderStatus, OrderStatus][] = [
    ["awaiting_confirmation", "placed"],
    ["awaiting_confirmation", "expired"],
    ["awaiting_confirmation", "cancelled"],
    ["awaiting_payment", "placed"],
    ["awaiting_payment", "expired"],
    ["awaiting_payment", "cancelled"],
    ["placed", "packed"],
    ["placed", "cancelled"],
    ["processing", "packed"],
    ["processing", "shipped"],
    ["processing", "cancelled"],
    ["packed", "shipped"],
    ["packed", "cancelled"],
    ["shipped", "delivered"],
    ["shipped", "returned"],
    ["delivered", "returned"],
    // A card order's "Try again" after its payment failed or its hold ran out (takes the stock again).
    ["expired", "awaiting_payment"],
    ["awaiting_approval", "placed"],
    ["awaiting_approval", "cancelled"],
  ];

  it("the table allows exactly these moves", () => {
    const inTable = ORDER_STATUSES.flatMap((from) =>
      ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => [from, to]),
    );
    expect(inTable.sort()).toEqual([...allowed].sort());
  });

  it("every state has a row, and only known states appear", () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort());
    for (const row of Object.values(ORDER_TRANSITIONS))
      for (const to of Object.keys(row)) expect(ORDER_STATUSES).toContain(to);
  });

  it("cancelled and returned are final; expired only goes back to awaiting payment (taking the stock again); nothing else moves back into a hold or into processing", () => {
    for (const final of ["cancelled", "returned"] as const)
      expect(ORDER_STATUSES.filter((to) => canTransition(final, to))).toEqual([]);
    expect(ORDER_STATUSES.filter((to) => canTransition("expired", to))).toEqual(["awaiting_payment"]);
    expect(transitionRule("expired", "awaiting_payment")).toEqual({ restock: null, take: "order" });
    for (const from of ORDER_STATUSES) {
      for (const hold of HOLD_STATUSES) if (from !== "expired") expect(canTransition(from, hold)).toBe(false);
      expect(canTransition(from, "processing")).toBe(false);
    }
    expect(canTransition("shipped", "cancelled")).toBe(false);
    expect(canTransition("delivered", "placed")).toBe(false);
    expect(canTransition("nonsense", "placed")).toBe(false);
    expect(canTransition("placed", "nonsense")).toBe(false);
  });

  it("releasing a hold, or cancelling before shipping, gives the stock back with the right ledger reason", () => {
    expect(transitionRule("awaiting_confirmation", "expired")?.restock).toBe("order_released");
    expect(transitionRule("awaiting_payment", "cancelled")?.restock).toBe("order_released");
    // A trade order waiting for approval holds no stock: approval takes it, rejection has none to give back.
    expect(transitionRule("awaiting_approval", "placed")).toEqual({ restock: null, take: "order" });
    expect(transitionRule("awaiting_approval", "cancelled")).toEqual({ restock: null });
    expect(transitionRule("placed", "cancelled")?.restock).toBe("cancellation");
    expect(transitionRule("packed", "cancelled")?.restock).toBe("cancellation");
    expect(transitionRule("awaiting_confirmation", "placed")?.restock).toBeNull();
    expect(transitionRule("shipped", "returned")?.restock).toBeNull();
    for (const row of Object.values(ORDER_TRANSITIONS))
      for (const rule of Object.values(row)) if (rule.restock) expect(STOCK_REASONS).toContain(rule.restock);
  });

  it("payment states keep the offline methods' values and move forward only", () => {
    expect(PAYMENT_STATUSES).toContain("due_on_delivery");
    expect(PAYMENT_STATUSES).toContain("invoiced_net30");
    expect(canChangePayment("due_on_delivery", "paid")).toBe(true);
    expect(canChangePayment("pending", "paid")).toBe(true);
    expect(canChangePayment("paid", "refunded")).toBe(true);
    expect(canChangePayment("refunded", "paid")).toBe(false);
    expect(canChangePayment("paid", "pending")).toBe(false);
    expect(canChangePayment("nonsense", "paid")).toBe(false);
  });

  const paymentChanges: [PaymentStatus, PaymentStatus][] = [
    ["due_on_delivery", "paid"],
    ["invoiced_net30", "paid"],
    ["pending", "processing"],
    ["pending", "authorized"],
    ["pending", "paid"],
    ["pending", "failed"],
    ["processing", "paid"],
    ["processing", "failed"],
    ["authorized", "paid"],
    ["authorized", "failed"],
    ["paid", "refunded"],
    // "Try again" after a failed payment; a payment reported after its failure (events out of order).
    ["failed", "pending"],
    ["failed", "paid"],
    // A payment flagged for staff keeps the order's payment status; refunding it in full ends there.
    ["pending", "refunded"],
    ["processing", "refunded"],
    ["authorized", "refunded"],
    ["failed", "refunded"],
  ];

  it("the payment table allows exactly these changes", () => {
    const inTable = PAYMENT_STATUSES.flatMap((from) =>
      PAYMENT_STATUSES.filter((to) => canChangePayment(from, to)).map((to) => [from, to]),
    );
    expect(inTable.sort()).toEqual([...paymentChanges].sort());
    expect(Object.keys(PAYMENT_TRANSITIONS).sort()).toEqual([...PAYMENT_STATUSES].sort());
  });

  it.each(paymentChanges)("changePaymentStatus writes %s → %s in the caller's transaction", async (from, to) => {
    const writes: unknown[] = [];
    const trx = fakeOrderUpdates(writes, 1);
    await changePaymentStatus(trx, { id: 7, payment_status: from }, to, { updated_at: "2026-01-01T00:00:00.000Z" });
    expect(writes).toEqual([
      { set: { updated_at: "2026-01-01T00:00:00.000Z", payment_status: to }, where: [["id", "=", 7]] },
    ]);
  });

  it("changePaymentStatus refuses a change outside the table before writing anything, and keeps a status as no change", async () => {
    const writes: unknown[] = [];
    for (const [from, to] of [
      ["refunded", "paid"],
      ["paid", "pending"],
      ["due_on_delivery", "refunded"],
      ["invoiced_net30", "failed"],
    ] as const) {
      const error = await changePaymentStatus(fakeOrderUpdates(writes, 1), { id: 7, payment_status: from }, to).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PaymentTransitionError);
      expect(error).toMatchObject({ code: "INVALID_PAYMENT_TRANSITION", status: 409 });
    }
    expect(writes).toEqual([]);
    await changePaymentStatus(fakeOrderUpdates(writes, 1), { id: 7, payment_status: "paid" }, "paid", {
      refunded_cents: 100,
    });
    expect(writes).toEqual([{ set: { refunded_cents: 100, payment_status: "paid" }, where: [["id", "=", 7]] }]);
  });

  it("changePaymentStatus with ifVersion applies to that version only, bumps it, and reports a lost race", async () => {
    const writes: unknown[] = [];
    await changePaymentStatus(
      fakeOrderUpdates(writes, 1),
      { id: 7, payment_status: "pending" },
      "processing",
      {},
      { ifVersion: 3 },
    );
    expect(writes).toEqual([
      {
        set: { payment_status: "processing", version: 4 },
        where: [
          ["id", "=", 7],
          ["version", "=", 3],
        ],
      },
    ]);
    await expect(
      changePaymentStatus(
        fakeOrderUpdates([], 0),
        { id: 7, payment_status: "pending" },
        "processing",
        {},
        { ifVersion: 3 },
      ),
    ).rejects.toBeInstanceOf(OrderConflictError);
  });
});

describe("transaction retries", () => {
  it("recognise deadlocks, serialization failures and a busy SQLite, nothing else", () => {
    expect(isRetryableTransactionError({ code: "40P01" })).toBe(true);
    expect(isRetryableTransactionError({ code: "40001" })).toBe(true);
    expect(isRetryableTransactionError({ code: "ERR_SQLITE_ERROR", errcode: 5, message: "database is locked" })).toBe(
      true,
    );
    expect(isRetryableTransactionError(new Error("SQLITE_BUSY: database is locked"))).toBe(true);
    expect(isRetryableTransactionError({ code: "23505" })).toBe(false);
    expect(isRetryableTransactionError(new OutOfStockError("OUT_OF_STOCK", "x"))).toBe(false);
    expect(isRetryableTransactionError(null)).toBe(false);
  });

  it("run the work again after a deadlock, a bounded number of times, then answer 503", async () => {
    let calls = 0;
    expect(
      await withTransactionRetry(async () => (++calls < 3 ? Promise.reject({ code: "40P01" }) : "done"), {
        baseDelayMs: 1,
      }),
    ).toBe("done");
    expect(calls).toBe(3);

    calls = 0;
    const error = await withTransactionRetry(
      async () => {
        calls++;
        throw { code: "40001" };
      },
      { attempts: 4, baseDelayMs: 1 },
    ).catch((e: unknown) => e);
    expect(calls).toBe(4);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(503);

    calls = 0;
    await expect(
      withTransactionRetry(async () => {
        calls++;
        throw new OutOfStockError("OUT_OF_STOCK", "gone");
      }),
    ).rejects.toMatchObject({ code: "OUT_OF_STOCK" });
    expect(calls).toBe(1);
  });
});

describe("checkout rate-limit wording", () => {
  it("says when to try again in words", () => {
    expect(waitText(1)).toBe("1 second");
    expect(waitText(45)).toBe("45 seconds");
    expect(waitText(60)).toBe("1 minute");
    expect(waitText(61)).toBe("2 minutes");
    expect(waitText(3600)).toBe("60 minutes");
  });

  it("keys an address by a hash that ignores case and spaces", () => {
    expect(emailKey(" Ada@Example.com ")).toBe(emailKey("ada@example.com"));
    expect(emailKey("ada@example.com")).not.toContain("ada");
    expect(emailKey("ada@example.com")).not.toBe(emailKey("bob@example.com"));
  });
});
