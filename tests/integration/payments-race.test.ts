import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { addToCart } from "../../server/cart/cart.ts";
import type { Db } from "../../server/db/connection.ts";
import { expireOverdueHolds } from "../../server/orders/holds.ts";
import { LinesOutOfStockError } from "../../server/orders/place-order.ts";
import { reconcilePayments } from "../../server/payments/reconcile.ts";
import { dialects } from "./databases.ts";
import {
  countRows,
  ledgerOf,
  MINUTE,
  newOwner,
  payPage,
  placeCardOrder,
  setStock,
  SITE,
  startHarness,
  stockOf,
  type CardOrder,
  type Harness,
} from "./payments-support.ts";

const statusesOf = (db: Db, orderId: number) =>
  db.selectFrom("orders").select(["status", "payment_status"]).where("id", "=", orderId).executeTakeFirstOrThrow();

/**
 * The reliability bar for card payments (issue 13): 1,000 shoppers, each with a cart of their own
 * holding one unit of a product that has 10, check out by card at the same moment. Exactly 10
 * orders hold the 10 units; the other 990 are refused as out of stock. 5 pay, 5 walk away; once
 * their hold is over the reconciliation closes the abandoned pages at Stripe and gives their
 * units back. The stock is never oversold and never below zero.
 */
const SHOPPERS = 1_000;
const UNITS = 10;
/** Checkouts in flight at once (the PostgreSQL pool has 25 connections). */
const CONCURRENCY = 50;

async function inPool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]);
      }
    }),
  );
  return results;
}

describe.each(dialects)("1,000 shoppers paying by card for 10 units on %s", (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it(
    "10 orders hold the 10 units, 990 are refused; 5 pay, 5 abandon; nothing oversold, every abandoned unit released",
    { timeout: 120_000 },
    async () => {
      h = await startHarness(kind);
      const product = 1;
      await setStock(h.db, product, UNITS);
      const owners = Array.from({ length: SHOPPERS }, newOwner);
      const started = performance.now();
      await inPool(owners, 25, (owner) => addToCart(h.db, owner, { productId: product, quantity: 1 }));
      const cartsFilled = performance.now();

      const outcomes = await inPool(owners, CONCURRENCY, (owner) =>
        placeCardOrder(h.db, owner).then(
          (order): { order: CardOrder } | { error: unknown } => ({ order }),
          (error: unknown) => ({ error }),
        ),
      );
      const checkedOut = performance.now();
      const winners = outcomes.flatMap((o) => ("order" in o ? [o.order] : []));
      const errors = outcomes.flatMap((o) => ("error" in o ? [o.error] : []));
      expect(winners).toHaveLength(UNITS);
      expect(errors).toHaveLength(SHOPPERS - UNITS);
      expect(errors.filter((e) => !(e instanceof LinesOutOfStockError)).map(String)).toEqual([]);

      expect(await countRows(h.db, "orders")).toBe(UNITS);
      const held = await h.db.selectFrom("orders").select(["status", "payment_status"]).execute();
      expect(held.every((o) => o.status === "awaiting_payment" && o.payment_status === "pending")).toBe(true);
      expect(await stockOf(h.db, product)).toBe(0);
      expect(new Set(winners.map((w) => w.owner)).size).toBe(UNITS);

      // Each winner goes to Stripe's page; the first five pay, the other five walk away.
      for (const order of winners) await payPage(h, order);
      const sessions = await h.db
        .selectFrom("orders")
        .select(["id", "payment_session_id", "hold_expires_at"])
        .execute();
      const sessionOf = new Map(sessions.map((s) => [s.id, s.payment_session_id!]));
      const payers = winners.slice(0, 5);
      const walkers = winners.slice(5);
      for (const order of payers) await h.fake.completeSession(sessionOf.get(order.id)!);
      await h.fake.idle();

      const later = new Date(Math.max(...sessions.map((s) => Date.parse(s.hold_expires_at!))) + MINUTE);
      h.fake.pauseWebhooks(); // the expiry webhooks come after the job's own releases (else either may release first)
      expect(await reconcilePayments(h.db, h.payments, { now: later, siteUrl: SITE })).toMatchObject({
        checked: 5,
        released: 5,
        placed: 0,
        unreachable: 0,
      });
      h.fake.resumeWebhooks();
      expect(await expireOverdueHolds(h.db, { now: new Date(later.getTime() + 60 * MINUTE) })).toBe(0);
      await h.fake.idle();
      const settled = performance.now();

      for (const order of payers) {
        expect(await statusesOf(h.db, order.id)).toEqual({ status: "placed", payment_status: "paid" });
        expect(await ledgerOf(h.db, order.id)).toEqual([["order", -1]]);
      }
      for (const order of walkers) {
        expect(await statusesOf(h.db, order.id)).toEqual({ status: "expired", payment_status: "pending" });
        expect(await ledgerOf(h.db, order.id)).toEqual([
          ["order", -1],
          ["order_released", 1],
        ]);
        expect(h.fake.db.sessions.get(sessionOf.get(order.id)!).session.status).toBe("expired");
      }
      expect(await stockOf(h.db, product)).toBe(UNITS - payers.length);
      const ledger = await h.db
        .selectFrom("stock_movements")
        .select((eb) => [
          eb.fn.min<number>("stock_after").as("lowest"),
          eb.fn.sum<number>("delta").as("net"),
          eb.fn.countAll<number>().as("rows"),
        ])
        .where("product_id", "=", product)
        .executeTakeFirstOrThrow();
      expect({ lowest: Number(ledger.lowest), net: Number(ledger.net), rows: Number(ledger.rows) }).toEqual({
        lowest: 0,
        net: -payers.length,
        rows: UNITS + walkers.length,
      });
      expect(await countRows(h.db, "mail_queue")).toBe(payers.length);
      expect(h.replies.filter((r) => r.status !== 200)).toEqual([]);

      const ms = (a: number, b: number) => `${Math.round(b - a)} ms`;
      console.log(
        `[payments race, ${kind}] ${SHOPPERS} carts filled in ${ms(started, cartsFilled)}; ${SHOPPERS} card checkouts (${CONCURRENCY} at a time) in ${ms(cartsFilled, checkedOut)}; pay/abandon/reconcile in ${ms(checkedOut, settled)}; total ${ms(started, settled)}`,
      );
    },
  );
});
