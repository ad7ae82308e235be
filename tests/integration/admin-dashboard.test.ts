import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardCounts, lastDays, loadDashboard } from "../../server/admin/dashboard.ts";
import { enqueueMail } from "../../server/mail/queue.ts";
import { dialects, freshDb, type TestDb } from "./databases.ts";
import { insertMessage, insertOrder, insertProduct } from "./admin-people-fixtures.ts";

const NOW = new Date("2025-03-15T10:00:00.000Z");

describe("lastDays", () => {
  it("gives 30 UTC days ending today, across a month boundary", () => {
    const days = lastDays(NOW, 30);
    expect(days).toHaveLength(30);
    expect(days[0]).toBe("2025-02-14");
    expect(days.at(-1)).toBe("2025-03-15");
    expect(days).toContain("2025-02-28");
    expect(days).toContain("2025-03-01");
  });
});

describe.each(dialects)("dashboard on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind);
    const db = t.db;
    // Sales, placed at the edges of UTC days.
    await insertOrder(db, { status: "placed", total: 1000, createdAt: "2025-03-15T00:00:00.000Z" });
    await insertOrder(db, { status: "shipped", total: 2500, createdAt: "2025-03-15T09:59:59.999Z" });
    await insertOrder(db, { status: "delivered", total: 700, createdAt: "2025-03-14T23:59:59.999Z" });
    await insertOrder(db, { status: "packed", total: 300, createdAt: "2025-03-09T00:00:00.000Z" }); // first of the 7 days
    await insertOrder(db, { status: "processing", total: 400, createdAt: "2025-03-08T23:59:59.999Z" }); // 8 days ago
    await insertOrder(db, { status: "returned", total: 900, createdAt: "2025-02-14T00:00:00.000Z" }); // first of the 30 days
    await insertOrder(db, { status: "placed", total: 5000, createdAt: "2025-02-13T23:59:59.999Z" }); // before the 30 days
    // A UK order in pounds: summed apart from the dollars.
    await insertOrder(db, { status: "delivered", total: 1999, createdAt: "2025-03-15T07:00:00.000Z", currency: "gbp" });
    // Not sales: cancelled, unconfirmed, unpaid, expired.
    for (const status of ["cancelled", "awaiting_confirmation", "awaiting_payment", "expired"] as const) {
      await insertOrder(db, { status, total: 99_999, createdAt: "2025-03-15T08:00:00.000Z" });
    }
    // Low stock: at the threshold, below it, above it, archived, and a custom threshold.
    await insertProduct(db, { sku: "LOW-AT", stock: 5, threshold: 5 });
    await insertProduct(db, { sku: "LOW-ZERO", stock: 0, threshold: 5 });
    await insertProduct(db, { sku: "OK-ABOVE", stock: 6, threshold: 5 });
    await insertProduct(db, { sku: "LOW-ARCHIVED", stock: 0, threshold: 5, archived: true });
    await insertProduct(db, { sku: "LOW-CUSTOM", stock: 40, threshold: 50 });
    await insertProduct(db, { sku: "OK-NO-THRESHOLD", stock: 1, threshold: 0 });
    // Messages: two unhandled, one handled.
    await insertMessage(db, { subject: "One" });
    await insertMessage(db, { subject: "Two" });
    await insertMessage(db, { subject: "Done", handled: true });
    // Mail: failed, unknown, queued overdue (20 min), queued due recently (5 min), sent.
    const mail = async (status: "failed" | "unknown" | "queued" | "sent", minutesAgo = 0) => {
      const { id } = await enqueueMail(db, {
        to: "x@example.com",
        subject: `m-${status}`,
        text: "t",
        html: "<p>t</p>",
      });
      await db
        .updateTable("mail_queue")
        .set({ status, next_attempt_at: new Date(NOW.getTime() - minutesAgo * 60_000).toISOString() })
        .where("id", "=", id)
        .execute();
    };
    await mail("failed");
    await mail("unknown");
    await mail("queued", 20);
    await mail("queued", 5);
    await mail("sent", 600);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("counts placed orders and revenue for today, 7 and 30 UTC days", async () => {
    const d = await loadDashboard(t.db, NOW);
    expect(d.today).toEqual({ orders: 3, revenue: { usd: 3500, gbp: 1999 } });
    expect(d.last7Days).toEqual({ orders: 5, revenue: { usd: 4500, gbp: 1999 } });
    expect(d.last30Days).toEqual({ orders: 7, revenue: { usd: 5800, gbp: 1999 } });
  });

  it("gives 30 daily figures for the chart, zero on days without sales", async () => {
    const { daily } = await loadDashboard(t.db, NOW);
    expect(daily).toHaveLength(30);
    const inDollars = (day: string, orders: number, usd: number) => ({
      day,
      orders,
      ordersIn: { usd: orders, gbp: 0 },
      revenue: { usd, gbp: 0 },
    });
    expect(daily[0]).toEqual(inDollars("2025-02-14", 1, 900));
    expect(daily.at(-1)).toEqual({
      day: "2025-03-15",
      orders: 3,
      ordersIn: { usd: 2, gbp: 1 },
      revenue: { usd: 3500, gbp: 1999 },
    });
    expect(daily.find((x) => x.day === "2025-03-14")).toEqual(inDollars("2025-03-14", 1, 700));
    expect(daily.find((x) => x.day === "2025-03-08")).toEqual(inDollars("2025-03-08", 1, 400));
    expect(daily.find((x) => x.day === "2025-03-01")).toEqual(inDollars("2025-03-01", 0, 0));
    expect(daily.reduce((s, x) => s + x.revenue.usd, 0)).toBe(5800);
  });

  it("counts orders waiting to ship, low stock, unanswered messages and stuck mail", async () => {
    const d = await loadDashboard(t.db, NOW);
    // placed ×2 (incl. the one before the 30 days), packed, processing.
    expect(d.waitingToShip).toBe(4);
    expect(d.lowStock.count).toBe(3);
    expect(d.lowStock.first.map((p) => p.sku)).toEqual(["LOW-ZERO", "LOW-AT", "LOW-CUSTOM"]);
    expect(d.lowStock.first[0]).toMatchObject({ stock: 0, threshold: 5 });
    expect(d.unansweredMessages).toBe(2);
    expect(d.stuckMails).toBe(3);
  });

  it("keeps the first three figures for older callers", async () => {
    expect(await dashboardCounts(t.db, NOW)).toEqual({ ordersToday: 3, waitingToShip: 4, unansweredMessages: 2 });
  });
});
