import { toNodeHandler } from "better-auth/node";
import express, { type Router } from "express";
import type { Auth } from "../auth/auth.ts";
import { isTrustedOrigin } from "../auth/origins.ts";

export const AUTH_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Mounts Better Auth's HTTP handler behind the store's own checks: an origin allow-list for every
 * state-changing request (403 otherwise) and a body-size cap (413).
 */
export function authRouter(auth: Auth, allowedOrigins: string[]): Router {
  const router = express.Router();
  const handler = toNodeHandler(auth);
  router.all("/api/auth/{*splat}", (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      if (!isTrustedOrigin({ get: (name) => req.get(name) ?? null }, allowedOrigins)) {
        res.status(403).json({ code: "UNTRUSTED_ORIGIN", message: "This request's origin is not in the store's authorized domains." });
        return;
      }
      if (Number(req.get("content-length") ?? 0) > AUTH_BODY_LIMIT_BYTES || req.get("transfer-encoding")) {
        res.status(413).json({ code: "BODY_TOO_LARGE", message: "The request body is too large." });
        return;
      }
    }
    handler(req, res).catch(next);
  });
  return router;
}
