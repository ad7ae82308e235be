import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addToCart } from "../../server/cart/cart.ts";
import { loadConfig } from "../../server/config.ts";
import { submitCheckout, type CheckoutDeps } from "../../server/orders/checkout.ts";
import { guestUnitsHeld } from "../../server/orders/guest-holds.ts";
import { expireHoldsJob } from "../../server/orders/holds.ts";
import { HOLD_STATUSES } from "../../server/orders/states.ts";
import { payFromOrderPage } from "../../server/payments/order-page.ts";
import { CLIENT_IP_HEADER, clientIp, createRateLimiter } from "../../server/security/rate-limit.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { dialects } from "./databases.ts";
import { MINUTE, orderRow, setStock, SITE, startHarness, stockOf, type Harness } from "./payments-support.ts";

/**
 * Issue 48, item 7, the proof: a script of 100 anonymous checkouts from one IPv6 /64 (a new host
 * part each time), card and pay-on-delivery mixed, over a few email addresses, cancelling some
 * card payment pages and pressing "Try again" on them, against the store's default limits and
 * caps. While the orders are live, the units they hold never exceed the caps; once their holds
 * have lapsed (the expiry job run with a later clock), the sellable stock is exactly what it was.
 */

const cfg = loadConfig({});
const PRODUCTS = [1, 2, 3, 4];
const STOCK = 2_000;
const NET = "2001:db8:bad:48";
const EMAILS = Array.from({ length: 6 }, (_, i) => `drain.${i}.${randomBytes(3).toString("hex")}@example.com`);

/** What the route does with a request's address: its limiter key (clientIp), here from a new host of the /64 every time. */
const rotatingClient = () =>
  clientIp(
    new Request(`${SITE}/checkout`, {
      headers: { [CLIENT_IP_HEADER]: `${NET}:${[0, 0, 0, 0].map(() => randomBytes(2).toString("hex")).join(":")}` },
    }),
  );

describe.each(dialects)("100 anonymous checkouts on %s", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(kind, { products: PRODUCTS.length });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("hold no more than the caps while live, and leave the sellable stock untouched once their holds lapse", async () => {
    expect(cfg).toMatchObject({
      CHECKOUT_IP_LIMIT: 20,
      CHECKOUT_EMAIL_LIMIT: 5,
      GUEST_HOLD_IP_UNITS: 400,
      GUEST_HOLD_EMAIL_UNITS: 200,
    });
    // The /checkout route's dependencies as defaultCheckoutDeps builds them from the defaults (fresh windows).
    const deps: CheckoutDeps = {
      siteUrl: SITE,
      holdMinutes: cfg.GUEST_ORDER_HOLD_MINUTES,
      ipLimiter: createRateLimiter({ name: `drain-ip-${kind}`, windowSeconds: 3600, max: cfg.CHECKOUT_IP_LIMIT }),
      emailLimiter: createRateLimiter({
        name: `drain-email-${kind}`,
        windowSeconds: 3600,
        max: cfg.CHECKOUT_EMAIL_LIMIT,
      }),
      payments: h.payments,
      guestHolds: { perClient: cfg.GUEST_HOLD_IP_UNITS, perEmail: cfg.GUEST_HOLD_EMAIL_UNITS },
    };
    for (const id of PRODUCTS) await setStock(h.db, id, STOCK);
    const sellable = async () => Promise.all(PRODUCTS.map((id) => stockOf(h.db, id)));
    const before = await sellable();

    const outcomes = new Map<string, number>();
    const tally = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    let maxByNetwork = 0;
    let maxByEmail = 0;
    const cardOrders: { accessToken: string; number: string }[] = [];
    let retries = 0;
    const live = async () => {
      maxByNetwork = Math.max(maxByNetwork, await guestUnitsHeld(h.db, { client: rotatingClient() }));
      for (const email of EMAILS) maxByEmail = Math.max(maxByEmail, await guestUnitsHeld(h.db, { email }));
      // The caps hold after every step, not only at the end.
      expect(maxByNetwork).toBeLessThanOrEqual(cfg.GUEST_HOLD_IP_UNITS);
      expect(maxByEmail).toBeLessThanOrEqual(cfg.GUEST_HOLD_EMAIL_UNITS);
    };

    for (let i = 0; i < 100; i++) {
      const owner = `g:${randomBytes(18).toString("base64url")}`;
      // Two lines of up to 100 units each (the per-line cap), so an order holds 20–200 units.
      await addToCart(h.db, owner, { productId: PRODUCTS[i % 4], quantity: 10 + ((i * 37) % 91) });
      await addToCart(h.db, owner, { productId: PRODUCTS[(i + 1) % 4], quantity: 10 + ((i * 53) % 91) });
      const method = i % 2 ? "card" : "pay-on-delivery";
      const form = new FormData();
      for (const [k, v] of Object.entries({
        ...validCheckoutForm,
        email: EMAILS[i % EMAILS.length],
        paymentMethod: method,
        checkoutToken: randomBytes(18).toString("base64url"),
      }))
        form.set(k, v);
      const result = await submitCheckout(
        h.db,
        form,
        { ip: rotatingClient(), origin: SITE },
        { owner, userId: null, email: null },
        deps,
      );
      if (result.ok) {
        tally(`${method} held`);
        if (method === "card") cardOrders.push({ accessToken: result.order.accessToken, number: result.order.number });
      } else if (result.status === 429) {
        tally("checkout refused by a rate limit");
      } else if (
        result.status === 409 &&
        /already hold \d+ units|can hold at most \d+ units/.test(result.data.message)
      ) {
        tally("checkout refused by a cap");
      } else {
        tally(`checkout failed: ${result.status} ${result.data.message}`);
      }
      await live();

      // Every tenth step the script cancels the oldest open card page and presses "Try again" on it.
      if (i % 10 === 9 && cardOrders.length) {
        const order = cardOrders.shift()!;
        retries++;
        const row = await orderRow(h.db, order.number);
        if (row.status === "awaiting_payment" && row.payment_session_id) {
          await h.fake.expireNow(row.payment_session_id);
          await h.fake.idle();
        }
        const tried = await payFromOrderPage(
          h.db,
          h.payments,
          { accessToken: order.accessToken },
          SITE,
          rotatingClient(),
          deps,
        ).then(
          () => "retry held",
          (error: { status?: number; code?: string }) =>
            error.code === "TOO_MANY_ORDERS"
              ? "retry refused by a rate limit"
              : error.code === "GUEST_HOLD_LIMIT"
                ? "retry refused by a cap"
                : `retry failed: ${error.status} ${error.code}`,
        );
        tally(tried);
        await live();
      }
    }

    // Everything the script got was refused by a limit or held within the caps; nothing failed.
    const counts = Object.fromEntries(outcomes);
    console.log(
      `${kind}: ${JSON.stringify(counts)}; most held at once: ${maxByNetwork} units by the /64, ${maxByEmail} by one address`,
    );
    const allowed = [
      "card held",
      "pay-on-delivery held",
      "retry held",
      "checkout refused by a rate limit",
      "checkout refused by a cap",
      "retry refused by a rate limit",
      "retry refused by a cap",
    ];
    expect(Object.keys(counts).filter((k) => !allowed.includes(k))).toEqual([]);
    expect(Object.values(counts).reduce((n, c) => n + c, 0)).toBe(100 + retries);
    expect(counts["checkout refused by a cap"]).toBeGreaterThan(0);
    expect(counts["checkout refused by a rate limit"]).toBeGreaterThan(0);
    expect(counts["retry refused by a rate limit"]).toBeGreaterThan(0);
    expect(maxByNetwork).toBeGreaterThan(cfg.GUEST_HOLD_IP_UNITS - 200);
    const held = before.reduce((n, s) => n + s, 0) - (await sellable()).reduce((n, s) => n + s, 0);
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(cfg.GUEST_HOLD_IP_UNITS);

    // The holds lapse: the periodic job, run with a clock past every hold and every payment page.
    const later = new Date(Date.now() + 3 * 60 * MINUTE);
    await expireHoldsJob().run(h.db, later);
    expect(await sellable()).toEqual(before);
    const left = await h.db
      .selectFrom("orders")
      .select(["status", "hold_client"])
      .where("status", "in", [...HOLD_STATUSES, "placed"])
      .execute();
    expect(left).toEqual([]);
    expect(await h.db.selectFrom("orders").select("id").where("hold_client", "is not", null).execute()).toEqual([]);
    // Every unit taken went back through the ledger.
    for (const id of PRODUCTS) {
      const net = await h.db
        .selectFrom("stock_movements")
        .select((eb) => eb.fn.sum<number>("delta").as("n"))
        .where("product_id", "=", id)
        .executeTakeFirst();
      expect(Number(net?.n ?? 0)).toBe(0);
    }
  });
});
