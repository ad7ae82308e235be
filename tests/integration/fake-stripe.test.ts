/**
 * The local Stripe stand-in (tests/support/fake-stripe.mjs) driven through the official `stripe`
 * SDK, as the payments code will drive it: Checkout Session create (idempotent) / retrieve /
 * expire, payment and async outcomes, refunds by PaymentIntent, and webhooks signed so that the
 * SDK's constructEvent accepts them and refuses a tampered one.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeStripe } from "../support/fake-stripe.mjs";

const SECRET = "whsec_test_fake";

describe("the local Stripe stand-in, through the official SDK", () => {
  const received: Stripe.Event[] = [];
  const refused: string[] = [];
  let hook: http.Server;
  let fake: ReturnType<typeof createFakeStripe>;
  let stripe: Stripe;
  let port: number;

  beforeAll(async () => {
    hook = http.createServer(async (req, res) => {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      try {
        received.push(Stripe.webhooks.constructEvent(raw, String(req.headers["stripe-signature"]), SECRET));
        res.writeHead(200).end();
      } catch (error) {
        refused.push((error as Error).constructor.name);
        res.writeHead(400).end();
      }
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    fake = createFakeStripe({ webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`, webhookSecret: SECRET });
    port = await fake.listen();
    stripe = new Stripe("sk_test_fake", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0, telemetry: false });
  });
  afterAll(async () => {
    await fake.close();
    await new Promise((r) => hook.close(r));
  });

  const session = (ref: string) => ({
    mode: "payment" as const,
    line_items: [{ quantity: 2, price_data: { currency: "usd", unit_amount: 1250, product_data: { name: "Claw hammer" } } }],
    success_url: "http://127.0.0.1/checkout/paid?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "http://127.0.0.1/checkout/cancelled",
    client_reference_id: ref,
    metadata: { orderId: ref },
    expires_at: Math.floor(Date.now() / 1000) + 31 * 60,
  });
  const control = (path: string, body = "") => fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });

  it("creates a session once per idempotency key, refuses the key with other parameters, and pays it", async () => {
    const created = await stripe.checkout.sessions.create(session("order-1"), { idempotencyKey: "checkout:order-1" });
    expect(created).toMatchObject({ status: "open", payment_status: "unpaid", amount_total: 2500, currency: "usd", client_reference_id: "order-1", payment_intent: null });
    expect((await stripe.checkout.sessions.create(session("order-1"), { idempotencyKey: "checkout:order-1" })).id).toBe(created.id);
    await expect(stripe.checkout.sessions.create(session("order-other"), { idempotencyKey: "checkout:order-1" })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);

    expect((await control(`/_test/checkout/sessions/${created.id}/complete`, "outcome=paid")).status).toBe(200);
    const paid = await stripe.checkout.sessions.retrieve(created.id, { expand: ["payment_intent"] });
    expect(paid).toMatchObject({ status: "complete", payment_status: "paid" });
    expect((paid.payment_intent as Stripe.PaymentIntent).status).toBe("succeeded");
    const event = received.find((e) => e.type === "checkout.session.completed");
    expect(event?.type === "checkout.session.completed" && event.data.object.client_reference_id).toBe("order-1");

    const refund = await stripe.refunds.create({ payment_intent: (paid.payment_intent as Stripe.PaymentIntent).id, amount: 1000 }, { idempotencyKey: "refund:order-1:1" });
    expect(refund).toMatchObject({ status: "succeeded", amount: 1000 });
    await expect(stripe.refunds.create({ payment_intent: (paid.payment_intent as Stripe.PaymentIntent).id, amount: 9_999 })).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(received.some((e) => e.type === "charge.refunded")).toBe(true);
  });

  it("expires an open session once, and reports async payments", async () => {
    const open = await stripe.checkout.sessions.create(session("order-2"));
    expect((await stripe.checkout.sessions.expire(open.id)).status).toBe("expired");
    await expect(stripe.checkout.sessions.expire(open.id)).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(received.some((e) => e.type === "checkout.session.expired")).toBe(true);

    const slow = await stripe.checkout.sessions.create(session("order-3"));
    await control(`/_test/checkout/sessions/${slow.id}/complete`, "outcome=processing");
    expect((await stripe.checkout.sessions.retrieve(slow.id)).payment_status).toBe("unpaid");
    await control(`/_test/checkout/sessions/${slow.id}/async_payment_failed`);
    expect(received.some((e) => e.type === "checkout.session.async_payment_failed")).toBe(true);
  });

  it("signs webhooks the SDK accepts, and the SDK refuses a tampered payload", () => {
    const payload = JSON.stringify({ id: "evt_1", type: "checkout.session.expired", data: { object: {} } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    expect(Stripe.webhooks.constructEvent(payload, header, SECRET).id).toBe("evt_1");
    expect(() => Stripe.webhooks.constructEvent(payload.replace("evt_1", "evt_2"), header, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(refused).toEqual([]);
  });
});
