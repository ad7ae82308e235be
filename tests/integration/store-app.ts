import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import { createAuth } from "../../server/auth/auth.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import type { AppConfig } from "../../server/config.ts";
import type { Db } from "../../server/db/connection.ts";
import { createHttpApp } from "../../server/http/app.ts";

const DB_KEY = Symbol.for("toolstore.db");
const AUTH_KEY = Symbol.for("toolstore.auth");

export interface StoreApp {
  base: string;
  close(): Promise<void>;
}

/**
 * The real Express app over a test database and a stand-in build, on a free port: the process-wide
 * auth (and, with `shareDb`, database) that route modules reach are this database's, until close.
 */
export async function serveStoreApp(db: Db, cfg: AppConfig, build: ServerBuild, options: { shareDb?: boolean } = {}): Promise<StoreApp> {
  await migrateAuth(db, cfg);
  const g = globalThis as Record<symbol, unknown>;
  if (options.shareDb) g[DB_KEY] = db;
  g[AUTH_KEY] = createAuth(db, cfg);
  const server: http.Server = createHttpApp({ build, clientFiles: "build/client", db }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      delete g[AUTH_KEY];
      if (options.shareDb) delete g[DB_KEY];
    },
  };
}
