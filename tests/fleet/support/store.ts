/**
 * What the fleet tests share: a throwaway PostgreSQL database, a handle on it for the tests' own
 * checks, members signed in over HTTP, the cart and checkout steps, and the instances' logs.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "kysely";
import pg from "pg";
import { createDb, type Db } from "../../../server/db/connection.ts";
import { moveStocks } from "../../../server/inventory/stock.ts";
import { validCheckoutForm } from "../../support/checkout-form.ts";
import { redisServerBinary, startFleet, type Fleet } from "../../../scripts/fleet.mjs";
import { Browser, mapLimit, type Reply } from "./http.ts";

export const PASSWORD = "Sturdy-Hammer-42";
export const uniqueEmail = (tag: string) => `${tag}.${randomBytes(5).toString("hex")}@example.com`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FleetDatabase {
  name: string;
  url: string;
  open(): Db;
  drop(): Promise<void>;
}

/** A new, empty database on TEST_DATABASE_URL's server (named after its database); the fleet migrates and seeds it. */
export async function createFleetDatabase(baseUrl: string): Promise<FleetDatabase> {
  const base = new URL(baseUrl);
  const prefix = (base.pathname.slice(1) || "toolstore")
    .replace(/[^a-z0-9_]/gi, "_")
    .toLowerCase()
    .slice(0, 40);
  const name = `${prefix}_fleet_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.href,
    open: () => createDb({ kind: "postgres", url: url.href, poolSize: 4 }),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Sets a product's stock through the ledger (a staff adjustment would do the same), bumping the catalog version. */
/**
 * Three instances behind nginx on `databaseUrl`, as the fleet tests run them: a Redis of their own
 * when redis-server is there (else REDIS_URL or the one on 127.0.0.1:6379), 60 seeded products,
 * no mail server, Google sign-in or e2e mode. `env` adds to or overrides that environment.
 */
export function startTestFleet(options: {
  port: number;
  basePort: number;
  dir: string;
  buildDir: string;
  databaseUrl: string;
  onCreated: (fleet: Fleet) => void;
  env: Record<string, string>;
}): Promise<Fleet> {
  return startFleet({
    size: 3,
    port: options.port,
    basePort: options.basePort,
    dir: options.dir,
    buildDir: options.buildDir,
    databaseUrl: options.databaseUrl,
    ...(redisServerBinary() ? { redis: "private" as const } : { redisUrl: process.env.REDIS_URL || undefined }),
    redisPort: options.basePort + 8,
    build: false,
    quiet: true,
    onCreated: options.onCreated,
    env: {
      SEED_PRODUCTS: "60",
      AUTH_IP_LIMIT: "100000",
      SMTP_URL: "",
      GOOGLE_CLIENT_ID: "",
      GOOGLE_CLIENT_SECRET: "",
      E2E: "",
      ...options.env,
    },
  });
}

export async function setStock(db: Db, productId: number, quantity: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { stock_quantity } = await trx
      .selectFrom("products")
      .select("stock_quantity")
      .where("id", "=", productId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const delta = quantity - Number(stock_quantity);
    if (delta !== 0)
      await moveStocks(trx, [
        { productId, delta, reason: "adjustment", actor: "test:fleet", note: "fleet test set-up" },
      ]);
  });
}

export async function stockOf(db: Db, productId: number): Promise<number> {
  const row = await db
    .selectFrom("products")
    .select("stock_quantity")
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
  return Number(row.stock_quantity);
}

export interface Member {
  browser: Browser;
  email: string;
  userId: string;
}

export function browserFor(fleet: Fleet, localAddress?: string): Browser {
  return new Browser({ site: fleet.siteUrl, baseUrl: fleet.url, localAddress });
}

/** Signs up with a password over HTTP, then signs in (two scrypt hashes, ~0.2 s of CPU each here: use sparingly). */
export async function signUpAndIn(fleet: Fleet, options: { to?: string; email?: string } = {}): Promise<Member> {
  const browser = browserFor(fleet);
  const email = options.email ?? uniqueEmail("fleet.member");
  const up = await browser.postJson(
    "/api/auth/sign-up/email",
    { email, password: PASSWORD, name: "Fleet Member" },
    { to: options.to },
  );
  if (up.status !== 200) throw new Error(`sign-up answered ${up.status}: ${up.body.slice(0, 300)}`);
  const inn = await browser.postJson("/api/auth/sign-in/email", { email, password: PASSWORD }, { to: options.to });
  if (inn.status !== 200 || !browser.jar.get("session_token"))
    throw new Error(`sign-in answered ${inn.status}: ${inn.body.slice(0, 300)}`);
  const { id } = (JSON.parse(inn.body) as { user: { id: string } }).user;
  return { browser, email, userId: id };
}

/**
 * `count` members, signed in over HTTP with the emailed sign-in link (no password hashing, which
 * would cost ~0.2 s of CPU per member here). The accounts themselves are rows put in the database.
 */
export async function createMembers(db: Db, fleet: Fleet, count: number, tag = "fleet.buyer"): Promise<Member[]> {
  const users = Array.from({ length: count }, () => ({
    id: randomBytes(12).toString("base64url"),
    email: uniqueEmail(tag),
  }));
  const now = new Date();
  for (let i = 0; i < users.length; i += 100) {
    const rows = users
      .slice(i, i + 100)
      .map((u) => sql`(${u.id}, ${"Fleet Buyer"}, ${u.email}, ${true}, ${now}, ${now})`);
    await sql`insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") values ${sql.join(rows)}`.execute(
      db,
    );
  }
  return mapLimit(users, 8, async (u, i) => {
    // Each member is a client of its own address (127.0.x.y, Linux): per-address limits stay apart.
    const browser = browserFor(
      fleet,
      fleet.proxyAddress ? `127.0.${10 + Math.floor(i / 250)}.${1 + (i % 250)}` : undefined,
    );
    const asked = await browser.postJson("/api/auth/sign-in/magic-link", { email: u.email, callbackURL: "/" });
    if (asked.status !== 200)
      throw new Error(`sign-in link request answered ${asked.status}: ${asked.body.slice(0, 300)}`);
    const mail = await sql<{
      text_body: string;
    }>`select text_body from mail_queue where to_address = ${u.email} order by id desc limit 1`.execute(db);
    const link = /https?:\/\/\S+magic-link\/verify\S+/.exec(mail.rows[0]?.text_body ?? "")?.[0];
    if (!link) throw new Error(`no sign-in link mailed to ${u.email}`);
    const url = new URL(link);
    const verified = await browser.get(url.pathname + url.search);
    if (verified.status !== 302 || !browser.jar.get("session_token"))
      throw new Error(`the sign-in link answered ${verified.status}: ${verified.body.slice(0, 200)}`);
    return { browser, email: u.email, userId: u.id };
  });
}

function expectStatus(reply: Reply, allowed: number[], what: string): Reply {
  if (!allowed.includes(reply.status)) throw new Error(`${what} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
  return reply;
}

/** Adds to the cart as a page without JavaScript does (the answer is a redirect). */
export async function addToCart(browser: Browser, productId: number, quantity = 1, to?: string): Promise<Reply> {
  return expectStatus(
    await browser.postForm(
      "/cart",
      { intent: "add", productId: String(productId), quantity: String(quantity) },
      { to },
    ),
    [302, 303],
    `adding product ${productId}`,
  );
}

/** The checkout token the checkout page hands out. */
export async function checkoutToken(browser: Browser, to?: string): Promise<string> {
  const page = expectStatus(await browser.get("/checkout", { to }), [200], "GET /checkout");
  const match = /name="checkoutToken"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*name="checkoutToken"/.exec(page.body);
  if (!match) throw new Error("no checkout token on the checkout page");
  return match[1] ?? match[2];
}

/** Posts the checkout form (a member's: the page fills in the account's email). */
export function checkout(member: Member, token: string, to?: string): Promise<Reply> {
  return member.browser.postForm(
    "/checkout",
    { ...validCheckoutForm, email: member.email, checkoutToken: token },
    { to },
  );
}

/** The order number a successful checkout redirected to. */
export function orderNumberOf(reply: Pick<Reply, "status" | "location">): string | null {
  return reply.status === 302 ? (/\/account\/orders\/(TH-[0-9A-F]+)/.exec(reply.location ?? "")?.[1] ?? null) : null;
}

export interface LogLine {
  instance: number;
  raw: string;
  entry: Record<string, unknown> | null;
}

/** How many lines each instance has logged so far: pass it to instanceLogs for the lines after it. */
export function logMark(fleet: Fleet): number[] {
  return fleet.instances.map((instance) => instanceLogs(fleet).filter((l) => l.instance === instance.index).length);
}

/** Every line the instances have logged (all their runs; after `since`, a logMark), parsed where it is JSON. */
export function instanceLogs(fleet: Fleet, since?: number[]): LogLine[] {
  return fleet.instances.flatMap((instance) => {
    let text = "";
    try {
      text = readFileSync(instance.logPath, "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .filter(Boolean)
      .slice(since?.[instance.index] ?? 0)
      .map((raw) => {
        let entry: Record<string, unknown> | null = null;
        try {
          entry = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          // a line that is not JSON (stderr)
        }
        return { instance: instance.index, raw, entry };
      });
  });
}

/** Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
