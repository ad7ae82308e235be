/**
 * A validly signed Stripe webhook whose body is valid JSON but no event (`null`, a list, an event
 * without its object, a session whose fields have the wrong types) is answered 400 with the
 * reason, not 500 (issue 48), over HTTP through the store's own payment router, and stores nothing.
 */
import type http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { paymentRouter, STRIPE_WEBHOOK_PATH } from "../../server/http/payment-routes.ts";
import { eventShapeProblem } from "../../server/payments/webhook.ts";
import { signPayload } from "../support/fake-stripe.mjs";
import { countRows, dialects, freshDb, type TestDb } from "./databases.ts";

const SECRET = "whsec_shape_test_0123456789";
const session = (overrides: Record<string, unknown> = {}) => ({
  id: "cs_test_1",
  object: "checkout.session",
  client_reference_id: "TH-NOPE",
  metadata: { order_number: "TH-NOPE" },
  status: "complete",
  payment_status: "paid",
  amount_total: 1234,
  currency: "usd",
  payment_intent: "pi_1",
  ...overrides,
});
const event = (type: string, object: unknown, id = "evt_shape_1") => ({
  id,
  object: "event",
  type,
  created: 1_700_000_000,
  data: { object },
});

describe.each(dialects)("Stripe webhook bodies that are no event on %s", (kind) => {
  let t: TestDb;
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    t = await freshDb(kind);
    const cfg = loadConfig({
      NODE_ENV: "test",
      STRIPE_SECRET_KEY: "sk_test_shape",
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_URL: "http://127.0.0.1:9",
    });
    const app = express();
    app.use(paymentRouter(t.db, cfg));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${STRIPE_WEBHOOK_PATH}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await t?.drop();
  });

  const deliver = async (body: string) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signPayload(body, SECRET) },
      body,
    });
    return {
      status: response.status,
      body: (await response.json()) as { received: boolean; error?: string; outcome?: string },
    };
  };
  const storedEvents = () => countRows(t.db, "payment_events");

  it.each([
    ["null", "null"],
    ["a number", "123"],
    ["a string", '"evt_1"'],
    ["a list", "[]"],
    ["an empty object", "{}"],
    ["an event without a type", JSON.stringify({ id: "evt_1", data: { object: session() } })],
    ["an id that is no event id", JSON.stringify(event("checkout.session.completed", session(), "cs_1"))],
    ["an event without data", JSON.stringify({ id: "evt_1", type: "checkout.session.completed", created: 1 })],
    ["data null", JSON.stringify({ id: "evt_1", type: "checkout.session.completed", data: null })],
    ["data.object null", JSON.stringify(event("checkout.session.completed", null))],
    ["data.object a list", JSON.stringify(event("charge.refunded", []))],
    ["a session without an id", JSON.stringify(event("checkout.session.completed", { ...session(), id: undefined }))],
    [
      "a session whose total is text",
      JSON.stringify(event("checkout.session.completed", session({ amount_total: "1234" }))),
    ],
    [
      "a session whose metadata is a string",
      JSON.stringify(event("checkout.session.expired", session({ metadata: "TH-1" }))),
    ],
    [
      "a session whose payment intent is a number",
      JSON.stringify(event("checkout.session.async_payment_failed", session({ payment_intent: 7 }))),
    ],
    [
      "a charge without amount_refunded",
      JSON.stringify(event("charge.refunded", { id: "ch_1", payment_intent: "pi_1" })),
    ],
    [
      "a created time that is text",
      JSON.stringify({ ...event("checkout.session.completed", session()), created: "yesterday" }),
    ],
  ])("%s: 400 with the reason, nothing stored", async (_name, body) => {
    const reply = await deliver(body);
    expect(reply.status).toBe(400);
    expect(reply.body.received).toBe(false);
    expect(reply.body.error).toMatch(/^Not (an event|a valid [a-z._]+ event) \(.+\)$/);
    expect(await storedEvents()).toBe(0);
  });

  it("a well-formed event is still taken: one the store acts on, and one it only records", async () => {
    const completed = await deliver(JSON.stringify(event("checkout.session.completed", session(), "evt_shape_ok")));
    expect(completed).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    // A balance has no id; an event the store does not handle is recorded and answered 200.
    const other = await deliver(
      JSON.stringify(event("balance.available", { object: "balance", available: [] }, "evt_shape_other")),
    );
    expect(other).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    expect(await storedEvents()).toBe(2);
  });
});

describe("eventShapeProblem", () => {
  it("names the field that is wrong", () => {
    expect(eventShapeProblem(null)).toMatch(/^Not an event \(/);
    expect(eventShapeProblem(event("checkout.session.completed", session({ amount_total: 1.5 })))).toMatch(
      /^Not a valid checkout\.session\.completed event \(data\.object\.amount_total: /,
    );
    expect(
      eventShapeProblem(event("charge.refunded", { id: "ch_1", amount_refunded: 100, payment_intent: { id: "pi_1" } })),
    ).toBeNull();
  });
});
