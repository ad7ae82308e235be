import type { Server } from "node:http";
import { lifecycle } from "./lifecycle.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ShutdownOptions {
  /** Longest wait for requests in flight, in ms (SHUTDOWN_TIMEOUT_S). */
  timeoutMs: number;
  /** How long idle keep-alive connections stay open for a last request (answered with Connection: close). */
  graceMs?: number;
  /** Stops background work (mail sender, jobs); awaited after the last request. */
  stopWork(): Promise<unknown>;
  log(line: string): void;
}

/**
 * Graceful stop: refuse new connections, let the load balancer's pooled connections end with a
 * response, wait for requests in flight (up to the timeout), then stop background work cleanly.
 */
export async function shutDownGracefully(server: Server, options: ShutdownOptions): Promise<void> {
  const started = Date.now();
  lifecycle.draining = true;
  server.close();
  await sleep(Math.min(options.graceMs ?? 1000, options.timeoutMs));
  server.closeIdleConnections();
  while (lifecycle.inFlight > 0 && Date.now() - started < options.timeoutMs) await sleep(25);
  const cut = lifecycle.inFlight;
  server.closeAllConnections();
  await options.stopWork();
  options.log(cut ? `Stopped after ${options.timeoutMs} ms with ${cut} request(s) cut off` : `Stopped cleanly in ${Date.now() - started} ms`);
}
