// fake-stripe.mjs — minimal stateful Stripe-like HTTP server for tests (node:http only, no deps),
// for the payments work (issue 13). stripe-stateful-mock (0.0.16, tried first) has no Checkout
// Sessions or PaymentIntents and refunds only by charge, so the part of the API the store uses is
// written here (tests/integration/fake-stripe.test.ts pins it against the real SDK).
// Speaks the subset of the v1 API that a Checkout (mode=payment) integration uses, as the official
// `stripe` SDK sends it: form-encoded bodies with bracket keys, Bearer auth, Idempotency-Key.
// Test-only control routes under /_test/* move sessions through their lifecycle and emit signed webhooks.
import http from "node:http";
import crypto from "node:crypto";

const now = () => Math.floor(Date.now() / 1000);
const rid = (prefix, n = 24) => `${prefix}_${crypto.randomBytes(n).toString("base64url").slice(0, n)}`;

class ApiError extends Error {
  constructor(status, error) { super(error.message); this.status = status; this.error = { type: "invalid_request_error", ...error }; }
}
const missing = (kind, id) => new ApiError(404, { code: "resource_missing", param: "id", message: `No such ${kind}: '${id}'` });

/** "a[b][0][c]=v" pairs -> nested object/arrays (what qs does; the SDK never percent-encodes brackets). */
export function parseForm(str) {
  const out = {};
  for (const [rawKey, value] of new URLSearchParams(str)) {
    const path = rawKey.replace(/\]/g, "").split("[");
    let node = out;
    path.forEach((seg, i) => {
      const last = i === path.length - 1;
      if (last) { node[seg] = value; return; }
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

export function createFakeStripe({ webhookUrl, webhookSecret } = {}) {
  const db = { sessions: new Map(), paymentIntents: new Map(), charges: new Map(), refunds: new Map() };
  const idem = new Map(); // `${method} ${path} ${key}` -> { body, status, json }
  const events = [];      // every event emitted, newest last (tests can inspect)
  const requests = [];    // request log: { method, path, headers, body }

  const get = (kind, map, id) => { const o = map.get(id); if (!o) throw missing(kind, id); return o; };

  async function emit(type, object) {
    const event = {
      id: rid("evt"), object: "event", api_version: "2026-10-28.endive", created: now(), livemode: false,
      pending_webhooks: webhookUrl ? 1 : 0, request: { id: null, idempotency_key: null }, type,
      data: { object: structuredClone(object) },
    };
    events.push(event);
    if (webhookUrl) {
      const payload = JSON.stringify(event);
      const res = await fetch(webhookUrl, { method: "POST", body: payload,
        headers: { "content-type": "application/json", "stripe-signature": signPayload(payload, webhookSecret) } });
      event.delivery_status = res.status;
    }
    return event;
  }

  // ---- Stripe API handlers -------------------------------------------------------------------------
  function createSession(p) {
    if (p.mode !== "payment") throw new ApiError(400, { param: "mode", message: "fake-stripe supports mode=payment only" });
    if (!p.success_url) throw new ApiError(400, { param: "success_url", message: "Missing required param: success_url." });
    const items = (p.line_items ?? []).map((li, i) => {
      const pd = li.price_data;
      if (!pd?.currency || pd.unit_amount === undefined) throw new ApiError(400, { param: `line_items[${i}][price_data]`, message: "price_data.currency and price_data.unit_amount are required" });
      const quantity = Number(li.quantity ?? 1), unit = Number(pd.unit_amount), total = unit * quantity;
      return { id: rid("li"), object: "item", amount_discount: 0, amount_subtotal: total, amount_tax: 0, amount_total: total,
        currency: pd.currency, description: pd.product_data?.name ?? null, quantity,
        price: { id: rid("price"), object: "price", currency: pd.currency, unit_amount: unit, product: rid("prod"), type: "one_time" } };
    });
    if (!items.length) throw new ApiError(400, { param: "line_items", message: "line_items is required in payment mode." });
    const currencies = new Set(items.map(i => i.currency));
    if (currencies.size > 1) throw new ApiError(400, { param: "line_items", message: "All line items must use the same currency." });
    const created = now();
    const expires_at = p.expires_at ? Number(p.expires_at) : created + 24 * 3600;
    if (expires_at < created + 30 * 60 || expires_at > created + 24 * 3600)
      throw new ApiError(400, { param: "expires_at", message: "expires_at must be 30 minutes to 24 hours after creation." });
    const amount = items.reduce((s, i) => s + i.amount_total, 0);
    const id = rid("cs_test", 58);
    const session = {
      id, object: "checkout.session", mode: "payment", status: "open", payment_status: "unpaid",
      amount_subtotal: amount, amount_total: amount, currency: [...currencies][0],
      client_reference_id: p.client_reference_id ?? null, metadata: p.metadata ?? {},
      success_url: p.success_url, cancel_url: p.cancel_url ?? null, created, expires_at, livemode: false,
      payment_intent: null, // real Stripe (API >= 2022-08-01) creates the PaymentIntent only when the customer pays
      // stripe@23 (API 2026-09-30.endive+) types only allow `allowed_payment_method_types`; older SDKs send `payment_method_types`
      payment_method_types: p.allowed_payment_method_types ?? p.payment_method_types ?? ["card"],
      allowed_payment_method_types: p.allowed_payment_method_types ?? null, customer: null, customer_details: null,
      url: `https://checkout.stripe.com/c/pay/${id}`,
    };
    db.sessions.set(id, { session, items });
    return session;
  }

  function expand(session, expandList = []) {
    const s = structuredClone(session);
    if (expandList.includes("payment_intent") && s.payment_intent) s.payment_intent = db.paymentIntents.get(s.payment_intent);
    return s;
  }

  async function expireSession(id) {
    const rec = get("checkout.session", db.sessions, id);
    if (rec.session.status !== "open")
      throw new ApiError(400, { message: `Only Checkout Sessions with a status of \`open\` can be expired. This session has status \`${rec.session.status}\`.` });
    Object.assign(rec.session, { status: "expired", url: null });
    await emit("checkout.session.expired", rec.session);
    return rec.session;
  }

  async function createRefund(p) {
    let charge;
    if (p.payment_intent) {
      const pi = get("payment_intent", db.paymentIntents, p.payment_intent);
      if (pi.status !== "succeeded" || !pi.latest_charge)
        throw new ApiError(400, { code: "charge_not_refundable", message: `This PaymentIntent (${pi.id}) does not have a successful charge to refund.` });
      charge = db.charges.get(pi.latest_charge);
    } else if (p.charge) charge = get("charge", db.charges, p.charge);
    else throw new ApiError(400, { message: "One of the following params should be provided for this request: payment_intent or charge." });
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining <= 0) throw new ApiError(400, { code: "charge_already_refunded", message: `Charge ${charge.id} has already been refunded.` });
    const amount = p.amount !== undefined ? Number(p.amount) : remaining;
    if (!Number.isInteger(amount) || amount < 1) throw new ApiError(400, { code: "parameter_invalid_integer", param: "amount", message: "Invalid positive integer" });
    if (amount > remaining)
      throw new ApiError(400, { code: "amount_too_large", param: "amount", message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})` });
    const refund = { id: rid("re"), object: "refund", amount, currency: charge.currency, charge: charge.id,
      payment_intent: charge.payment_intent, metadata: p.metadata ?? {}, reason: p.reason ?? null, status: "succeeded", created: now() };
    db.refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    await emit("refund.created", refund);
    await emit("charge.refunded", charge);
    return refund;
  }

  // ---- test-only lifecycle controls (not part of Stripe's API) -------------------------------------
  // outcome: "paid" (card) | "processing" (async method, e.g. ACH: completes unpaid, settles later)
  async function completeSession(id, outcome = "paid") {
    const rec = get("checkout.session", db.sessions, id);
    if (rec.session.status !== "open") throw new ApiError(400, { message: `Session ${id} is ${rec.session.status}, not open` });
    const s = rec.session;
    const pi = { id: rid("pi"), object: "payment_intent", amount: s.amount_total, amount_received: 0, currency: s.currency,
      status: "processing", latest_charge: null, metadata: {}, created: now(), livemode: false };
    db.paymentIntents.set(pi.id, pi);
    Object.assign(s, { status: "complete", payment_intent: pi.id });
    if (outcome === "paid") settle(pi, s); else s.payment_status = "unpaid";
    return emit("checkout.session.completed", s);
  }
  function settle(pi, s) {
    const charge = { id: rid("ch"), object: "charge", amount: pi.amount, amount_captured: pi.amount, amount_refunded: 0,
      currency: pi.currency, payment_intent: pi.id, paid: true, captured: true, refunded: false, status: "succeeded", metadata: {}, created: now() };
    db.charges.set(charge.id, charge);
    Object.assign(pi, { status: "succeeded", amount_received: pi.amount, latest_charge: charge.id });
    s.payment_status = "paid";
  }
  async function asyncResult(id, ok) {
    const { session: s } = get("checkout.session", db.sessions, id);
    const pi = db.paymentIntents.get(s.payment_intent);
    if (s.status !== "complete" || pi?.status !== "processing") throw new ApiError(400, { message: `Session ${id} has no pending async payment` });
    if (ok) settle(pi, s); else pi.status = "requires_payment_method";
    return emit(ok ? "checkout.session.async_payment_succeeded" : "checkout.session.async_payment_failed", s);
  }

  // ---- routing --------------------------------------------------------------------------------------
  const routes = [
    ["POST", /^\/v1\/checkout\/sessions$/, (m, b) => createSession(b)],
    ["GET", /^\/v1\/checkout\/sessions\/([^/]+)$/, (m, b, q) => expand(get("checkout.session", db.sessions, m[1]).session, q.expand)],
    ["POST", /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, m => expireSession(m[1])],
    ["GET", /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/, m => ({ object: "list", data: get("checkout.session", db.sessions, m[1]).items, has_more: false, url: `/v1/checkout/sessions/${m[1]}/line_items` })],
    ["GET", /^\/v1\/payment_intents\/([^/]+)$/, m => get("payment_intent", db.paymentIntents, m[1])],
    ["GET", /^\/v1\/charges\/([^/]+)$/, m => get("charge", db.charges, m[1])],
    ["POST", /^\/v1\/refunds$/, (m, b) => createRefund(b)],
    ["GET", /^\/v1\/refunds\/([^/]+)$/, m => get("refund", db.refunds, m[1])],
    ["POST", /^\/_test\/checkout\/sessions\/([^/]+)\/complete$/, (m, b) => completeSession(m[1], b.outcome)],
    ["POST", /^\/_test\/checkout\/sessions\/([^/]+)\/async_payment_(succeeded|failed)$/, m => asyncResult(m[1], m[2] === "succeeded")],
  ];

  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url, "http://x");
    const send = (status, json, extra = {}) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": rid("req", 14), ...extra });
      res.end(JSON.stringify(json));
    };
    const body = parseForm(raw), query = parseForm(url.search.slice(1));
    requests.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body: raw });
    try {
      if (!url.pathname.startsWith("/_test/")) {
        const auth = req.headers.authorization ?? "";
        if (!/^Bearer sk_test_/.test(auth)) throw new ApiError(401, { message: "Invalid API Key provided" });
      }
      const key = req.method === "POST" && req.headers["idempotency-key"];
      const idemKey = key && `${req.method} ${url.pathname} ${key}`;
      if (idemKey && idem.has(idemKey)) {
        const prev = idem.get(idemKey);
        if (prev.body !== JSON.stringify(body))
          throw new ApiError(400, { type: "idempotency_error", message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.` });
        return send(prev.status, JSON.parse(prev.json), { "idempotent-replayed": "true" }); // snapshot, like Stripe
      }
      const route = routes.find(([method, re]) => method === req.method && re.test(url.pathname));
      if (!route) throw new ApiError(404, { message: `Unrecognized request URL (${req.method}: ${url.pathname}).` });
      const json = await route[2](url.pathname.match(route[1]), body, query);
      if (idemKey) idem.set(idemKey, { body: JSON.stringify(body), status: 200, json: JSON.stringify(json) }); // only successes are cached
      send(200, json);
    } catch (err) {
      if (err instanceof ApiError) return send(err.status, { error: err.error });
      send(500, { error: { type: "api_error", message: String(err?.stack ?? err) } });
    }
  });

  return {
    server, db, events, requests,
    listen: (port = 0) => new Promise(r => server.listen(port, "127.0.0.1", () => r(server.address().port))),
    close: () => new Promise(r => { server.closeAllConnections?.(); server.close(r); }),
  };
}

// `node fake-stripe.mjs [port]` runs it standalone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const fake = createFakeStripe({ webhookUrl: process.env.WEBHOOK_URL, webhookSecret: process.env.WEBHOOK_SECRET });
  fake.listen(Number(process.argv[2] ?? 12111)).then(p => console.log(`fake-stripe listening on http://127.0.0.1:${p}`));
}
