/**
 * A power cut during checkout: members place orders all at once, the server is killed with
 * SIGKILL (its whole process group) while they are being placed, and started again on the same
 * database. Every order that exists must be whole — its lines, one stock ledger row per line
 * taking exactly its quantity, the product's stock down by exactly what was sold, exactly one
 * order mail queued — and every checkout that has no order must have left nothing behind: its
 * cart as it was, no stock taken. Then every checkout is sent again with its token: each ends
 * with exactly one whole order, whether or not its first attempt had committed.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/connection.ts";
import { createRandom } from "./fuzz/prng.ts";
import { checkOrdersWhole, stockOf, userByEmail } from "./support/checks.ts";
import type { RawResponse } from "./support/http.ts";
import { Shopper } from "./support/shopper.ts";
import { startStore, storeDialects, type RunningStore } from "./support/store-server.ts";

const SHOPPERS = Number(process.env.CRASH_SHOPPERS ?? 12);
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
const SEED = Number(process.env.CRASH_SEED ?? 8);

const stores: RunningStore[] = [];
afterAll(async () => {
  await Promise.allSettled(stores.map((s) => s.stop()));
});

interface CartLine {
  product_id: number;
  color: string;
  quantity: number;
}

async function cartOf(db: Db, owner: string): Promise<CartLine[]> {
  const rows = await db
    .selectFrom("cart_items")
    .select(["product_id", "color", "quantity"])
    .where("owner", "=", owner)
    .orderBy("product_id")
    .orderBy("color")
    .execute();
  return rows.map((r) => ({ product_id: Number(r.product_id), color: r.color, quantity: Number(r.quantity) }));
}

async function ordersFor(db: Db, tokens: string[]) {
  return db
    .selectFrom("orders")
    .select(["id", "number", "status", "checkout_token"])
    .where("checkout_token", "in", tokens)
    .execute();
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}

describe.each(storeDialects)("kill -9 during order placement on %s", (kind) => {
  it("leaves every order whole, and nothing of the orders it cut off", async () => {
    const store = await startStore({ name: "crash", kind });
    stores.push(store);
    const db = store.database.open();
    const rng = createRandom(SEED);
    try {
      // A few well-stocked products that every cart shares, so checkouts contend for their rows.
      const pool = (
        await db.selectFrom("products").select("id").where("stock_quantity", ">=", 200).orderBy("id").limit(5).execute()
      ).map((p) => Number(p.id));
      expect(pool.length).toBeGreaterThanOrEqual(3);
      const shoppers = await Promise.all(
        Array.from({ length: SHOPPERS }, () => new Shopper(store.baseUrl).signUp().then((s) => s.signIn())),
      );
      const owners = await Promise.all(shoppers.map(async (s) => `u:${(await userByEmail(db, s.email!))[0].id}`));
      let cutOff = 0;

      for (let round = 1; round <= ROUNDS; round++) {
        for (const s of shoppers) {
          for (let n = rng.int(1, 3); n > 0; n--) await s.addToCart(rng.pick(pool), rng.int(1, 3));
        }
        const carts = await Promise.all(owners.map((o) => cartOf(db, o)));
        const forms = await Promise.all(shoppers.map((s) => s.checkoutForm()));
        const tokens = forms.map((f) => f.checkoutToken);
        const initial = await stockOf(db, pool);

        // All at once. The kill comes when the first order has committed (round 1), when half of
        // them have (round 2), or a few milliseconds in, committed or not (round 3 and later).
        const started = Date.now();
        const inFlight = shoppers.map((s, i) =>
          s.postForm("/checkout", forms[i]).then(
            (r): RawResponse | Error => r,
            (e: Error) => e,
          ),
        );
        if (round <= 2) {
          const threshold = round === 1 ? 1 : Math.ceil(SHOPPERS / 2);
          await waitFor(async () => (await ordersFor(db, tokens)).length >= threshold, 20_000);
        } else {
          await new Promise((r) => setTimeout(r, rng.int(5, 60)));
        }
        await store.crash();
        const killedAfter = Date.now() - started;
        const answers = await Promise.all(inFlight);
        for (const a of answers)
          if (!(a instanceof Error))
            expect(a.status, `a checkout answered ${a.status}: ${a.text().slice(0, 200)}`).toBeLessThan(500);
        const unanswered = answers.filter((a) => a instanceof Error).length;
        cutOff += unanswered;
        await store.restart();

        const placed = await ordersFor(db, tokens);
        console.log(
          `crash (${kind}) round ${round}: killed after ${killedAfter} ms; ${placed.length} of ${SHOPPERS} orders had committed, ${unanswered} checkouts got no answer`,
        );
        const whole = await checkOrdersWhole(db, initial, tokens);
        expect(whole.problems, `after the crash, round ${round}`).toEqual([]);
        for (let i = 0; i < SHOPPERS; i++) {
          const order = placed.find((o) => o.checkout_token === tokens[i]);
          const cart = await cartOf(db, owners[i]);
          if (order) {
            expect(order.status).toBe("placed");
            expect(cart, "the cart of a placed order is empty").toEqual([]);
            const lines = await db
              .selectFrom("order_lines")
              .select(["product_id", "color", "quantity"])
              .where("order_id", "=", order.id)
              .orderBy("product_id")
              .orderBy("color")
              .execute();
            expect(
              lines.map((l) => ({ product_id: Number(l.product_id), color: l.color, quantity: Number(l.quantity) })),
            ).toEqual(carts[i]);
          } else {
            expect(cart, "a checkout without an order left its cart as it was").toEqual(carts[i]);
          }
        }

        // Every shopper sends the checkout again, as a browser retry would: one order per token.
        const retries = await Promise.all(shoppers.map((s, i) => s.postForm("/checkout", forms[i])));
        for (const r of retries)
          expect(r.status, `a retried checkout answered ${r.status}: ${r.text().slice(0, 200)}`).toBe(302);
        const after = await ordersFor(db, tokens);
        expect(after).toHaveLength(SHOPPERS);
        expect(new Set(after.map((o) => o.checkout_token)).size).toBe(SHOPPERS);
        expect((await checkOrdersWhole(db, initial, tokens)).problems, `after the retries, round ${round}`).toEqual([]);
        for (const o of owners) expect(await cartOf(db, o)).toEqual([]);
      }
      // The kills must have cut some checkouts off, or this test proved nothing.
      expect(cutOff, "checkouts still in flight when the server was killed").toBeGreaterThan(0);
      const health = await fetch(`${store.baseUrl}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await db.destroy();
      await store.stop();
    }
  });
});
