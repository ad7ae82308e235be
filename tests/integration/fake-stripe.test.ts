/**
 * The local Stripe stand-in (tests/support/fake-stripe.mjs) driven through the official `stripe`
 * SDK, as the payments code will drive it: Checkout Session create (idempotent) / retrieve /
 * expire, the hosted payment page (pay, bank transfer, cancel, expired, already paid), payment and
 * async outcomes, refunds by PaymentIntent, session expiry, and webhooks that are signed so the
 * SDK's constructEvent accepts them, delivered in the background and retried, redelivered, paused.
 */
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import axe from "axe-core"; // comes with @axe-core/playwright
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeStripe, type FakeStripe, type FakeStripeEvent } from "../support/fake-stripe.mjs";

const SECRET = "whsec_test_fake";
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const SUCCESS = "http://127.0.0.1/checkout/paid?session_id={CHECKOUT_SESSION_ID}";
const CANCEL = "http://127.0.0.1/checkout/cancelled";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nowS = () => Math.floor(Date.now() / 1000);

/** axe on the page's HTML in jsdom: structure, names, landmarks, lang (contrast needs a browser). */
async function axeViolations(html: string): Promise<string[]> {
  type Dom = { window: { eval(src: string): void; close(): void; document: Document; axe: typeof axe } };
  // jsdom ships no types; a computed specifier keeps TypeScript from asking for them.
  const jsdomModule: string = "jsdom";
  const jsdom = (await import(jsdomModule)) as {
    JSDOM: new (html: string, o: object) => Dom;
    VirtualConsole: new () => object;
  };
  const dom = new jsdom.JSDOM(html, {
    runScripts: "outside-only",
    pretendToBeVisual: true,
    virtualConsole: new jsdom.VirtualConsole(),
  });
  try {
    dom.window.eval(axe.source);
    const result = await dom.window.axe.run(dom.window.document, { runOnly: AXE_TAGS, resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  } finally {
    dom.window.close();
  }
}

describe("the local Stripe stand-in, through the official SDK", () => {
  /** Every delivery the receiver saw, in order; `respond` decides its answer. */
  const deliveries: { raw: string; signature: string; status: number; event: Stripe.Event }[] = [];
  const refused: string[] = [];
  let respond: (event: Stripe.Event) => number | Promise<number> = () => 200;
  let hook: http.Server;
  let hookUrl: string;
  let fake: FakeStripe;
  let stripe: Stripe;
  let port: number;
  const others: FakeStripe[] = [];

  beforeAll(async () => {
    hook = http.createServer(async (req, res) => {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const signature = String(req.headers["stripe-signature"]);
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(raw, signature, SECRET);
      } catch (error) {
        refused.push((error as Error).constructor.name);
        return res.writeHead(400).end();
      }
      const status = await respond(event);
      deliveries.push({ raw, signature, status, event });
      res.writeHead(status).end();
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`;
    fake = createFakeStripe({ webhookUrl: hookUrl, webhookSecret: SECRET, retryDelaysMs: [20, 40, 80] });
    port = await fake.listen();
    stripe = new Stripe("sk_test_fake", {
      host: "127.0.0.1",
      port,
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    });
  });
  afterAll(async () => {
    await Promise.all([fake, ...others].map((f) => f.close()));
    hook.closeAllConnections();
    await new Promise((r) => hook.close(r));
  });

  const session = (ref: string, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) => ({
    mode: "payment" as const,
    line_items: [
      { quantity: 2, price_data: { currency: "usd", unit_amount: 1250, product_data: { name: "Claw hammer" } } },
    ],
    success_url: SUCCESS,
    cancel_url: CANCEL,
    client_reference_id: ref,
    metadata: { orderId: ref },
    expires_at: nowS() + 31 * 60,
    ...extra,
  });
  const at = (path: string) => `http://127.0.0.1:${port}${path}`;
  const control = (path: string, body = "") =>
    fetch(at(path), { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  const choose = (url: string, action: string) =>
    fetch(url, {
      method: "POST",
      body: `action=${action}`,
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  /** Acknowledged (2xx) deliveries of `type`, for the object `id` if given. */
  const acked = (type: string, id?: string) =>
    deliveries.filter(
      (d) => d.status < 300 && d.event.type === type && (!id || (d.event.data.object as { id?: string }).id === id),
    );
  const eventOf = (type: string, id: string) =>
    fake.events.find((e) => e.type === type && e.data.object.id === id) as FakeStripeEvent;
  async function until(check: () => boolean, ms = 5000) {
    for (const end = Date.now() + ms; !check(); await sleep(10))
      if (Date.now() > end) throw new Error("timed out waiting");
  }

  it("creates a session once per idempotency key, refuses the key with other parameters, and pays it", async () => {
    // The same parameters, byte for byte, even when the second request falls in the next second.
    const params = session("order-1");
    const created = await stripe.checkout.sessions.create(params, { idempotencyKey: "checkout:order-1" });
    expect(created).toMatchObject({
      status: "open",
      payment_status: "unpaid",
      amount_total: 2500,
      currency: "usd",
      client_reference_id: "order-1",
      payment_intent: null,
    });
    expect((await stripe.checkout.sessions.create({ ...params }, { idempotencyKey: "checkout:order-1" })).id).toBe(
      created.id,
    );
    await expect(
      stripe.checkout.sessions.create(
        { ...params, client_reference_id: "order-other" },
        { idempotencyKey: "checkout:order-1" },
      ),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);

    expect((await control(`/_test/checkout/sessions/${created.id}/complete`, "outcome=paid")).status).toBe(200);
    const paid = await stripe.checkout.sessions.retrieve(created.id, { expand: ["payment_intent"] });
    expect(paid).toMatchObject({ status: "complete", payment_status: "paid", url: null });
    const pi = paid.payment_intent as Stripe.PaymentIntent;
    expect(pi.status).toBe("succeeded");
    await fake.idle();
    const [event] = acked("checkout.session.completed", created.id);
    expect(event.event.type === "checkout.session.completed" && event.event.data.object.client_reference_id).toBe(
      "order-1",
    );

    const refund = await stripe.refunds.create(
      { payment_intent: pi.id, amount: 1000 },
      { idempotencyKey: "refund:order-1:1" },
    );
    expect(refund).toMatchObject({ status: "succeeded", amount: 1000 });
    await expect(stripe.refunds.create({ payment_intent: pi.id, amount: 9_999 })).rejects.toBeInstanceOf(
      Stripe.errors.StripeInvalidRequestError,
    );
    await fake.idle();
    const charge = acked("charge.refunded").at(-1)!.event.data.object as Stripe.Charge;
    expect(charge).toMatchObject({
      amount: 2500,
      amount_refunded: 1000,
      refunded: false,
      currency: "usd",
      payment_intent: pi.id,
    });
    expect(charge).not.toHaveProperty("refunds"); // not on charges by default since API 2022-11-15
    expect(acked("refund.created", refund.id)).toHaveLength(1);
  });

  it("expires an open session once, and reports async payments", async () => {
    const open = await stripe.checkout.sessions.create(session("order-2"));
    expect((await stripe.checkout.sessions.expire(open.id)).status).toBe("expired");
    await expect(stripe.checkout.sessions.expire(open.id)).rejects.toBeInstanceOf(
      Stripe.errors.StripeInvalidRequestError,
    );

    const slow = await stripe.checkout.sessions.create(session("order-3"));
    await control(`/_test/checkout/sessions/${slow.id}/complete`, "outcome=processing");
    expect((await stripe.checkout.sessions.retrieve(slow.id)).payment_status).toBe("unpaid");
    await control(`/_test/checkout/sessions/${slow.id}/async_payment_failed`);
    await fake.idle();
    expect(acked("checkout.session.expired", open.id)).toHaveLength(1);
    expect(acked("checkout.session.async_payment_failed", slow.id)).toHaveLength(1);
  });

  it("signs webhooks the SDK accepts, and the SDK refuses a tampered payload", () => {
    const payload = JSON.stringify({ id: "evt_1", type: "checkout.session.expired", data: { object: {} } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    expect(Stripe.webhooks.constructEvent(payload, header, SECRET).id).toBe("evt_1");
    expect(() => Stripe.webhooks.constructEvent(payload.replace("evt_1", "evt_2"), header, SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(refused).toEqual([]);
  });

  it("serves an accessible hosted payment page; cancel leaves the session open, paying redirects to success_url", async () => {
    const created = await stripe.checkout.sessions.create(session("order-page"));
    expect(created.url).toBe(at(`/pay/${created.id}`));
    const page = await fetch(created.url!);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    for (const part of [
      '<html lang="en">',
      "<title>",
      "<main>",
      "<h1>Pay ToolHub Wholesale</h1>",
      "Claw hammer × 2",
      "Total due: <strong>$25.00</strong>",
      '<button type="submit" name="action" value="pay">Pay $25.00</button>',
      '<button type="submit" name="action" value="processing">Pay by bank transfer</button>',
      '<button type="submit" name="action" value="cancel">Cancel and return to the store</button>',
    ])
      expect(html).toContain(part);
    expect(html).not.toContain("<script");
    expect(await axeViolations(html)).toEqual([]);

    const cancel = await choose(created.url!, "cancel");
    expect([cancel.status, cancel.headers.get("location")]).toEqual([303, CANCEL]);
    expect(await stripe.checkout.sessions.retrieve(created.id)).toMatchObject({ status: "open", url: created.url });

    const pay = await choose(created.url!, "pay");
    expect([pay.status, pay.headers.get("location")]).toEqual([
      303,
      `http://127.0.0.1/checkout/paid?session_id=${created.id}`,
    ]);
    expect(await stripe.checkout.sessions.retrieve(created.id)).toMatchObject({
      status: "complete",
      payment_status: "paid",
      url: null,
    });
    const texts: string[] = [];
    for (const again of [await fetch(created.url!), await choose(created.url!, "pay")]) {
      expect(again.status).toBe(200);
      texts.push(await again.text());
      expect(texts.at(-1)).toContain("already paid");
      expect(texts.at(-1)).toContain(`href="http://127.0.0.1/checkout/paid?session_id=${created.id}"`);
    }
    expect(await axeViolations(texts[0])).toEqual([]);
    await fake.idle();
    expect(acked("checkout.session.completed", created.id)).toHaveLength(1);

    const bank = await stripe.checkout.sessions.create(session("order-bank"));
    expect((await choose(bank.url!, "processing")).headers.get("location")).toBe(
      `http://127.0.0.1/checkout/paid?session_id=${bank.id}`,
    );
    expect(await stripe.checkout.sessions.retrieve(bank.id)).toMatchObject({
      status: "complete",
      payment_status: "unpaid",
    });
    await control(`/_test/checkout/sessions/${bank.id}/async_payment_succeeded`);
    expect((await stripe.checkout.sessions.retrieve(bank.id)).payment_status).toBe("paid");
    expect((await choose(bank.url!, "nonsense")).status).toBe(200); // completed: the "already paid" page, whatever the choice
    expect((await fetch(at("/pay/cs_test_nope"))).status).toBe(404);

    const elsewhere = createFakeStripe({ publicUrl: "http://stripe.test:8080/" });
    others.push(elsewhere);
    const elsewherePort = await elsewhere.listen();
    const remote = new Stripe("sk_test_fake", {
      host: "127.0.0.1",
      port: elsewherePort,
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    });
    const s = await remote.checkout.sessions.create(session("order-public"));
    expect(s.url).toBe(`http://stripe.test:8080/pay/${s.id}`);
  });

  it("answers API requests without waiting for webhook delivery, and retries a failed delivery", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    respond = async () => (await gate, 200);
    const held = await stripe.checkout.sessions.create(session("order-held"));
    const answered = await Promise.race([
      control(`/_test/checkout/sessions/${held.id}/complete`).then((r) => r.status),
      sleep(2000).then(() => "blocked"),
    ]);
    expect(answered).toBe(200);
    expect(eventOf("checkout.session.completed", held.id).delivery_status).toBe("pending");
    release();
    await fake.idle();
    expect(eventOf("checkout.session.completed", held.id)).toMatchObject({
      delivery_status: "delivered",
      delivery_attempts: 1,
      last_response_status: 200,
    });

    let calls = 0;
    respond = () => (++calls === 1 ? 500 : 200);
    const flaky = await stripe.checkout.sessions.create(session("order-flaky"));
    await control(`/_test/checkout/sessions/${flaky.id}/complete`);
    await fake.idle();
    respond = () => 200;
    const event = eventOf("checkout.session.completed", flaky.id);
    expect(event).toMatchObject({ delivery_status: "delivered", delivery_attempts: 2, last_response_status: 200 });
    const tries = deliveries.filter((d) => d.event.id === event.id);
    expect(tries.map((d) => d.status)).toEqual([500, 200]);
    expect(tries[1].raw).toBe(tries[0].raw);

    // the store is down (connection refused), then comes back on another port before the retries run out
    const gone = http.createServer();
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", r));
    const deadUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/`;
    await new Promise((r) => gone.close(r));
    const patient = createFakeStripe({
      webhookUrl: deadUrl,
      webhookSecret: SECRET,
      retryDelaysMs: [250, 250, 250, 250],
    });
    others.push(patient);
    const patientPort = await patient.listen();
    const down = await new Stripe("sk_test_fake", {
      host: "127.0.0.1",
      port: patientPort,
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    }).checkout.sessions.create(session("order-down"));
    await fetch(`http://127.0.0.1:${patientPort}/_test/checkout/sessions/${down.id}/complete`, { method: "POST" });
    const downEvent = patient.events.at(-1)!;
    await until(() => downEvent.delivery_attempts >= 1);
    expect(downEvent).toMatchObject({ delivery_status: "pending", last_response_status: null });
    patient.setWebhookUrl(hookUrl);
    await patient.idle();
    expect(downEvent.delivery_status).toBe("delivered");
    expect(downEvent.delivery_attempts).toBeGreaterThanOrEqual(2);
    expect(acked("checkout.session.completed", down.id)).toHaveLength(1);

    // down for longer than all retries: failed, then sent again by hand (same id and body, newly signed)
    fake.setWebhookUrl(deadUrl);
    const lost = await stripe.checkout.sessions.create(session("order-lost"));
    await control(`/_test/checkout/sessions/${lost.id}/complete`);
    await fake.idle();
    const lostEvent = eventOf("checkout.session.completed", lost.id);
    expect(lostEvent).toMatchObject({ delivery_status: "failed", delivery_attempts: 4 });
    fake.setWebhookUrl(hookUrl);
    expect((await control(`/_test/events/${lostEvent.id}/redeliver`)).status).toBe(200);
    await fake.idle();
    expect(lostEvent).toMatchObject({ delivery_status: "delivered", delivery_attempts: 5 });
    expect((await control("/_test/events/evt_nope/redeliver")).status).toBe(404);
  });

  it("redelivers an event, lists events with their delivery status, and serves them on /v1/events", async () => {
    const [first] = acked("checkout.session.completed");
    expect((await control(`/_test/events/${first.event.id}/redeliver`)).status).toBe(200);
    await fake.idle();
    const both = acked("checkout.session.completed").filter((d) => d.event.id === first.event.id);
    expect(both).toHaveLength(2);
    expect(both[1].raw).toBe(both[0].raw);

    const listed = (await (await fetch(at("/_test/events?type=checkout.session.completed"))).json()) as {
      data: FakeStripeEvent[];
      webhooks: object;
    };
    expect(listed.data.length).toBeGreaterThan(3);
    expect(
      listed.data.every(
        (e) => e.type === "checkout.session.completed" && e.delivery_status === "delivered" && e.delivery_attempts >= 1,
      ),
    ).toBe(true);
    expect(listed.webhooks).toEqual({ url: hookUrl, paused: false, queued: 0, in_flight: false });

    const viaApi = await stripe.events.retrieve(first.event.id);
    expect(viaApi).toEqual(JSON.parse(first.raw));
    const page = await stripe.events.list({ type: "checkout.session.completed", limit: 2 });
    expect(page.data.map((e) => e.type)).toEqual(["checkout.session.completed", "checkout.session.completed"]);
    expect(page.has_more).toBe(true);
  });

  it("holds deliveries while paused and can release them newest first", async () => {
    expect((await control("/_test/webhooks/pause")).status).toBe(200);
    const a = await stripe.checkout.sessions.create(session("order-a"));
    const b = await stripe.checkout.sessions.create(session("order-b"));
    await choose(a.url!, "pay");
    await choose(b.url!, "pay");
    await fake.idle(); // resolves while paused: nothing is in flight
    expect(acked("checkout.session.completed", a.id)).toHaveLength(0);
    const state = (await (await fetch(at("/_test/events"))).json()) as { webhooks: object };
    expect(state.webhooks).toMatchObject({ paused: true, queued: 2 });
    expect(eventOf("checkout.session.completed", a.id).delivery_status).toBe("pending");

    expect((await control("/_test/webhooks/resume", "order=reverse")).status).toBe(200);
    await fake.idle();
    const order = deliveries
      .map((d) => (d.event.data.object as { id?: string }).id)
      .filter((id) => id === a.id || id === b.id);
    expect(order).toEqual([b.id, a.id]);
  });

  it("records a paid amount or currency that differs from the order", async () => {
    const s = await stripe.checkout.sessions.create(session("order-short"));
    expect((await control(`/_test/checkout/sessions/${s.id}/complete`, "amount_total=-5")).status).toBe(400);
    expect((await control(`/_test/checkout/sessions/${s.id}/complete`, "amount_total=1999&currency=gbp")).status).toBe(
      200,
    );
    await fake.idle();
    const completed = acked("checkout.session.completed", s.id)[0].event.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ amount_total: 1999, currency: "gbp", payment_status: "paid" });
    const pi = await stripe.paymentIntents.retrieve(String(completed.payment_intent));
    expect(pi).toMatchObject({ amount: 1999, amount_received: 1999, currency: "gbp" });
  });

  it("expires sessions at expires_at (by timer, and on the next request that touches them) and on demand", async () => {
    await expect(stripe.checkout.sessions.create(session("too-short", { expires_at: nowS() }))).rejects.toBeInstanceOf(
      Stripe.errors.StripeInvalidRequestError,
    );
    await expect(
      stripe.checkout.sessions.create(session("too-long", { expires_at: nowS() + 25 * 3600 })),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const strict = createFakeStripe({ strictExpiry: true });
    others.push(strict);
    const strictStripe = new Stripe("sk_test_fake", {
      host: "127.0.0.1",
      port: await strict.listen(),
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    });
    await expect(
      strictStripe.checkout.sessions.create(session("short", { expires_at: nowS() + 60 })),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await strictStripe.checkout.sessions.create(session("long-enough"));

    const lazy = createFakeStripe({ webhookUrl: hookUrl, webhookSecret: SECRET, expiryCheckMs: 0 });
    others.push(lazy);
    const lazyStripe = new Stripe("sk_test_fake", {
      host: "127.0.0.1",
      port: await lazy.listen(),
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    });
    const byTimer = await stripe.checkout.sessions.create(session("order-timer", { expires_at: nowS() + 2 }));
    const byRequest = await lazyStripe.checkout.sessions.create(session("order-touch", { expires_at: nowS() + 2 }));
    await until(() => acked("checkout.session.expired", byTimer.id).length === 1);
    expect(lazy.events).toEqual([]); // no timer there: nothing happens until the session is touched
    expect(await lazyStripe.checkout.sessions.retrieve(byRequest.id)).toMatchObject({ status: "expired", url: null });
    await lazy.idle();
    expect(acked("checkout.session.expired", byRequest.id)).toHaveLength(1);

    const expired = await fetch(byTimer.url!);
    expect(expired.status).toBe(410);
    const text = await expired.text();
    expect(text).toContain("This payment page has expired");
    expect(text).toContain(`href="${CANCEL}"`);
    expect(await axeViolations(text)).toEqual([]);
    expect((await choose(byTimer.url!, "pay")).status).toBe(410);
    expect((await control(`/_test/checkout/sessions/${byTimer.id}/complete`)).status).toBe(400);

    const now = await stripe.checkout.sessions.create(session("order-now"));
    const res = await control(`/_test/checkout/sessions/${now.id}/expire_now`);
    expect(await res.json()).toMatchObject({ status: "expired" });
    expect((await stripe.checkout.sessions.retrieve(now.id)).expires_at).toBeLessThanOrEqual(nowS());
    await fake.idle();
    expect(acked("checkout.session.expired", now.id)).toHaveLength(1);
    expect((await fetch(now.url!)).status).toBe(410);
  });

  it("runs standalone from the environment and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["tests/support/fake-stripe.mjs", "0"], {
      env: { ...process.env, WEBHOOK_URL: hookUrl, WEBHOOK_SECRET: SECRET, PUBLIC_URL: "http://pay.test" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const line = String((await lines.next()).value);
    const standalonePort = Number(line.match(/^fake-stripe listening on http:\/\/127\.0\.0\.1:(\d+)$/)?.[1]);
    const alone = new Stripe("sk_test_fake", {
      host: "127.0.0.1",
      port: standalonePort,
      protocol: "http",
      maxNetworkRetries: 0,
      telemetry: false,
    });
    const s = await alone.checkout.sessions.create(session("order-alone"));
    expect(s.url).toBe(`http://pay.test/pay/${s.id}`);
    await fetch(`http://127.0.0.1:${standalonePort}/_test/checkout/sessions/${s.id}/complete`, { method: "POST" });
    await until(() => acked("checkout.session.completed", s.id).length === 1);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
