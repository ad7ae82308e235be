// `npm run dev`: the store's own Express app, the one `npm start` serves (auth routes, security
// headers and CSP, body limits, health and metrics, mail sender and jobs), with Vite as its
// middleware: modules compiled on request, hot reload in the browser, the in-process page cache off.
//
// Everything of the store is loaded through Vite (`ssrLoadModule`): server/http/serve.ts, the
// React Router build and the server/ modules both import are one module graph, so each server
// module exists once in this process. This script imports nothing from server/ itself.
//
// An edit to a page, a component or a module only the routes use shows on the next request (and
// in the browser through hot reload). An edit to a module the running HTTP app holds (server/http/,
// the database handle, auth …) restarts the store process, so no second copy of it is made.
//
// PORT and HOST as in production (default 3000 on every interface); SQLite at ./data/store.db
// unless DATABASE_URL is set. The database is migrated and seeded at start, as `npm start` does.
import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const CHILD = "STORE_DEV_CHILD";

if (process.env[CHILD]) await serveDevelopment();
else supervise();

/** Runs the store in a child process, and again whenever the child asks for a restart. */
function supervise() {
  let child;
  let restart = false;
  let stopping = false;
  const start = () => {
    restart = false;
    child = spawn(process.execPath, process.execArgv.concat(import.meta.filename), {
      cwd: root,
      stdio: ["inherit", "inherit", "inherit", "ipc"],
      env: { ...process.env, [CHILD]: "1" },
    });
    child.on("message", (message) => {
      if (message === "restart") restart = true;
    });
    child.on("exit", (code, signal) => {
      if (restart && !stopping) return start();
      process.exit(code ?? (signal ? 1 : 0));
    });
  };
  // Ctrl-C reaches the child too (same process group); a SIGTERM is passed on. Either way the
  // child stops gracefully and this process exits with it.
  process.on("SIGINT", () => (stopping = true));
  process.on("SIGTERM", () => {
    stopping = true;
    child?.kill("SIGTERM");
  });
  start();
}

async function serveDevelopment() {
  process.env.NODE_ENV ??= "development";
  const { createServer } = await import("vite");

  // Vite's hot-reload WebSocket shares the store's port: Vite listens for upgrades on this
  // stand-in, which never listens itself; the store's server hands its upgrade requests on.
  const upgrades = new http.Server();
  const vite = await createServer({
    root,
    configFile: path.join(root, "vite.config.ts"),
    server: {
      middlewareMode: true,
      ws: { server: upgrades },
      // What the store and its tests write (database, mail outbox, builds, test runs) is no source.
      watch: {
        ignored: [
          "**/.tmp/**",
          "**/data/**",
          "**/build/**",
          "**/backups/**",
          "**/test-results/**",
          "**/playwright-report/**",
        ],
      },
    },
    appType: "custom",
  });

  /** A module of the store, through Vite (one instance per module in this process). */
  const load = (file) => vite.ssrLoadModule(path.join(root, file));
  const serveModule = path.join(root, "server/http/serve.ts");

  try {
    const [
      { config },
      { resolveAuthSecret },
      { describeTrustedOrigins },
      { getDb },
      { prepareDatabase },
      { log, logLine },
      { serveStore },
    ] = await Promise.all([
      load("server/config.ts"),
      load("server/auth/secret.ts"),
      load("server/auth/origins.ts"),
      load("server/db/connection.ts"),
      load("server/db/prepare.ts"),
      load("server/ops/log.ts"),
      load("server/http/serve.ts"),
    ]);
    const cfg = config();
    resolveAuthSecret(cfg, logLine);
    log().info(describeTrustedOrigins(cfg));
    await prepareDatabase(getDb(cfg), cfg, { log: logLine });
    const server = serveStore({
      cfg,
      // Each request renders with the current modules: an edit shows on the next request.
      build: () => vite.ssrLoadModule("virtual:react-router/server-build"),
      clientFiles: vite.middlewares,
      pageCacheMb: 0,
      onListening: (httpServer) =>
        httpServer.on("upgrade", (req, socket, head) => upgrades.emit("upgrade", req, socket, head)),
    });
    server.once("close", () => void vite.close());

    // The modules the running app holds: serve.ts and everything it imports, as loaded at start.
    const held = new Set();
    const walk = (mod) => {
      if (!mod?.file || held.has(mod.file)) return;
      held.add(mod.file);
      for (const dep of mod.importedModules) walk(dep);
    };
    walk(vite.environments.ssr.moduleGraph.getModuleById(serveModule));
    vite.watcher.on("change", (file) => {
      if (!held.has(path.resolve(file))) return;
      log().info(`${path.relative(root, file)} changed, and the running HTTP app holds it: restarting the store`);
      process.send?.("restart");
      process.kill(process.pid, "SIGTERM");
    });
  } catch (error) {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    await vite.close();
    process.exit(1);
  }
}
