import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import { createAuth, useAuthForTests } from "../../server/auth/auth.ts";
import { migrateAuth } from "../../server/auth/migrate.ts";
import type { AppConfig } from "../../server/config.ts";
import { useDbForTests, type Db } from "../../server/db/connection.ts";
import { createHttpApp } from "../../server/http/app.ts";

export interface StoreApp {
  base: string;
  close(): Promise<void>;
}

/**
 * The real Express app over a test database and a stand-in build, on a free port: the process-wide
 * auth (and, with `shareDb`, database) that route modules reach are this database's, until close.
 */
export async function serveStoreApp(
  db: Db,
  cfg: AppConfig,
  build: ServerBuild,
  options: { shareDb?: boolean } = {},
): Promise<StoreApp> {
  await migrateAuth(db, cfg);
  if (options.shareDb) useDbForTests(db);
  useAuthForTests(createAuth(db, cfg));
  const server: http.Server = createHttpApp({ build, clientFiles: "build/client", db }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      useAuthForTests(undefined);
      if (options.shareDb) useDbForTests(undefined);
    },
  };
}

/** Puts back the environment variables a test set, as they were saved (undefined: it was unset). */
export function restoreEnv(saved: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
}
