import type { AddressInfo } from "node:net";
import express from "express";
import { createAuth, type Auth } from "../../server/auth/auth.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import { trustedOrigins } from "../../server/auth/origins.ts";
import { loadConfig } from "../../server/config.ts";
import type { Db } from "../../server/db/connection.ts";
import { authRouter } from "../../server/http/auth-routes.ts";
import { CLIENT_IP_HEADER } from "../../server/security/rate-limit.ts";

export interface AuthApp {
  url: string;
  origin: string;
  auth: Auth;
  close(): Promise<void>;
  /** Over HTTP, as a page's script calls /api/auth/* (only the browser's part of the allow-list answers). */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** As the store's own route actions call Better Auth (callAuthEndpoint: the handler, in process). */
  store(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** The real auth stack (Better Auth + the store's router) on a real port, over a test database. */
export async function startAuthApp(db: Db, env: Record<string, string> = {}): Promise<AuthApp> {
  const app = express();
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const cfg = loadConfig({
    SITE_URL: origin,
    NODE_ENV: "test",
    AUTH_SECRET: "integration-secret-0123456789abcdef0123",
    ...env,
  });
  await migrateAuth(db, cfg);
  const auth = createAuth(db, cfg);
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.get("x-test-ip") ?? req.ip ?? "unknown";
    next();
  });
  app.use(authRouter(auth, trustedOrigins(cfg)));
  const request = (path: string, body: unknown, headers: Record<string, string>) =>
    new Request(`${origin}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return {
    url: origin,
    origin,
    auth,
    close: () => new Promise((resolve) => server.close(() => resolve())),
    post: (path, body, headers = {}) => fetch(request(path, body, headers)),
    store: (path, body, headers = {}) => {
      const { "x-test-ip": ip, ...rest } = headers;
      return auth.handler(request(path, body, { ...rest, [CLIENT_IP_HEADER]: ip ?? "127.0.0.1" }));
    },
  };
}
