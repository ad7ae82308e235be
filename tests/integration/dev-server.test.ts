/**
 * `npm run dev` (scripts/dev.mjs) serves the store's own Express app through Vite: the security
 * headers and CSP, Better Auth behind the store's allow-list, the body limits, the page cache off,
 * and Vite's modules and hot-reload socket on the same port. Started as a developer starts it, on a
 * free port and a throwaway SQLite database, and stopped by its PID.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

describe("npm run dev", () => {
  let dir: string;
  let logFile: string;
  let child: ChildProcess;
  let base: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "store-dev-"));
    logFile = path.join(dir, "dev.log");
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: base,
      DATABASE_URL: "",
      SQLITE_PATH: path.join(dir, "store.db"),
      OUTBOX_DIR: path.join(dir, "outbox"),
      SMTP_URL: "",
      SEED_PRODUCTS: "24",
      AUTH_SECRET: "dev-server-test-secret-0123456789abcdef0123",
    };
    delete env.REDIS_URL;
    delete env.BUILD_DIR;
    const out = createWriteStream(logFile);
    // Its own process group, so a failed test can still take the store process down with it.
    child = spawn(process.execPath, [path.join(root, "scripts/dev.mjs")], {
      cwd: root,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
    const deadline = Date.now() + 60_000;
    while (!(await answers(`${base}/healthz`))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`npm run dev did not start:\n${readFileSync(logFile, "utf8").slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 90_000);

  afterAll(async () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM"); // passed on to the store process, which stops gracefully
      const stopped = await Promise.race([
        exited.then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]);
      if (!stopped) process.kill(-child.pid, "SIGKILL");
      expect(stopped).toBe(true);
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it("renders a page through Vite with the store's security headers and CSP", async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    // React Router's development runtime, served by Vite's middleware from the same origin.
    expect(html).toContain("virtual:react-router/inject-hmr-runtime");
    const client = await fetch(`${base}/@vite/client`);
    expect(client.status).toBe(200);
    expect(client.headers.get("content-type")).toMatch(/javascript/);
  });

  it("answers Better Auth's endpoints through the store's allow-list", async () => {
    const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email: "nobody@example.com", password: "Not-the-password-1" }),
    });
    expect(signIn.status).toBe(401);
    expect(await signIn.json()).toMatchObject({ code: "INVALID_EMAIL_OR_PASSWORD" });
    // Mounted by a plugin, closed by the store.
    expect((await fetch(`${base}/api/auth/ok`)).status).toBe(404);
  });

  it("refuses a body over the limit with 413", async () => {
    const res = await fetch(`${base}/cart`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: `note=${"a".repeat(1024 * 1024)}`,
    });
    expect(res.status).toBe(413);
  });

  it("does not serve pages from the in-process page cache", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/shop/1`);
      expect(res.status).toBe(200);
      // Cacheable by its own headers, so only the cache being off keeps it from being stored.
      expect(res.headers.get("cache-control")).toMatch(/s-maxage=\d+/);
      expect(res.headers.get("x-page-cache")).toBeNull();
      await res.arrayBuffer();
    }
  });

  it("takes Vite's hot-reload socket on the same port", async () => {
    const socket = new WebSocket(`${base.replace("http", "ws")}/`, "vite-hmr");
    const first = await new Promise<string>((resolve, reject) => {
      socket.addEventListener("message", (event) => resolve(String(event.data)), { once: true });
      socket.addEventListener("error", () => reject(new Error("the hot-reload socket did not open")), { once: true });
      setTimeout(() => reject(new Error("no message on the hot-reload socket")), 10_000);
    });
    socket.close();
    expect(JSON.parse(first)).toMatchObject({ type: "connected" });
  });
});
