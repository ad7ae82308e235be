import type { Server } from "node:http";
import net from "node:net";
import { lifecycle } from "./lifecycle.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Longer than the fleet's nginx keeps an idle connection to an instance (keepalive_timeout 2s in
 * scripts/fleet.mjs): by then the proxy has closed every connection it was not using.
 */
const IDLE_GRACE_MS = 3000;

const openConnections = (server: Server) =>
  new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));

export interface ShutdownOptions {
  /** Longest wait for requests in flight, in ms (SHUTDOWN_TIMEOUT_S). */
  timeoutMs: number;
  /**
   * How long open keep-alive connections are left for their client to close, in ms (default
   * IDLE_GRACE_MS). Requests on them are answered with `Connection: close`.
   */
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
  // POST lost that way is a 502 (nginx never retries a POST it has sent). Only the client can
  // close an idle connection without that race, so the grace period waits for it to: a request
  // on a pooled connection is still served, answered with `Connection: close`, and a proxy closes
  // the connections it leaves idle after its own idle timeout, shorter than the grace period.
  net.Server.prototype.close.call(server);
  const graceEnds = started + Math.min(options.graceMs ?? IDLE_GRACE_MS, options.timeoutMs);
  let open = await openConnections(server);
  while (Date.now() < graceEnds && open > 0) {
    await sleep(25);
    open = await openConnections(server);
  }
  // A browser talking to the store directly may keep a connection for minutes: closed now (a
  // browser sends a request again when a reused connection closes before any answer).
  const idle = open - lifecycle.inFlight;
  if (idle > 0) options.log(`Closing ${idle} idle connection(s) left open by their clients`);
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
