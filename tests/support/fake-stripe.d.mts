// Types for fake-stripe.mjs (the local Stripe stand-in used by the payments tests).
import type http from "node:http";

export function parseForm(str: string): Record<string, unknown>;
export function signPayload(payload: string, secret: string, t?: number): string;
export const DEFAULT_RETRY_DELAYS_MS: number[];

export interface FakeStripeOptions {
  /** Where signed events are POSTed; can be set or changed later with setWebhookUrl. */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Base of session.url (`${publicUrl}/pay/${id}`); defaults to the server's own http://127.0.0.1:<port>. */
  publicUrl?: string;
  /** Shown on the hosted page ("Pay ToolHub Wholesale"). */
  merchantName?: string;
  /** Wait before each retry of a failed delivery; attempts = 1 + length. Default DEFAULT_RETRY_DELAYS_MS. */
  retryDelaysMs?: number[];
  /** A delivery that takes longer counts as failed (default 10 000). */
  webhookTimeoutMs?: number;
  /** "async" (default, as Stripe): API requests never wait for deliveries. "sync": requests that emit
   * events wait for each event's first delivery attempt (failures are still retried in the background). */
  webhooks?: "async" | "sync";
  /** Enforce Stripe's real expires_at window (30 minutes to 24 hours). Default false: 1 second to 24 hours. */
  strictExpiry?: boolean;
  /** How often open sessions are checked for expiry (default 1000; 0 = only when a request touches them). */
  expiryCheckMs?: number;
}

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed" | "no_endpoint";

/** An emitted event as recorded: Stripe's event fields plus how its delivery went. */
export interface FakeStripeEvent {
  id: string;
  object: "event";
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  data: { object: any };
  delivery_status: WebhookDeliveryStatus;
  delivery_attempts: number;
  /** HTTP status of the last attempt, null if it got no response. */
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

export interface FakeStripe {
  server: http.Server;
  db: Record<string, Map<string, any>>;
  events: FakeStripeEvent[];
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  /** http://127.0.0.1:<port> once listening. */
  readonly url: string | undefined;
  listen(port?: number): Promise<number>;
  close(): Promise<void>;
  /** Resolves when no delivery is queued, waiting to retry or in flight (while paused: when none is in flight). */
  idle(): Promise<void>;
  setWebhookUrl(url: string | undefined): void;
  pauseWebhooks(): void;
  /** order "reverse" sends the events queued while paused newest first (out-of-order delivery). */
  resumeWebhooks(options?: { order?: "fifo" | "reverse" }): void;
  /** Sends the same event (same id and body) again, newly signed. */
  redeliver(eventId: string): FakeStripeEvent;
  /** What the customer does on the hosted page, or with a different paid amount (amount-mismatch tests). */
  completeSession(
    sessionId: string,
    options?: { outcome?: "paid" | "processing"; amount_total?: number; currency?: string },
  ): Promise<FakeStripeEvent>;
  /** Sets expires_at to now and expires the open session (emits checkout.session.expired). */
  expireNow(sessionId: string): Promise<any>;
}

export function createFakeStripe(options?: FakeStripeOptions): FakeStripe;
