import type { FuzzTarget } from "./targets.ts";

/**
 * Endpoints the fuzzer cannot find in app/routes.ts or in Better Auth's API: Express routes,
 * static files, webhooks. Append one line per endpoint, e.g. a payment webhook:
 *   { pattern: "/api/payments/:provider/webhook", source: "extra", methods: ["POST"], body: "json", fields: ["id", "type", "data"], query: [] },
 */
export const EXTRA_TARGETS: FuzzTarget[] = [
  { pattern: "/healthz", source: "extra", methods: ["GET"], body: "json", fields: [], query: [] },
  { pattern: "/assets/*", source: "extra", methods: ["GET"], body: "json", fields: [], query: [] },
  { pattern: "/favicon.ico", source: "extra", methods: ["GET"], body: "json", fields: [], query: [] },
  {
    pattern: "/api/auth/*",
    source: "extra",
    methods: ["GET", "POST"],
    body: "json",
    fields: ["email", "password", "token"],
    query: ["callbackURL"],
  },
  // Stripe's webhook (server/http/payment-routes.ts): a raw JSON body checked against its Stripe-Signature; 404 while card payments are off.
  {
    pattern: "/api/payments/stripe/webhook",
    source: "extra",
    methods: ["POST"],
    body: "json",
    fields: ["id", "object", "type", "created", "data"],
    query: [],
  },
];
