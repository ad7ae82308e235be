// `npm run fleet`: the store as a small fleet on this machine — nginx on one port (FLEET_PORT,
// 8080) in front of FLEET_SIZE (3) app instances on 127.0.0.1:3101…, sharing PostgreSQL
// (DATABASE_URL, or a database it creates on the local server) and Redis (REDIS_URL, or the local
// one, or a private redis-server). Everything it writes — the generated nginx.conf, logs, the mail
// outbox, the generated AUTH_SECRET — lives in FLEET_DIR (data/fleet). Ctrl-C stops it all.
// nginx caches the pages the app marks as shared (Cache-Control: public, s-maxage …) for anonymous
// visitors; FLEET_PAGE_CACHE=off turns that cache off.
//
// The tests (tests/fleet/) and the fleet benchmark (tests/bench/fleet.mjs) import startFleet,
// stopFleet, restartInstance, killInstance and startInstance from here.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { signalGroup, spawnStore, tail as tailOf, waitForExit } from "../tests/support/store-process.mjs";

export const root = path.resolve(import.meta.dirname, "..");

/** nginx's passive health check: this many failed attempts within FAIL_TIMEOUT_S take an instance out for FAIL_TIMEOUT_S. */
export const MAX_FAILS = 2;
export const FAIL_TIMEOUT_S = 5;

/** The fleet's settings from the environment (README, "Run as a fleet"). */
export function fleetOptionsFromEnv(env = process.env) {
  return {
    size: Number(env.FLEET_SIZE ?? 3),
    port: Number(env.FLEET_PORT ?? 8080),
    basePort: Number(env.FLEET_BASE_PORT ?? 3101),
    dir: path.resolve(root, env.FLEET_DIR ?? "data/fleet"),
    buildDir: env.BUILD_DIR ?? "build",
    databaseUrl: env.DATABASE_URL || undefined,
    databaseName: env.FLEET_DATABASE ?? "toolstore_fleet",
    pgAdminUrl: env.FLEET_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    redisUrl: env.REDIS_URL || undefined,
    authSecret: env.AUTH_SECRET || undefined,
    proxyAddress: env.FLEET_PROXY_ADDRESS ?? "127.0.0.2",
    pageCache: !/^(?:0|off|false|no)$/i.test(env.FLEET_PAGE_CACHE ?? ""),
  };
}

const say = (quiet) => (line) => {
  if (!quiet) process.stdout.write(`${line}\n`);
};

const tail = (file) => tailOf(file, 25);

function findBinary(name, extra = []) {
  for (const dir of [...(process.env.PATH ?? "").split(path.delimiter), ...extra]) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

export const nginxBinary = () => findBinary("nginx", ["/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin"]);
export const redisServerBinary = () => findBinary("redis-server", ["/usr/bin", "/usr/local/bin"]);

/** Builds the app into buildDir when its server entry is missing (`build: false` refuses instead). */
function ensureBuild(buildDir, { build = true, log }) {
  const entry = path.join(path.resolve(root, buildDir), "server/index.js");
  if (existsSync(entry)) return;
  if (!build) throw new Error(`No production build in ${buildDir}/ (run \`npm run build\`, or set BUILD_DIR)`);
  log(`Building the store into ${buildDir}/…`);
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", BUILD_DIR: buildDir },
  });
  if (result.status !== 0 || !existsSync(entry))
    throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
}

/** Creates database `name` on the server of adminUrl unless it exists; returns its URL. */
export async function ensureDatabase(adminUrl, name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`FLEET_DATABASE must be a plain lower-case name, got "${name}"`);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Whether something answers PING at a redis:// URL. */
async function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || "127.0.0.1", port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => done(data.toString().startsWith("+PONG") || data.toString().startsWith("-NOAUTH")));
  });
}

/** A throwaway redis-server of the fleet's own, in its folder (no persistence). */
async function startPrivateRedis(dir, port) {
  const binary = redisServerBinary();
  if (!binary) throw new Error("No Redis: set REDIS_URL, start redis on 127.0.0.1:6379, or install redis-server");
  mkdirSync(path.join(dir, "redis"), { recursive: true });
  const logPath = path.join(dir, "logs", "redis.log");
  const child = spawn(
    binary,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      path.join(dir, "redis"),
      "--logfile",
      logPath,
    ],
    {
      detached: true,
      stdio: "ignore",
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) break;
    if (await redisAnswers(url)) return { url, child };
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`redis-server did not start on port ${port}:\n${tail(logPath)}`);
}

/** The shared secret: AUTH_SECRET, or one generated once into the fleet's folder (owner-only). */
function fleetSecret(dir, given) {
  if (given) return given;
  const file = path.join(dir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Whether this machine lets a socket use `address` as its source (Linux: all of 127.0.0.0/8). */
async function canBindFrom(address) {
  const server = net.createServer((s) => s.destroy());
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  const ok = await new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress: address });
    socket.on("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
  server.close();
  return ok;
}

const hasIpv6Loopback = () =>
  Object.values(os.networkInterfaces()).some((list) =>
    list?.some((a) => a.internal && a.family === "IPv6" && a.address === "::1"),
  );

/** Largest size of nginx's page cache on disk (the cache manager removes the least recently used beyond it). */
export const PAGE_CACHE_MAX_SIZE = "256m";
/** The path under which the bench's static files are served (fleet option `staticFiles`). */
export const STATIC_PREFIX = "/_fleet-static/";

/**
 * The nginx configuration of the fleet: one upstream with passive health checks, keep-alive to
 * the instances, the client address in X-Forwarded-For (replaced, never appended), a request id,
 * retries only where the instance cannot have acted on the request, /metrics kept inside, and
 * (unless `pageCache` is false) a page cache for anonymous visitors that stores only what the app
 * marks as shared in its Cache-Control.
 */
export function nginxConfig(fleet) {
  const n = fleet.nginxDir;
  const logs = fleet.logsDir;
  const user =
    process.getuid?.() === 0
      ? `user nobody ${existsSync("/etc/group") && /^nogroup:/m.test(readFileSync("/etc/group", "utf8")) ? "nogroup" : "nobody"};\n`
      : "";
  const servers = fleet.instances
    .map(
      (i) =>
        `    server 127.0.0.1:${i.port} max_fails=${MAX_FAILS} fail_timeout=${FAIL_TIMEOUT_S}s${i.down ? " down" : ""};`,
    )
    .join("\n");
  const cache = fleet.pageCache !== false;
  const listen = [
    `    listen 127.0.0.1:${fleet.port};`,
    ...(fleet.ipv6 ? [`    listen [::1]:${fleet.port};`] : []),
  ].join("\n");
  return `# Generated by scripts/fleet.mjs for the fleet in ${fleet.dir} — edit the script, not this file.
${user}worker_processes 1;
pid ${n}/nginx.pid;
error_log ${logs}/nginx-error.log warn;
events { worker_connections 2048; }

http {
    # Unprivileged: nginx writes its logs and pid in the fleet's folder, its temp files in its own temp folder.
    client_body_temp_path ${fleet.nginxTempDir}/body;
    proxy_temp_path ${fleet.nginxTempDir}/proxy;
    fastcgi_temp_path ${fleet.nginxTempDir}/fastcgi;
    uwsgi_temp_path ${fleet.nginxTempDir}/uwsgi;
    scgi_temp_path ${fleet.nginxTempDir}/scgi;
    server_tokens off;
    client_max_body_size 1m;
    # No URL in the log: paths can carry tokens (order links, sign-in links). $request_id is
    # the X-Request-Id the app logs with the route, so the two logs join on it.
    # cache= is the page cache's verdict (HIT, MISS, BYPASS, EXPIRED, STALE, UPDATING; "-" when
    # the request did not go through it).
    log_format fleet '$remote_addr [$time_iso8601] $request_method $status $body_bytes_sent '
                     'rt=$request_time upstream=$upstream_addr ustatus=$upstream_status '
                     'urt=$upstream_response_time cache=$upstream_cache_status id=$request_id';
    access_log ${logs}/nginx-access.log fleet buffer=32k flush=1s;
${cache ? pageCacheHttp(fleet) : ""}
    upstream toolstore {
        # Passive health checks: ${MAX_FAILS} failed attempts (refused, reset, timeout, 502/503
        # below) within ${FAIL_TIMEOUT_S} s take an instance out for ${FAIL_TIMEOUT_S} s; then nginx tries it again.
${servers}
        # Idle keep-alive connections to the instances, per nginx worker. nginx closes one left
        # idle for 2 s; the app never closes an idle one while it runs (its idle timeout is 65 s),
        # and a stopping instance waits 3 s for nginx to close them (server/http/shutdown.ts):
        # closing one itself could cross a request nginx is sending on it, a lost POST.
        keepalive 32;
        keepalive_timeout 2s;
    }

    server {
${listen}

        # Prometheus metrics are per instance: scrape each instance directly, never through here.
        location = /metrics { return 404; }
${fleet.staticDir ? `\n        # Benchmarks only (option staticFiles): files nginx serves itself, the ceiling pages are compared with.\n        location ^~ ${STATIC_PREFIX} { alias ${fleet.staticDir}/; }\n` : ""}
        location / {
            proxy_pass http://toolstore;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            # The client's address, replacing whatever the client sent in this header; the app
            # believes it only from the proxy's address (TRUST_PROXY=${fleet.trustProxy}).
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-Id $request_id;
${fleet.proxyAddress ? `            # Connect to the instances from ${fleet.proxyAddress}: only this proxy has that address,\n            # so a local client talking to an instance directly cannot pass as the proxy.\n            proxy_bind ${fleet.proxyAddress};\n` : ""}            proxy_connect_timeout 2s;
            proxy_read_timeout 60s;
            # Another instance gets the request only when this one cannot have acted on it: it
            # refused or dropped the connection, or answered 502/503. nginx never passes a POST on
            # once it was sent (no "non_idempotent"), so an order is never placed twice by a retry.
            proxy_next_upstream error timeout http_502 http_503;
            proxy_next_upstream_tries 3;
            proxy_next_upstream_timeout 10s;
${cache ? pageCacheLocation() : ""}        }
    }
}
`;
}

/** The http-level part of the page cache: where it lives, and which requests are a signed-in visitor's. */
function pageCacheHttp(fleet) {
  return `
    # The page cache (issue 49). The app decides what may be stored: catalog pages answer
    # "Cache-Control: public, max-age=0, s-maxage=30, stale-while-revalidate=30" (nginx keeps them
    # s-maxage seconds, then serves them stale while one request refreshes them); personal pages
    # answer "private, no-store" and are never stored. There is no proxy_cache_valid on purpose:
    # an answer without Cache-Control or Expires is not stored at all.
    # On disk in nginx's temp folder (removed when the fleet stops); 10 MB of keys (~80,000 pages);
    # at most ${PAGE_CACHE_MAX_SIZE} of pages; a page not asked for in 10 minutes is dropped even if still fresh.
    proxy_cache_path ${fleet.nginxTempDir}/pages levels=1:2 keys_zone=toolstore_pages:10m max_size=${PAGE_CACHE_MAX_SIZE} inactive=10m use_temp_path=off;

    # 1 when the request carries Better Auth's sign-in cookie (better-auth.session_token, or
    # __Secure-better-auth.session_token on https): a signed-in visitor always reaches the app.
    map $http_cookie $toolstore_signed_in {
        default 0;
        "~session_token=" 1;
    }

    # The market a visitor chose (issue 51): a catalog page is priced in it, so it is part of the
    # page's key. Anything but exactly "uk" is the default market's page (a regex, so the match is
    # case-sensitive; the app never lets a shared cache keep a page answered to a market cookie it
    # can't read exactly, so "MARKET=uk" or "market=UK" can't fill the UK key with a US page).
    map $cookie_market $toolstore_market {
        default us;
        "~^uk$" uk;
    }
`;
}

/** The location-level part of the page cache. */
function pageCacheLocation() {
  return `
            # Page cache (see proxy_cache_path above). Only GET and HEAD are looked up (nginx's default).
            proxy_cache toolstore_pages;
            # The page is the URL with its query string and the visitor's market: /shop?q=drill and
            # /shop?q=saw are two entries, and so are /shop for a UK and for a US visitor.
            proxy_cache_key $scheme$host$request_uri|$toolstore_market;
            # No cache lock (nginx's default, said here on purpose). With proxy_cache_lock on,
            # concurrent requests for one URL whose answer is never stored (anonymous /visitor or
            # /cart: "private, no-store") queue behind one another, each waiter polling every 500 ms:
            # 50 connections on such a URL fell from ~2,600 to ~130 req/s here (2026-12-04). An
            # expired page is refreshed by one request anyway (use_stale updating, below); only the
            # very first fill of a page can be rendered by several requests at once.
            proxy_cache_lock off;
            # A page past its s-maxage may be served stale while one request refreshes it, for as long
            # as the app's stale-while-revalidate allows (30 s): nginx reads that from Cache-Control.
            # "updating" is left out here on purpose: here it would outrank the header and serve a
            # page however old it is (up to "inactive"), so a rarely asked page could show a change
            # minutes late. As it is, a change reaches every anonymous visitor within s-maxage +
            # stale-while-revalidate (60 s). A stored page also stands in for an instance that fails,
            # times out or answers 500/502/503 (once proxy_next_upstream has tried the others).
            proxy_cache_use_stale error timeout http_500 http_502 http_503;
            # That refresh happens in the background: the visitor who finds the page stale gets it at once.
            proxy_cache_background_update on;
            # A signed-in visitor is neither served from the cache nor stored in it.
            proxy_cache_bypass $toolstore_signed_in;
            # Nor is an answer that sets a cookie: it is someone's own (nginx skips those anyway; said here).
            proxy_no_cache $toolstore_signed_in $upstream_http_set_cookie;
            # HIT, MISS, BYPASS, EXPIRED, STALE, UPDATING: what the cache did, for people and benchmarks.
            add_header X-Cache-Status $upstream_cache_status always;
            # A stored page carries the X-Request-Id of the request that rendered it: every visitor
            # gets this request's id instead (the one in nginx's log, and the app's when it rendered).
            proxy_hide_header X-Request-Id;
            add_header X-Request-Id $request_id always;
`;
}

/** Processes whose parent is `pid` (Linux /proc); null where /proc is not available. */
function childPids(pid) {
  if (!existsSync("/proc/self/stat")) return null;
  const found = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/**
 * GET /readyz on a connection of its own, closed after the answer: a pooled one (fetch keeps it
 * for the minute the app allows) would stay open into the instance's graceful stop, which waits
 * for its clients to close their connections.
 */
function readyzStatus(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/readyz`, { agent: false, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
  });
}

async function waitForReady(url, child, logPath, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`exited during start-up (${child.exitCode ?? child.signalCode}):\n${tail(logPath)}`);
    }
    try {
      if ((await readyzStatus(url)) === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`/readyz did not answer 200 within ${Math.round(timeoutMs / 1000)} s:\n${tail(logPath)}`);
}

/** Starts (or starts again) instance `index` (0-based) and waits until its /readyz says 200. */
export async function startInstance(fleet, index) {
  const instance = fleet.instances[index];
  if (instance.child && instance.child.exitCode === null && instance.child.signalCode === null)
    throw new Error(`instance ${index + 1} is running`);
  const databaseUrl = new URL(fleet.databaseUrl);
  // Names the instance's connections in pg_stat_activity (which instance holds which lock).
  databaseUrl.searchParams.set("application_name", `toolstore-fleet-${index + 1}`);
  const child = spawnStore({
    appRoot: root,
    port: instance.port,
    logPath: instance.logPath,
    appendLog: true,
    env: {
      BUILD_DIR: fleet.buildDir,
      WEB_CONCURRENCY: "1",
      SITE_URL: fleet.siteUrl,
      AUTH_TRUSTED_ORIGINS: fleet.trustedOrigins.join(","),
      TRUST_PROXY: fleet.trustProxy,
      DATABASE_URL: databaseUrl.href,
      REDIS_URL: fleet.redisUrl,
      AUTH_SECRET: fleet.authSecret,
      OUTBOX_DIR: fleet.outboxDir,
      ...fleet.env,
    },
  });
  instance.child = child;
  instance.pid = child.pid;
  instance.pids.push(child.pid);
  child.once("exit", (code, signal) => {
    if (!instance.stopping && !fleet.stopping) fleet.onUnexpectedExit?.(instance, code ?? signal);
  });
  try {
    await waitForReady(instance.url, child, instance.logPath, fleet.startTimeoutMs);
  } catch (error) {
    signalGroup(child, "SIGKILL");
    throw new Error(`instance ${index + 1} (port ${instance.port}) ${error.message}`);
  }
  return instance;
}

/** SIGTERM (graceful: /readyz turns 503, requests in flight finish) and waits for the exit. */
export async function stopInstance(fleet, index, { signal = "SIGTERM", timeoutMs = 30_000 } = {}) {
  const instance = fleet.instances[index];
  const child = instance.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  instance.stopping = true;
  try {
    signalGroup(child, signal);
    if (!(await waitForExit(child, timeoutMs))) {
      signalGroup(child, "SIGKILL");
      await waitForExit(child, 5000);
    }
  } finally {
    instance.stopping = false;
  }
}

/** kill -9 of an instance (a crash or power cut); resolves once the process is gone. */
export async function killInstance(fleet, index) {
  return stopInstance(fleet, index, { signal: "SIGKILL", timeoutMs: 5000 });
}

function writeNginxConfig(fleet) {
  writeFileSync(fleet.nginxConf, nginxConfig(fleet));
}

/** Rewrites nginx.conf and reloads nginx; resolves when every worker runs the new configuration. */
export async function reloadNginx(fleet) {
  writeNginxConfig(fleet);
  const check = spawnSync(fleet.nginxBin, ["-t", "-q", ...fleet.nginxArgs], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx -t refused the new configuration:\n${check.stderr}`);
  const master = fleet.nginx.pid;
  const before = childPids(master);
  process.kill(master, "SIGHUP");
  if (!before) return void (await sleep(2000));
  // nginx starts new workers, then old ones finish the requests they hold and exit.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    await sleep(50);
    const now = childPids(master) ?? [];
    if (now.length > 0 && !now.some((pid) => before.includes(pid))) return;
  }
  throw new Error("nginx workers did not pick up the new configuration within 30 s");
}

/** Takes instance `index` out of nginx's upstream (`down`) or puts it back, without dropping a request. */
export async function setInstanceInRotation(fleet, index, inRotation) {
  fleet.instances[index].down = !inRotation;
  await reloadNginx(fleet);
}

/**
 * Restarts one instance: SIGTERM (it stops listening — nginx passes new requests to the others —
 * serves what arrives on nginx's open connections with `Connection: close`, finishes what is in
 * flight, and exits), start again, wait for /readyz, then wait FAIL_TIMEOUT_S: nginx counted the
 * refused connections and skips the instance until then. Stopping the next one sooner could leave
 * nginx believing every instance is down (502 "no live upstreams"). With `drain`, the instance is
 * first marked `down` in nginx.conf and nginx reloaded, so nginx sends it nothing at all while it
 * stops, and put back the same way once it is ready (a reload starts with no failures counted).
 */
export async function restartInstance(fleet, index, { drain = false } = {}) {
  if (drain) await setInstanceInRotation(fleet, index, false);
  await stopInstance(fleet, index);
  await startInstance(fleet, index);
  if (drain) await setInstanceInRotation(fleet, index, true);
  else await sleep(FAIL_TIMEOUT_S * 1000 + 500);
}

/** Stops nginx, every instance and the private Redis, if any. Safe to call twice. */
export async function stopFleet(fleet) {
  if (!fleet || fleet.stopped) return;
  fleet.stopping = true;
  if (fleet.nginx && fleet.nginx.exitCode === null) {
    fleet.nginx.kill("SIGQUIT"); // graceful: finishes requests in flight
    if (!(await waitForExit(fleet.nginx, 10_000))) {
      fleet.nginx.kill("SIGKILL");
      await waitForExit(fleet.nginx, 5000);
    }
  }
  await Promise.all(fleet.instances.map((_, i) => stopInstance(fleet, i)));
  if (fleet.redis) {
    fleet.redis.kill("SIGTERM");
    if (!(await waitForExit(fleet.redis, 5000))) fleet.redis.kill("SIGKILL");
  }
  rmSync(fleet.nginxTempDir, { recursive: true, force: true });
  fleet.stopped = true;
}

/** Synchronous last resort (process "exit" handlers): SIGKILL whatever the fleet still runs. */
export function killFleetNow(fleet) {
  if (!fleet) return;
  for (const child of [fleet.nginx, fleet.redis, ...fleet.instances.map((i) => i.child)]) {
    if (child && child.exitCode === null && child.signalCode === null) signalGroup(child, "SIGKILL");
  }
}

/**
 * Starts the fleet: build (when missing), database, Redis, secret, FLEET_SIZE instances (each
 * waited for on /readyz), then nginx in front. Options are those of fleetOptionsFromEnv, plus
 * `env` (extra variables for every instance), `redis: "private"` (always a private redis-server
 * on `redisPort`), `build: false` (refuse to build), `pageCache: false` (no page cache in nginx),
 * `staticFiles: true` (nginx serves fleet.staticDir under STATIC_PREFIX; for benchmarks), `quiet`,
 * `onCreated(fleet)` (called before anything starts, so a signal handler can stop a half-started fleet).
 */
export async function startFleet(options = {}) {
  const o = { ...fleetOptionsFromEnv({}), ...options };
  const log = say(o.quiet);
  if (!Number.isInteger(o.size) || o.size < 1 || o.size > 32) throw new Error(`FLEET_SIZE must be 1–32, got ${o.size}`);
  const nginxBin = nginxBinary();
  if (!nginxBin) throw new Error("nginx is not installed (Debian: apt-get install nginx; .ci/run installs it)");
  const dir = path.resolve(root, o.dir);
  const logsDir = path.join(dir, "logs");
  const nginxDir = path.join(dir, "nginx");
  for (const d of [dir, logsDir, nginxDir]) mkdirSync(d, { recursive: true });
  // Started as root, nginx's workers run as nobody: their temp files go outside the store's data
  // folder, which is owner-only (server/ops/private-files.ts).
  const nginxTempDir = mkdtempSync(path.join(os.tmpdir(), "toolstore-nginx-"));
  chmodSync(nginxTempDir, 0o755);
  // Benchmarks: a folder of files nginx serves itself under STATIC_PREFIX (readable by its workers).
  const staticDir = o.staticFiles ? path.join(nginxTempDir, "static") : null;
  if (staticDir) mkdirSync(staticDir, { mode: 0o755 });
  ensureBuild(o.buildDir, { build: o.build !== false, log });

  const databaseUrl = o.databaseUrl ?? (await ensureDatabase(o.pgAdminUrl, o.databaseName));
  let redisUrl = o.redisUrl;
  let redis = null;
  if (o.redis === "private" || (!redisUrl && !(await redisAnswers("redis://127.0.0.1:6379")))) {
    ({ url: redisUrl, child: redis } = await startPrivateRedis(dir, o.redisPort ?? o.basePort + 90));
    log(`Started a private redis-server: ${redisUrl}`);
  }
  redisUrl ??= "redis://127.0.0.1:6379";

  let proxyAddress = o.proxyAddress || null;
  if (proxyAddress && !(await canBindFrom(proxyAddress))) {
    log(
      `warning: this machine can't use ${proxyAddress} as a source address; nginx connects from 127.0.0.1, so local programs can also claim a client address`,
    );
    proxyAddress = null;
  }
  const siteUrl = o.siteUrl ?? `http://localhost:${o.port}`;
  const fleet = {
    dir,
    logsDir,
    nginxDir,
    nginxTempDir,
    pageCache: o.pageCache !== false,
    staticDir,
    nginxConf: path.join(nginxDir, "nginx.conf"),
    nginxBin,
    port: o.port,
    url: `http://127.0.0.1:${o.port}`,
    siteUrl,
    trustedOrigins: [...new Set([siteUrl, `http://localhost:${o.port}`, `http://127.0.0.1:${o.port}`])],
    proxyAddress,
    trustProxy: proxyAddress ?? "127.0.0.1",
    ipv6: hasIpv6Loopback(),
    buildDir: o.buildDir,
    databaseUrl,
    redisUrl,
    redis,
    authSecret: fleetSecret(dir, o.authSecret),
    env: o.env ?? {},
    outboxDir: o.outboxDir ?? path.join(dir, "outbox"),
    startTimeoutMs: o.startTimeoutMs ?? 120_000,
    onUnexpectedExit: o.onUnexpectedExit,
    nginx: null,
    stopping: false,
    stopped: false,
    instances: Array.from({ length: o.size }, (_, i) => ({
      index: i,
      port: o.basePort + i,
      url: `http://127.0.0.1:${o.basePort + i}`,
      logPath: path.join(logsDir, `instance-${i + 1}.log`),
      child: null,
      pid: null,
      /** Every pid this instance has had (restarts), oldest first. */
      pids: [],
      down: false,
      stopping: false,
    })),
  };
  fleet.nginxArgs = ["-c", fleet.nginxConf, "-p", nginxDir, "-e", path.join(logsDir, "nginx-error.log")];
  o.onCreated?.(fleet);
  try {
    log(`Starting ${o.size} instance${o.size > 1 ? "s" : ""} on 127.0.0.1:${o.basePort}–${o.basePort + o.size - 1}…`);
    await Promise.all(fleet.instances.map((_, i) => startInstance(fleet, i)));
    writeNginxConfig(fleet);
    const check = spawnSync(nginxBin, ["-t", "-q", ...fleet.nginxArgs], { encoding: "utf8" });
    if (check.status !== 0) throw new Error(`nginx -t refused ${fleet.nginxConf}:\n${check.stderr}`);
    const nginxLog = path.join(logsDir, "nginx-error.log");
    fleet.nginx = spawn(nginxBin, [...fleet.nginxArgs, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
    fleet.nginx.stderr.pipe(createWriteStream(nginxLog, { flags: "a" }));
    await waitForReady(fleet.url, fleet.nginx, nginxLog, 15_000);
  } catch (error) {
    await stopFleet(fleet);
    throw error;
  }
  return fleet;
}

async function main() {
  const options = fleetOptionsFromEnv();
  let fleet = null;
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping nginx and the instances…`);
    await stopFleet(fleet).catch((error) => console.error(error));
    process.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void stop(signal));
  process.on("exit", () => killFleetNow(fleet));
  // `npm run fleet` stopped by a signal sent to npm alone (not the terminal's Ctrl-C): npm exits
  // without passing it on. Don't leave a fleet running with nobody to stop it.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && void stop("npm exited"), 1000).unref();
  }
  await startFleet({
    ...options,
    onCreated: (created) => (fleet = created),
    onUnexpectedExit: (instance, how) =>
      console.error(
        `Instance ${instance.index + 1} (port ${instance.port}) stopped (${how}); nginx sends its traffic to the others. Log: ${path.relative(root, instance.logPath)}`,
      ),
  });
  const safeDb = new URL(fleet.databaseUrl);
  if (safeDb.password) safeDb.password = "***";
  console.log(`
The fleet is up: ${fleet.siteUrl}  (also http://127.0.0.1:${fleet.port})
  nginx      ${path.relative(root, fleet.nginxConf)} (pid ${fleet.nginx.pid}; page cache ${fleet.pageCache ? "on" : "off"})
  instances  ${fleet.instances.map((i) => `${i.url} (pid ${i.pid})`).join(", ")}
  database   ${safeDb.href}
  redis      ${fleet.redisUrl}${fleet.redis ? " (private, stops with the fleet)" : ""}
  logs       ${path.relative(root, fleet.logsDir)}/ (instance-N.log: one JSON line per request and event)
  mail       ${path.relative(root, path.join(fleet.dir, "outbox"))}/ (.eml files; set SMTP_URL to send for real)
Ctrl-C stops everything.`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(`fleet: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
