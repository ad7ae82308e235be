import type { Server } from "node:http";
import net from "node:net";
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
  // Stop listening only. http.Server#close() would also drop every idle keep-alive connection at
  // once (Node ≥ 19), and a proxy may be sending a request on one of them at that very moment: a
  // POST lost that way is a 502 (nginx never retries a POST it has sent). During the grace period
  // a request on a pooled connection is still served, answered with `Connection: close`.
  net.Server.prototype.close.call(server);
  await sleep(Math.min(options.graceMs ?? 1000, options.timeoutMs));
  server.closeIdleConnections();
  while (lifecycle.inFlight > 0 && Date.now() - started < options.timeoutMs) await sleep(25);
  const cut = lifecycle.inFlight;
  server.closeAllConnections();
  await options.stopWork();
  options.log(
    cut
      ? `Stopped after ${options.timeoutMs} ms with ${cut} request(s) cut off`
      : `Stopped cleanly in ${Date.now() - started} ms`,
  );
}
