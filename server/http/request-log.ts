import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { log } from "../ops/log.ts";
import { metrics } from "../ops/metrics.ts";
import { lifecycle } from "./lifecycle.ts";
import { routeLabel } from "./route-label.ts";

const QUIET = new Set(["/healthz", "/readyz", "/metrics"]);
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * One JSON log line and one histogram observation per request (request id, route pattern, status,
 * duration) — never the raw path, query, cookies or body. Probes and scrapes are left out.
 */
export function requestLog(options: { trustRequestId: (req: Request) => boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (QUIET.has(req.path)) return next();
    const started = process.hrtime.bigint();
    const incoming = req.get("x-request-id");
    const id = incoming && REQUEST_ID.test(incoming) && options.trustRequestId(req) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", id);
    // React Router's request is built from these headers: the error page and its log line use the id.
    req.headers["x-request-id"] = id;
    lifecycle.inFlight++;
    if (lifecycle.draining) res.setHeader("Connection", "close");
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      lifecycle.inFlight--;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req.path);
      const status = res.writableFinished ? res.statusCode : 499;
      metrics().httpDuration.observe({ method: req.method, route, status: String(status) }, seconds);
      log().info(
        {
          reqId: id,
          method: req.method,
          route,
          status,
          ms: Math.round(seconds * 10_000) / 10,
          cache: res.getHeader("x-page-cache") ?? undefined,
        },
        "request",
      );
    };
    res.on("finish", finish);
    res.on("close", finish);
    next();
  };
}
