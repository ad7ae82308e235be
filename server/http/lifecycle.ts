/**
 * The process's serving state, shared by the readiness probe, the request handler and shutdown:
 * once draining, /readyz answers 503 and every reply closes its connection, so a load balancer's
 * pooled connections end with a response rather than being cut while idle.
 */
export const lifecycle = { draining: false, inFlight: 0 };
