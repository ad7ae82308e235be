import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../server/config.ts";
import {
  CHECKOUT_LIMIT_MESSAGES,
  submitCheckout,
  type CheckoutDeps,
  type CheckoutResult,
} from "../../server/orders/checkout.ts";
import { createRateLimiter } from "../../server/security/rate-limit.ts";
import { addToCart } from "../../server/cart/cart.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";
import { countRows, dialects, freshSeededDb, type TestDb } from "./databases.ts";

/**
 * Issue 17, item 2: anonymous checkouts used to have no rate limit, so a script could drain the
 * stock and mail any address. Checkouts are now limited per client IP (CHECKOUT_IP_LIMIT an
 * hour) and per email address (CHECKOUT_EMAIL_LIMIT an hour); a refused checkout writes nothing.
 * Here the limits are 3 per IP and 2 per email, read through the app's own configuration.
 */
const ENV = {
  CHECKOUT_IP_LIMIT: "3",
  CHECKOUT_EMAIL_LIMIT: "2",
  GUEST_ORDER_HOLD_MINUTES: "45",
  SITE_URL: "https://shop.example",
};
const cfg = loadConfig(ENV);
const HOUR = 3600;

/** Built from the configuration as defaultCheckoutDeps does, with fresh in-memory windows for each test. */
function depsFrom(config: typeof cfg): CheckoutDeps {
  const name = `checkout-${randomBytes(4).toString("hex")}`;
  return {
    siteUrl: config.siteUrl,
    holdMinutes: config.GUEST_ORDER_HOLD_MINUTES,
    ipLimiter: createRateLimiter({ name: `${name}-ip`, windowSeconds: HOUR, max: config.CHECKOUT_IP_LIMIT }),
    emailLimiter: createRateLimiter({ name: `${name}-email`, windowSeconds: HOUR, max: config.CHECKOUT_EMAIL_LIMIT }),
    payments: null,
  };
}

const newEmail = () => `buyer.${randomBytes(5).toString("hex")}@example.com`;
const newToken = () => randomBytes(18).toString("base64url");

function formOf(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

describe("checkout limits configuration", () => {
  it("reads CHECKOUT_IP_LIMIT and CHECKOUT_EMAIL_LIMIT, with defaults of 20 and 5 an hour", () => {
    expect(cfg).toMatchObject({ CHECKOUT_IP_LIMIT: 3, CHECKOUT_EMAIL_LIMIT: 2, GUEST_ORDER_HOLD_MINUTES: 45 });
    expect(loadConfig({})).toMatchObject({
      CHECKOUT_IP_LIMIT: 20,
      CHECKOUT_EMAIL_LIMIT: 5,
      GUEST_ORDER_HOLD_MINUTES: 60,
    });
    expect(() => loadConfig({ CHECKOUT_IP_LIMIT: "0" })).toThrow(/CHECKOUT_IP_LIMIT/);
  });
});

describe.each(dialects)("checkout rate limits on %s", (kind) => {
  let t: TestDb;
  const PRODUCT = 1;
  const STOCK = 500;
  const UNITS = 2;

  beforeEach(async () => {
    t = await freshSeededDb(kind, 3);
    await t.db.updateTable("products").set({ stock_quantity: STOCK }).where("id", "=", PRODUCT).execute();
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await t?.drop();
  });

  const stock = async () =>
    (await t.db.selectFrom("products").select("stock_quantity").where("id", "=", PRODUCT).executeTakeFirstOrThrow())
      .stock_quantity;
  const count = (table: "orders" | "stock_movements" | "mail_queue") => countRows(t.db, table);
  const mailsTo = async (address: string) =>
    (await t.db.selectFrom("mail_queue").select("id").where("to_address", "=", address).execute()).length;
  const ordersWithToken = async (token: string) =>
    (await t.db.selectFrom("orders").select("id").where("checkout_token", "=", token).execute()).length;
  const cartLines = async (owner: string) =>
    (await t.db.selectFrom("cart_items").select("quantity").where("owner", "=", owner).execute()).map(
      (r) => r.quantity,
    );

  interface Attempt {
    owner: string;
    email: string;
    token: string;
    result: CheckoutResult;
  }

  /** One shopper with a filled cart submitting the checkout form from `ip`. */
  async function checkout(
    deps: CheckoutDeps,
    options: { ip: string; email?: string; member?: { userId: string; email: string }; owner?: string; token?: string },
  ): Promise<Attempt> {
    const owner =
      options.owner ?? (options.member ? `u:${options.member.userId}` : `g:${randomBytes(18).toString("base64url")}`);
    if (!options.owner) await addToCart(t.db, owner, { productId: PRODUCT, quantity: UNITS });
    const email = options.email ?? newEmail();
    const token = options.token ?? newToken();
    const result = await submitCheckout(
      t.db,
      formOf({ ...validCheckoutForm, email, checkoutToken: token }),
      { ip: options.ip },
      { owner, userId: options.member?.userId ?? null, email: options.member?.email ?? null },
      deps,
    );
    return { owner, email, token, result };
  }

  function expectAccepted(attempt: Attempt) {
    if (!attempt.result.ok) throw new Error(`checkout refused: ${JSON.stringify(attempt.result)}`);
    expect(attempt.result.order.created).toBe(true);
  }

  /** A 429 that says when to retry (within the hour's window) and gives the typed values back. */
  function expectLimited(attempt: Attempt, which: "ip" | "email"): number {
    const r = attempt.result;
    if (r.ok) throw new Error(`expected a 429, the order ${r.order.number} was placed`);
    expect(r.status).toBe(429);
    expect(r.retryAfterSeconds).toBeGreaterThan(HOUR - 60);
    expect(r.retryAfterSeconds).toBeLessThanOrEqual(HOUR);
    expect(r.data.message).toBe(CHECKOUT_LIMIT_MESSAGES[which](r.retryAfterSeconds!));
    expect(r.data.message).toMatch(/Please try again in (60|59) minutes\./);
    expect(r.data.values).toMatchObject({
      name: validCheckoutForm.name,
      line1: validCheckoutForm.line1,
      postcode: validCheckoutForm.postcode,
    });
    return r.retryAfterSeconds!;
  }

  /** Nothing of the refused attempt reached the database, and its cart is still there. */
  async function expectNothingWritten(attempt: Attempt, accepted: number) {
    expect(await ordersWithToken(attempt.token)).toBe(0);
    expect(await count("orders")).toBe(accepted);
    expect(await count("stock_movements")).toBe(accepted);
    expect(await count("mail_queue")).toBe(accepted);
    expect(await stock()).toBe(STOCK - accepted * UNITS);
    expect(await cartLines(attempt.owner)).toEqual([UNITS]);
  }

  it("the 4th checkout from one IP in an hour is refused with 429, and writes nothing", async () => {
    const deps = depsFrom(cfg);
    const ip = "203.0.113.7";
    const firsts: Attempt[] = [];
    for (let i = 0; i < 3; i++) firsts.push(await checkout(deps, { ip }));
    firsts.forEach(expectAccepted);
    expect(await count("orders")).toBe(3);
    expect(await stock()).toBe(STOCK - 3 * UNITS);

    const fourth = await checkout(deps, { ip });
    expectLimited(fourth, "ip");
    if (!fourth.result.ok) expect(fourth.result.data.values.email).toBe(fourth.email);
    await expectNothingWritten(fourth, 3);
    expect(await mailsTo(fourth.email)).toBe(0);
    // A 5th, with yet another address, is refused too.
    const fifth = await checkout(deps, { ip });
    expectLimited(fifth, "ip");
    await expectNothingWritten(fifth, 3);

    // A retry of a checkout that already made its order (a double click) is answered, not counted.
    const retry = await checkout(deps, { ip, owner: firsts[0].owner, email: firsts[0].email, token: firsts[0].token });
    expect(retry.result.ok && retry.result.order).toMatchObject({
      created: false,
      number: firsts[0].result.ok ? firsts[0].result.order.number : "",
    });
    expect(await count("orders")).toBe(3);

    // Another network is not affected.
    expectAccepted(await checkout(deps, { ip: "203.0.113.8" }));
    expect(await count("orders")).toBe(4);
  });

  it("the 3rd checkout for one email in an hour is refused with 429, from any IP and in any letter case, and writes nothing", async () => {
    const deps = depsFrom(cfg);
    const email = newEmail();
    expectAccepted(await checkout(deps, { ip: "198.51.100.11", email }));
    expectAccepted(await checkout(deps, { ip: "198.51.100.12", email }));
    expect(await mailsTo(email)).toBe(2);

    const third = await checkout(deps, { ip: "198.51.100.13", email: `  ${email.toUpperCase()} ` });
    expectLimited(third, "email");
    await expectNothingWritten(third, 2);
    expect(await mailsTo(email)).toBe(2);
    expect(await mailsTo(email.toUpperCase())).toBe(0);

    const fourth = await checkout(deps, { ip: "198.51.100.14", email });
    expectLimited(fourth, "email");
    await expectNothingWritten(fourth, 2);

    // Another address from the same network still goes through.
    expectAccepted(await checkout(deps, { ip: "198.51.100.14" }));
    expect(await count("orders")).toBe(3);
  });

  it("a signed-in member is counted by the account's email, whatever address the form carries", async () => {
    const deps = depsFrom(cfg);
    const member = { userId: `user-${randomBytes(6).toString("hex")}`, email: newEmail() };
    expectAccepted(await checkout(deps, { ip: "192.0.2.21", member, email: newEmail() }));
    expectAccepted(await checkout(deps, { ip: "192.0.2.22", member, email: newEmail() }));
    const third = await checkout(deps, { ip: "192.0.2.23", member, email: newEmail() });
    expectLimited(third, "email");
    await expectNothingWritten(third, 2);
    expect(await mailsTo(member.email)).toBe(2);
  });

  it("the /checkout route's own dependencies take their limits from the environment", async () => {
    vi.stubEnv("CHECKOUT_IP_LIMIT", ENV.CHECKOUT_IP_LIMIT);
    vi.stubEnv("CHECKOUT_EMAIL_LIMIT", ENV.CHECKOUT_EMAIL_LIMIT);
    vi.stubEnv("GUEST_ORDER_HOLD_MINUTES", ENV.GUEST_ORDER_HOLD_MINUTES);
    vi.stubEnv("SITE_URL", ENV.SITE_URL);
    vi.stubEnv("REDIS_URL", undefined);
    vi.resetModules();
    // Fresh modules, so config() and defaultCheckoutDeps() read the stubbed environment.
    const fresh = await import("../../server/orders/checkout.ts");
    const deps = fresh.defaultCheckoutDeps();
    expect(deps).toMatchObject({ siteUrl: ENV.SITE_URL, holdMinutes: 45 });
    // 3 checkouts from one IP (each with its own address) pass, the 4th does not.
    for (let i = 0; i < 3; i++) expectAccepted(await checkout(deps, { ip: "203.0.113.50" }));
    expectLimited(await checkout(deps, { ip: "203.0.113.50" }), "ip");
    // 2 checkouts for one address (each from its own IP) pass, the 3rd does not.
    const email = newEmail();
    expectAccepted(await checkout(deps, { ip: "203.0.113.51", email }));
    expectAccepted(await checkout(deps, { ip: "203.0.113.52", email }));
    expectLimited(await checkout(deps, { ip: "203.0.113.53", email }), "email");
    expect(await count("orders")).toBe(5);
  });
});
