// fake-stripe.mjs — minimal stateful Stripe-like HTTP server for tests (node:http only, no deps),
// for the payments work (issue 13). stripe-stateful-mock (0.0.16, tried first) has no Checkout
// Sessions or PaymentIntents and refunds only by charge, so the part of the API the store uses is
// written here (tests/integration/fake-stripe.test.ts pins it against the real SDK).
// Speaks the subset of the v1 API that a Checkout (mode=payment) integration uses, as the official
// `stripe` SDK sends it: form-encoded bodies with bracket keys, Bearer auth, Idempotency-Key.
// Like Stripe it serves a hosted payment page (session.url -> /pay/:id, fake-stripe-page.mjs),
// delivers signed webhooks asynchronously in the background with retries, and expires sessions.
// Test-only control routes under /_test/* (no auth) move sessions through their lifecycle and
// control webhook delivery; see the route table below.
import http from "node:http";
import crypto from "node:crypto";
import { pathToFileURL } from "node:url";
import { handlePayPage } from "./fake-stripe-page.mjs";

const now = () => Math.floor(Date.now() / 1000);
const rid = (prefix, n = 24) => `${prefix}_${crypto.randomBytes(n).toString("base64url").slice(0, n)}`;
const DEFAULT_RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 15000, 30000];

class ApiError extends Error {
  constructor(status, error) {
    super(error.message);
    this.status = status;
    this.error = { type: "invalid_request_error", ...error };
  }
}
const missing = (kind, id) =>
  new ApiError(404, { code: "resource_missing", param: "id", message: `No such ${kind}: '${id}'` });

/** "a[b][0][c]=v" pairs -> nested object/arrays (what qs does; the SDK never percent-encodes brackets). */
function parseForm(str) {
  const out = {};
  for (const [rawKey, value] of new URLSearchParams(str)) {
    const path = rawKey.replace(/\]/g, "").split("[");
    let node = out;
    path.forEach((seg, i) => {
      const last = i === path.length - 1;
      if (last) {
        node[seg] = value;
        return;
      }
      if (node[seg] === undefined) node[seg] = /^\d+$/.test(path[i + 1]) ? [] : {};
      node = node[seg];
    });
  }
  return out;
}

export function signPayload(payload, secret, t = now()) {
  const v1 = crypto.createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

export function createFakeStripe({
  webhookUrl,
  webhookSecret = "",
  publicUrl,
  merchantName = "ToolHub Wholesale",
  retryDelaysMs = DEFAULT_RETRY_DELAYS_MS,
  webhookTimeoutMs = 10_000,
  webhooks = "async",
  strictExpiry = false,
  expiryCheckMs = 1000,
} = {}) {
  const db = { sessions: new Map(), paymentIntents: new Map(), charges: new Map(), refunds: new Map() };
  const idem = new Map(); // `${method} ${path} ${key}` -> { body, status, json }
  const events = []; // every event emitted, newest last, with its delivery record (tests can inspect)
  const payloads = new Map(); // event id -> the JSON body exactly as first sent; redeliveries resend it
  const requests = []; // request log: { method, path, headers, body }
  let base = publicUrl?.replace(/\/+$/, ""); // else http://127.0.0.1:<port> once listening

  const get = (kind, map, id) => {
    const o = map.get(id);
    if (!o) throw missing(kind, id);
    return o;
  };

  // ---- webhooks: queued, sent one at a time in order, retried with backoff, never awaited by the API --
  // delivery_status: "pending" (queued / in flight / waiting to retry) | "delivered" | "failed" (retries
  // exhausted) | "no_endpoint" (no webhook URL when emitted; like Stripe, never sent unless redelivered).
  const hooks = {
    url: webhookUrl,
    paused: false,
    closed: false,
    queue: [],
    inFlight: null,
    timer: null,
    seq: 0,
    waiters: [],
    abort: new AbortController(),
  };

  function checkIdle() {
    if (hooks.inFlight || (hooks.queue.length && !hooks.paused && !hooks.closed)) return;
    for (const resolve of hooks.waiters.splice(0)) resolve();
  }
  function enqueue(event) {
    const job = { event, attempt: 0, dueAt: 0, seq: hooks.seq++ };
    job.first = new Promise((r) => (job.firstDone = r)); // settles after the first attempt (sync mode waits for it)
    Object.assign(event, { delivery_status: "pending", pending_webhooks: 1 });
    hooks.queue.push(job);
    pump();
    return job;
  }
  function pump() {
    clearTimeout(hooks.timer);
    if (hooks.closed || hooks.inFlight) return;
    if (hooks.paused || !hooks.queue.length) return checkIdle();
    const t = Date.now();
    const job = hooks.queue.find((j) => j.dueAt <= t); // queue is kept in emission order
    if (!job) return void (hooks.timer = setTimeout(pump, Math.min(...hooks.queue.map((j) => j.dueAt)) - t)).unref();
    hooks.queue.splice(hooks.queue.indexOf(job), 1);
    hooks.inFlight = deliver(job).finally(() => {
      hooks.inFlight = null;
      job.firstDone();
      pump();
    });
  }
  async function deliver(job) {
    const { event } = job;
    job.attempt++;
    event.delivery_attempts++;
    let status = null,
      error = null;
    try {
      if (!hooks.url) throw new Error("no webhook URL set");
      const payload = payloads.get(event.id);
      const res = await fetch(hooks.url, {
        method: "POST",
        body: payload,
        signal: AbortSignal.any([hooks.abort.signal, AbortSignal.timeout(webhookTimeoutMs)]),
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "stripe-signature": signPayload(payload, webhookSecret),
        },
      });
      status = (await res.arrayBuffer().catch(() => {}), res.status);
    } catch (err) {
      error = String(err?.cause?.code ?? err?.cause?.message ?? err?.message ?? err);
    } // e.g. ECONNREFUSED
    const ok = status !== null && status >= 200 && status < 300;
    Object.assign(event, { last_response_status: status, last_error: ok ? null : (error ?? `HTTP ${status}`) });
    if (ok) return Object.assign(event, { delivery_status: "delivered", delivered_at: now(), pending_webhooks: 0 });
    if (hooks.closed) return;
    if (job.attempt > retryDelaysMs.length) return Object.assign(event, { delivery_status: "failed" });
    job.dueAt = Date.now() + retryDelaysMs[job.attempt - 1];
    hooks.queue.push(job);
    hooks.queue.sort((a, b) => a.seq - b.seq);
  }

  async function emit(type, object) {
    const event = {
      id: rid("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: now(),
      livemode: false,
      pending_webhooks: hooks.url ? 1 : 0,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object) },
    };
    payloads.set(event.id, JSON.stringify(event));
    Object.assign(event, {
      delivery_status: "no_endpoint",
      delivery_attempts: 0,
      last_response_status: null,
      last_error: null,
      delivered_at: null,
    });
    events.push(event);
    const job = hooks.url && enqueue(event);
    if (job && webhooks === "sync" && !hooks.paused) await job.first; // old behaviour: the request waits for the first attempt
    return event;
  }
  function redeliver(id) {
    // the same event (same id and body), signed anew
    const event = events.find((e) => e.id === id);
    if (!event) throw missing("event", id);
    return enqueue(event).event;
  }
  function pauseWebhooks() {
    hooks.paused = true;
    for (const job of hooks.queue) job.firstDone(); // sync-mode requests stop waiting
    checkIdle();
  }
  function resumeWebhooks({ order = "fifo" } = {}) {
    if (order === "reverse") for (const job of [...hooks.queue].sort((a, b) => b.seq - a.seq)) job.seq = hooks.seq++;
    hooks.queue.sort((a, b) => a.seq - b.seq);
    hooks.paused = false;
    pump();
  }
  const hookState = () => ({
    url: hooks.url ?? null,
    paused: hooks.paused,
    queued: hooks.queue.length,
    in_flight: Boolean(hooks.inFlight),
  });

  // ---- expiry: checked on every request that touches a session, and by a timer ---------------------
  async function expire(rec) {
    Object.assign(rec.session, { status: "expired", url: null });
    await emit("checkout.session.expired", rec.session);
  }
  const due = (rec) => rec.session.status === "open" && now() >= rec.session.expires_at;
  async function touch(id) {
    const rec = get("checkout.session", db.sessions, id);
    if (due(rec)) await expire(rec);
    return rec;
  }
  const sweeper =
    expiryCheckMs > 0
      ? setInterval(() => {
          for (const rec of db.sessions.values()) if (due(rec)) expire(rec).catch(() => {});
        }, expiryCheckMs).unref()
      : undefined;

  // ---- Stripe API handlers -------------------------------------------------------------------------
  function createSession(p) {
    if (p.mode !== "payment")
      throw new ApiError(400, { param: "mode", message: "fake-stripe supports mode=payment only" });
    if (!p.success_url)
      throw new ApiError(400, { param: "success_url", message: "Missing required param: success_url." });
    const items = (p.line_items ?? []).map((li, i) => {
      const pd = li.price_data;
      if (!pd?.currency || pd.unit_amount === undefined)
        throw new ApiError(400, {
          param: `line_items[${i}][price_data]`,
          message: "price_data.currency and price_data.unit_amount are required",
        });
      const quantity = Number(li.quantity ?? 1),
        unit = Number(pd.unit_amount),
        total = unit * quantity;
      return {
        id: rid("li"),
        object: "item",
        amount_discount: 0,
        amount_subtotal: total,
        amount_tax: 0,
        amount_total: total,
        currency: pd.currency,
        description: pd.product_data?.name ?? null,
        quantity,
        price: {
          id: rid("price"),
          object: "price",
          currency: pd.currency,
          unit_amount: unit,
          product: rid("prod"),
          type: "one_time",
        },
      };
    });
    if (!items.length)
      throw new ApiError(400, { param: "line_items", message: "line_items is required in payment mode." });
    const currencies = new Set(items.map((i) => i.currency));
    if (currencies.size > 1)
      throw new ApiError(400, { param: "line_items", message: "All line items must use the same currency." });
    const created = now();
    const expires_at = p.expires_at ? Number(p.expires_at) : created + 24 * 3600;
    // Real Stripe requires expires_at to be at least 30 minutes and at most 24 hours after creation;
    // `strictExpiry: true` enforces that. By default anything from 1 second on is accepted, so tests
    // can use short holds.
    const min = strictExpiry ? 30 * 60 : 1;
    if (!Number.isInteger(expires_at) || expires_at < created + min || expires_at > created + 24 * 3600)
      throw new ApiError(400, {
        param: "expires_at",
        message: `expires_at must be ${strictExpiry ? "30 minutes" : "1 second"} to 24 hours after creation.`,
      });
    const amount = items.reduce((s, i) => s + i.amount_total, 0);
    const id = rid("cs_test", 58);
    const session = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_subtotal: amount,
      amount_total: amount,
      currency: [...currencies][0],
      client_reference_id: p.client_reference_id ?? null,
      metadata: p.metadata ?? {},
      success_url: p.success_url,
      cancel_url: p.cancel_url ?? null,
      created,
      expires_at,
      livemode: false,
      payment_intent: null, // real Stripe (API >= 2022-08-01) creates the PaymentIntent only when the customer pays
      // stripe@23 (API 2026-09-30.endive+) types only allow `allowed_payment_method_types`; older SDKs send `payment_method_types`
      payment_method_types: p.allowed_payment_method_types ?? p.payment_method_types ?? ["card"],
      allowed_payment_method_types: p.allowed_payment_method_types ?? null,
      customer: null,
      customer_details: null,
      url: `${base}/pay/${id}`, // null once the session is complete or expired, as on Stripe
    };
    db.sessions.set(id, { session, items });
    return session;
  }

  function expand(session, expandList = []) {
    const s = structuredClone(session);
    if (expandList.includes("payment_intent") && s.payment_intent)
      s.payment_intent = db.paymentIntents.get(s.payment_intent);
    return s;
  }

  async function expireSession(id) {
    const rec = await touch(id);
    if (rec.session.status !== "open")
      throw new ApiError(400, {
        message: `Only Checkout Sessions with a status of \`open\` can be expired. This session has status \`${rec.session.status}\`.`,
      });
    await expire(rec);
    return rec.session;
  }

  async function createRefund(p) {
    let charge;
    if (p.payment_intent) {
      const pi = get("payment_intent", db.paymentIntents, p.payment_intent);
      if (pi.status !== "succeeded" || !pi.latest_charge)
        throw new ApiError(400, {
          code: "charge_not_refundable",
          message: `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
        });
      charge = db.charges.get(pi.latest_charge);
    } else if (p.charge) charge = get("charge", db.charges, p.charge);
    else
      throw new ApiError(400, {
        message: "One of the following params should be provided for this request: payment_intent or charge.",
      });
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0)
      throw new ApiError(400, {
        code: "charge_already_refunded",
        message: `Charge ${charge.id} has already been refunded.`,
      });
    const amount = p.amount !== undefined ? Number(p.amount) : remaining;
    if (!Number.isInteger(amount) || amount < 1)
      throw new ApiError(400, {
        code: "parameter_invalid_integer",
        param: "amount",
        message: "Invalid positive integer",
      });
    if (amount > remaining)
      throw new ApiError(400, {
        code: "amount_too_large",
        param: "amount",
        message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`,
      });
    const refund = {
      id: rid("re"),
      object: "refund",
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      metadata: p.metadata ?? {},
      reason: p.reason ?? null,
      status: "succeeded",
      created: now(),
    };
    db.refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    await emit("refund.created", refund);
    // The charge carries amount_refunded / refunded / currency / payment_intent; no `refunds` list:
    // Stripe stopped including it on charges by default in API 2022-11-15.
    await emit("charge.refunded", charge);
    return refund;
  }

  // ---- test-only lifecycle controls (not part of Stripe's API) -------------------------------------
  // outcome: "paid" (card) | "processing" (async method, e.g. bank transfer: completes unpaid, settles later).
  // amount_total / currency simulate a customer who paid something other than what the order says.
  async function completeSession(id, { outcome = "paid", amount_total, currency } = {}) {
    const rec = await touch(id);
    if (rec.session.status !== "open")
      throw new ApiError(400, { message: `Session ${id} is ${rec.session.status}, not open` });
    if (outcome !== "paid" && outcome !== "processing")
      throw new ApiError(400, { param: "outcome", message: "outcome must be paid or processing" });
    const s = rec.session;
    if (amount_total !== undefined && !(Number.isInteger(Number(amount_total)) && Number(amount_total) >= 0))
      throw new ApiError(400, { param: "amount_total", message: "Invalid non-negative integer" });
    if (amount_total !== undefined) s.amount_total = Number(amount_total);
    if (currency) s.currency = String(currency).toLowerCase();
    const pi = {
      id: rid("pi"),
      object: "payment_intent",
      amount: s.amount_total,
      amount_received: 0,
      currency: s.currency,
      status: "processing",
      latest_charge: null,
      metadata: {},
      created: now(),
      livemode: false,
    };
    db.paymentIntents.set(pi.id, pi);
    Object.assign(s, { status: "complete", payment_intent: pi.id, url: null });
    if (outcome === "paid") settle(pi, s);
    else s.payment_status = "unpaid";
    return emit("checkout.session.completed", s);
  }
  function settle(pi, s) {
    const charge = {
      id: rid("ch"),
      object: "charge",
      amount: pi.amount,
      amount_captured: pi.amount,
      amount_refunded: 0,
      currency: pi.currency,
      payment_intent: pi.id,
      paid: true,
      captured: true,
      refunded: false,
      status: "succeeded",
      metadata: {},
      created: now(),
    };
    db.charges.set(charge.id, charge);
    Object.assign(pi, { status: "succeeded", amount_received: pi.amount, latest_charge: charge.id });
    s.payment_status = "paid";
  }
  async function asyncResult(id, ok) {
    const { session: s } = get("checkout.session", db.sessions, id);
    const pi = db.paymentIntents.get(s.payment_intent);
    if (s.status !== "complete" || pi?.status !== "processing")
      throw new ApiError(400, { message: `Session ${id} has no pending async payment` });
    if (ok) settle(pi, s);
    else pi.status = "requires_payment_method";
    return emit(ok ? "checkout.session.async_payment_succeeded" : "checkout.session.async_payment_failed", s);
  }
  async function expireNow(id) {
    const rec = await touch(id);
    if (rec.session.status !== "open")
      throw new ApiError(400, { message: `Session ${id} is ${rec.session.status}, not open` });
    rec.session.expires_at = now();
    await expire(rec);
    return rec.session;
  }
  const publicEvent = (id) => {
    if (!payloads.has(id)) throw missing("event", id);
    return JSON.parse(payloads.get(id));
  };
  function listEvents(q) {
    let list = events.filter((e) => !q.type || e.type === q.type).reverse(); // newest first, like Stripe
    if (q.starting_after) list = list.slice(list.findIndex((e) => e.id === q.starting_after) + 1);
    const limit = Number(q.limit ?? 10);
    return {
      object: "list",
      url: "/v1/events",
      has_more: list.length > limit,
      data: list.slice(0, limit).map((e) => publicEvent(e.id)),
    };
  }

  // ---- routing --------------------------------------------------------------------------------------
  const S = "\\/checkout\\/sessions\\/([^/]+)";
  const routes = [
    ["POST", /^\/v1\/checkout\/sessions$/, (m, b) => createSession(b)],
    ["GET", RegExp(`^/v1${S}$`), async (m, b, q) => expand((await touch(m[1])).session, q.expand)],
    ["POST", RegExp(`^/v1${S}/expire$`), (m) => expireSession(m[1])],
    [
      "GET",
      RegExp(`^/v1${S}/line_items$`),
      async (m) => ({
        object: "list",
        data: (await touch(m[1])).items,
        has_more: false,
        url: `/v1/checkout/sessions/${m[1]}/line_items`,
      }),
    ],
    ["GET", /^\/v1\/payment_intents\/([^/]+)$/, (m) => get("payment_intent", db.paymentIntents, m[1])],
    ["GET", /^\/v1\/charges\/([^/]+)$/, (m) => get("charge", db.charges, m[1])],
    ["POST", /^\/v1\/refunds$/, (m, b) => createRefund(b)],
    ["GET", /^\/v1\/refunds\/([^/]+)$/, (m) => get("refund", db.refunds, m[1])],
    ["GET", /^\/v1\/events\/([^/]+)$/, (m) => publicEvent(m[1])],
    ["GET", /^\/v1\/events$/, (m, b, q) => listEvents(q)],
    ["POST", RegExp(`^/_test${S}/complete$`), (m, b) => completeSession(m[1], b)],
    ["POST", RegExp(`^/_test${S}/async_payment_(succeeded|failed)$`), (m) => asyncResult(m[1], m[2] === "succeeded")],
    ["POST", RegExp(`^/_test${S}/expire_now$`), (m) => expireNow(m[1])],
    [
      "GET",
      /^\/_test\/events$/,
      (m, b, q) => ({
        object: "list",
        data: events.filter((e) => !q.type || e.type === q.type),
        webhooks: hookState(),
      }),
    ],
    ["POST", /^\/_test\/events\/([^/]+)\/redeliver$/, (m) => redeliver(m[1])],
    ["POST", /^\/_test\/webhooks\/pause$/, () => (pauseWebhooks(), hookState())],
    ["POST", /^\/_test\/webhooks\/resume$/, (m, b) => (resumeWebhooks({ order: b.order }), hookState())],
  ];
  const pageContext = {
    merchantName,
    find: (id) => (db.sessions.has(id) ? touch(id) : undefined),
    complete: (id, outcome) => completeSession(id, { outcome }),
    paymentIntent: (id) => (id ? db.paymentIntents.get(id) : undefined),
  };

  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url, "http://x");
    const send = (status, json, extra = {}) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": rid("req", 14), ...extra });
      res.end(JSON.stringify(json));
    };
    const body = parseForm(raw),
      query = parseForm(url.search.slice(1));
    requests.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body: raw });
    try {
      const page = url.pathname.match(/^\/pay\/([^/]+)$/);
      if (page) return await handlePayPage(req, res, decodeURIComponent(page[1]), body, pageContext);
      if (!url.pathname.startsWith("/_test/")) {
        const auth = req.headers.authorization ?? "";
        if (!/^Bearer sk_test_/.test(auth)) throw new ApiError(401, { message: "Invalid API Key provided" });
      }
      const key = req.method === "POST" && req.headers["idempotency-key"];
      const idemKey = key && `${req.method} ${url.pathname} ${key}`;
      if (idemKey && idem.has(idemKey)) {
        const prev = idem.get(idemKey);
        if (prev.body !== JSON.stringify(body))
          throw new ApiError(400, {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          });
        return send(prev.status, JSON.parse(prev.json), { "idempotent-replayed": "true" }); // snapshot, like Stripe
      }
      const route = routes.find(([method, re]) => method === req.method && re.test(url.pathname));
      if (!route) throw new ApiError(404, { message: `Unrecognized request URL (${req.method}: ${url.pathname}).` });
      const json = await route[2](url.pathname.match(route[1]), body, query);
      if (idemKey) idem.set(idemKey, { body: JSON.stringify(body), status: 200, json: JSON.stringify(json) }); // only successes are cached
      send(200, json);
    } catch (err) {
      if (res.headersSent) return res.destroy();
      if (err instanceof ApiError) return send(err.status, { error: err.error });
      send(500, { error: { type: "api_error", message: String(err?.stack ?? err) } });
    }
  });

  return {
    server,
    db,
    events,
    requests,
    get url() {
      const a = server.address();
      return a && typeof a === "object" ? `http://127.0.0.1:${a.port}` : undefined;
    },
    listen: (port = 0) =>
      new Promise((r) =>
        server.listen(port, "127.0.0.1", () => {
          base ??= `http://127.0.0.1:${server.address().port}`;
          r(server.address().port);
        }),
      ),
    close: () =>
      new Promise((r) => {
        hooks.closed = true;
        clearInterval(sweeper);
        clearTimeout(hooks.timer);
        hooks.abort.abort();
        for (const job of hooks.queue) job.firstDone();
        checkIdle();
        server.closeAllConnections?.();
        server.close(() => r());
      }),
    /** Resolves when no webhook delivery is queued, waiting to retry or in flight (queued ones don't count while paused). */
    idle: () =>
      new Promise((r) => {
        hooks.waiters.push(r);
        checkIdle();
      }),
    setWebhookUrl: (url) => {
      hooks.url = url || undefined;
      pump();
    },
    pauseWebhooks,
    resumeWebhooks,
    redeliver,
    completeSession,
    expireNow,
  };
}

// `node tests/support/fake-stripe.mjs [port]` runs it standalone (WEBHOOK_URL, WEBHOOK_SECRET,
// PUBLIC_URL and RETRY_DELAYS_MS="500,1000,..." from the environment); exits on SIGTERM/SIGINT.
if (import.meta.main ?? (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url)) {
  const env = process.env;
  const fake = createFakeStripe({
    webhookUrl: env.WEBHOOK_URL || undefined,
    webhookSecret: env.WEBHOOK_SECRET,
    publicUrl: env.PUBLIC_URL || undefined,
    retryDelaysMs: env.RETRY_DELAYS_MS ? env.RETRY_DELAYS_MS.split(",").map(Number) : undefined,
  });
  for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => fake.close().then(() => process.exit(0)));
  const port = await fake.listen(Number(process.argv[2] ?? 12111));
  console.log(`fake-stripe listening on http://127.0.0.1:${port}`);
}
