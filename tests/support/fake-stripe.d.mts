// Types for fake-stripe.mjs (the local Stripe stand-in used by the payments tests).
import type http from "node:http";

export function parseForm(str: string): Record<string, unknown>;
export function signPayload(payload: string, secret: string, t?: number): string;
export function createFakeStripe(options?: { webhookUrl?: string; webhookSecret?: string }): {
  server: http.Server;
  db: Record<string, Map<string, any>>;
  events: any[];
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  listen(port?: number): Promise<number>;
  close(): Promise<void>;
};
