import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkoutSchema } from "../../app/lib/checkout-schema.ts";
import { MARKETS } from "../../app/lib/markets.ts";
import { refundSchema } from "../../app/lib/order-admin-schema.ts";
import { customerStatusLabel } from "../../app/lib/order-labels.ts";
import { paymentView } from "../../server/payments/order-page.ts";
import { sessionFacts } from "../../server/payments/settle.ts";
import { createStripe, returnOrigin } from "../../server/payments/stripe.ts";
import { loadConfig } from "../../server/config.ts";
import { validCheckoutForm } from "../support/checkout-form.ts";

const card = { payment_method: "card", payment_flag: null, hold_expires_at: null, paid_cents: null, refunded_cents: 0 };

describe("what the order page says about a card payment", () => {
  const now = new Date("2026-11-23T12:00:00Z");

  it("awaiting payment: Pay now, with the whole minutes left of the hold (at least 1)", () => {
    const view = paymentView(
      { ...card, status: "awaiting_payment", payment_status: "pending", hold_expires_at: "2026-11-23T12:10:30Z" },
      now,
    );
    expect(view).toMatchObject({ state: "awaiting", canPay: true, canTryAgain: false, minutesLeft: 11 });
    expect(
      paymentView(
        { ...card, status: "awaiting_payment", payment_status: "pending", hold_expires_at: "2026-11-23T11:00:00Z" },
        now,
      )?.minutesLeft,
    ).toBe(1);
  });

  it("processing, failed, expired, paid, refunded, flagged", () => {
    expect(paymentView({ ...card, status: "awaiting_payment", payment_status: "processing" }, now)).toMatchObject({
      state: "processing",
      canPay: false,
    });
    expect(paymentView({ ...card, status: "expired", payment_status: "failed" }, now)).toMatchObject({
      state: "failed",
      canTryAgain: true,
    });
    expect(paymentView({ ...card, status: "expired", payment_status: "pending" }, now)).toMatchObject({
      state: "expired",
      canTryAgain: true,
    });
    expect(paymentView({ ...card, status: "placed", payment_status: "paid", paid_cents: 500 }, now)).toMatchObject({
      state: "paid",
      paidCents: 500,
    });
    expect(
      paymentView(
        { ...card, status: "shipped", payment_status: "refunded", paid_cents: 500, refunded_cents: 500 },
        now,
      ),
    ).toMatchObject({ state: "refunded" });
    // A flag is internal: the customer only learns that the payment is being checked, and can't pay again.
    expect(
      paymentView(
        { ...card, status: "awaiting_payment", payment_status: "pending", payment_flag: "Amount paid differs" },
        now,
      ),
    ).toEqual({
      state: "checking",
      canPay: false,
      canTryAgain: false,
      minutesLeft: null,
      paidCents: null,
      refundedCents: 0,
    });
  });

  it("orders paid another way have no card panel", () => {
    expect(
      paymentView(
        { ...card, payment_method: "pay-on-delivery", status: "placed", payment_status: "due_on_delivery" },
        now,
      ),
    ).toBeNull();
  });

  it("a card order that was never paid is called 'not paid', not 'not confirmed'", () => {
    expect(customerStatusLabel({ status: "expired", payment_method: "card", payment_status: "pending" })).toBe(
      "Expired (not paid)",
    );
    expect(customerStatusLabel({ status: "expired", payment_method: "card", payment_status: "failed" })).toBe(
      "Payment failed",
    );
    expect(
      customerStatusLabel({ status: "awaiting_payment", payment_method: "card", payment_status: "processing" }),
    ).toBe("Payment processing");
    expect(customerStatusLabel({ status: "expired", payment_method: "pay-on-delivery" })).toBe(
      "Expired (not confirmed)",
    );
  });
});

describe("the refund form", () => {
  it("reads dollars and cents into integer cents; blank means everything left", () => {
    expect(refundSchema.parse({ version: "3", amount: "12.5", reason: "" })).toEqual({
      version: 3,
      amount: 1250,
      reason: null,
    });
    expect(refundSchema.parse({ version: 0, amount: "$7", reason: " Scratched " })).toEqual({
      version: 0,
      amount: 700,
      reason: "Scratched",
    });
    expect(refundSchema.parse({ version: 0, amount: "£7.5" }).amount).toBe(750);
    expect(refundSchema.parse({ version: 0, amount: "  " }).amount).toBeNull();
  });

  it("refuses what isn't a positive amount of dollars and cents", () => {
    for (const amount of ["0", "0.00", "-5", "1.234", "1e3", "abc", "12,50", "9999999999"]) {
      const result = refundSchema.safeParse({ version: 1, amount });
      expect(result.success, amount).toBe(false);
    }
    expect(refundSchema.safeParse({ version: 1, amount: "5", reason: "bad\u0000" }).success).toBe(false);
    expect(refundSchema.safeParse({ amount: "5" }).success).toBe(false);
  });

  it("any whole number of cents written as dollars comes back exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999_999 }), (cents) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
        expect(refundSchema.parse({ version: 1, amount: text }).amount).toBe(cents);
      }),
    );
  });
});

describe("checkout accepts the card method", () => {
  it("'card' is a payment method of the form (whether the store offers it is the server's call)", () => {
    expect(checkoutSchema.safeParse({ ...validCheckoutForm, paymentMethod: "card" }).success).toBe(true);
    expect(checkoutSchema.safeParse({ ...validCheckoutForm, paymentMethod: "bitcoin" }).success).toBe(false);
  });
});

describe("Stripe facts and configuration", () => {
  it("reads a Checkout session into the facts settlement uses", () => {
    const facts = sessionFacts({
      id: "cs_test_1",
      client_reference_id: "TH-0123456789",
      status: "complete",
      payment_status: "paid",
      amount_total: 1234,
      currency: "usd",
      payment_intent: { id: "pi_1", status: "succeeded" },
      metadata: {},
    } as never);
    expect(facts).toEqual({
      sessionId: "cs_test_1",
      orderNumber: "TH-0123456789",
      status: "complete",
      paymentStatus: "paid",
      amountTotal: 1234,
      currency: "usd",
      paymentIntentId: "pi_1",
      asyncFailed: false,
    });
    const failed = sessionFacts({
      id: "cs_2",
      client_reference_id: null,
      metadata: { order_number: "TH-AAAAAAAAAA" },
      status: "complete",
      payment_status: "unpaid",
      payment_intent: { id: "pi_2", status: "requires_payment_method" },
    } as never);
    expect(failed).toMatchObject({ orderNumber: "TH-AAAAAAAAAA", asyncFailed: true, paymentIntentId: "pi_2" });
  });

  it("each market's currency is in Stripe's lower case", () => {
    expect(Object.values(MARKETS).map((m) => m.currency)).toEqual(["gbp", "usd"]);
  });

  it("payments are configured only with both keys, and hold minutes are checked", () => {
    expect(() => loadConfig({ PAYMENT_HOLD_MINUTES: "0" })).toThrow(/PAYMENT_HOLD_MINUTES/);
    expect(() => loadConfig({ PAYMENT_HOLD_MINUTES: "abc" })).toThrow(/PAYMENT_HOLD_MINUTES/);
    expect(loadConfig({}).PAYMENT_HOLD_MINUTES).toBe(30);
    expect(() => loadConfig({ STRIPE_API_URL: "not a url" })).toThrow(/STRIPE_API_URL/);
    expect(createStripe({ secretKey: "sk_test_x", apiUrl: "http://127.0.0.1:12111" })).toBeTruthy();
  });

  it("shoppers come back to the loopback host they used in the default mode, otherwise to SITE_URL", () => {
    const req = (host: string) => new Request(`http://${host}/checkout`, { headers: { host } });
    const local = loadConfig({ PORT: "3000" });
    expect(returnOrigin(req("127.0.0.1:3000"), local)).toBe("http://127.0.0.1:3000");
    expect(returnOrigin(req("localhost:3000"), local)).toBe("http://localhost:3000");
    expect(returnOrigin(req("evil.example"), local)).toBe("http://localhost:3000");
    const site = loadConfig({ SITE_URL: "https://shop.example" });
    expect(returnOrigin(req("127.0.0.1:3000"), site)).toBe("https://shop.example");
  });
});
