import { toNodeHandler } from "better-auth/node";
import express, { type Router } from "express";
import type { Auth } from "../auth/auth.ts";
import { authEndpointOpenTo } from "../auth/http-surface.ts";
import { isTrustedOrigin, type OriginPolicy } from "../auth/origins.ts";
import { AUTH_BODY_LIMIT_BYTES, bodyLimit, collectBody } from "./body-limit.ts";

/**
 * Mounts Better Auth's HTTP handler behind the store's own checks: a body-size cap (413, counted
 * as the body streams; the app's own bodyLimit decides when it ran first), the endpoints a page's
 * script may call (server/auth/http-surface.ts; 404 for every other) and an origin allow-list for
 * every state-changing request (403 otherwise).
 */
export function authRouter(auth: Auth, allowedOrigins: OriginPolicy | string[]): Router {
  const router = express.Router();
  const handler = toNodeHandler(auth);
  router.all(
    "/api/auth/{*splat}",
    bodyLimit(() => AUTH_BODY_LIMIT_BYTES),
    async (req, res, next) => {
      if (!authEndpointOpenTo("browser", req.method, req.path.slice("/api/auth".length))) {
        res.status(404).json({ code: "NOT_FOUND", message: "Not found." });
        return;
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        if (!isTrustedOrigin({ get: (name) => req.get(name) ?? null }, allowedOrigins)) {
          res.status(403).json({
            code: "UNTRUSTED_ORIGIN",
            message: "This request's origin is not in the store's authorized domains.",
          });
          return;
        }
        // The handler gets the body whole, so one cut off at the cap never reaches it (413 is sent).
        const body = await collectBody(req);
        if (body === null) return;
        if (body.length > 0) req.body = body.toString("utf8");
      }
      handler(req, res).catch(next);
    },
  );
  return router;
}
