/**
 * Fixed-window rate limits. In memory (per process) when no Redis URL is given; in Redis when one
 * is, so every app process — and every machine — counts against the same window.
 *
 * If Redis is unreachable, a limiter falls back to its in-memory window (logged) rather than
 * taking the form down with it: the limits then hold per process until Redis is back.
 */
import { isIPv4, isIPv6 } from "node:net";
import { Redis } from "ioredis";

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string): Promise<RateLimitResult>;
}

/** A limiter whose hits can be given back: for counting only some outcomes (server/auth/sign-in-guard.ts). */
export interface RefundableRateLimiter extends RateLimiter {
  /** Takes back one hit in the current window (never below zero; the window keeps its end). */
  undo(key: string): Promise<void>;
  /** Forgets the key's window. */
  reset(key: string): Promise<void>;
}

export interface RateLimiterOptions {
  /** Distinguishes limiters that share a Redis; part of every key. */
  name: string;
  windowSeconds: number;
  max: number;
  redisUrl?: string;
}

/** Header in which the HTTP layer (server/http/app.ts) passes the client address; a client-sent value is overwritten there. */
export const CLIENT_IP_HEADER = "x-client-ip";

/**
 * The key a limiter counts a client address under: an IPv4 address as it is (an IPv4-mapped IPv6
 * one as its IPv4), an IPv6 address as its /64 network, which one subscriber usually holds whole, so
 * rotating through it earns no fresh limits.
 */
export function clientKey(address: string | null | undefined): string {
  const ip = address?.trim().slice(0, 64).toLowerCase() || "unknown";
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return ip;
  const mapped = /^(?:0{0,4}:){0,5}ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip.replace(/^::/, "0::"));
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  const [head = "", tail = ""] = ip.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = ip.includes("::") ? (tail ? tail.split(":") : []) : [];
  const groups = ip.includes("::")
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill("0"), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((g) => g.padStart(4, "0"))
    .join(":")}::/64`;
}

/** The client address the HTTP layer determined for this request, as a limiter key (clientKey; "unknown" when it is missing). */
export function clientIp(request: Request): string {
  return clientKey(request.headers.get(CLIENT_IP_HEADER));
}

function memoryWindow(windowMs: number, max: number, now: () => number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  const hit = (key: string): RateLimitResult => {
    const t = now();
    if (windows.size > 10_000 || t - lastSweep > windowMs) {
      for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      lastSweep = t;
    }
    let w = windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + windowMs };
      windows.set(key, w);
    }
    w.count += 1;
    const allowed = w.count <= max;
    return {
      allowed,
      remaining: Math.max(0, max - w.count),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((w.resetAt - t) / 1000)),
    };
  };
  const undo = (key: string) => {
    const w = windows.get(key);
    if (w && w.resetAt > now() && w.count > 0) w.count -= 1;
  };
  return { hit, undo, reset: (key: string) => void windows.delete(key) };
}

// INCR, and set the window's expiry on the first hit, in one atomic step: parallel requests on
// several processes cannot slip past a stale count, and a key can never be left without a TTL.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

// DECR only a live, positive count: a window that expired meanwhile must not come back without a TTL.
const UNDO_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`;

/** The process's Redis connections for rate limits, one per URL. */
let redisClients = new Map<string, Redis>();

function redisClient(url: string): Redis {
  const clients = redisClients;
  let client = clients.get(url);
  if (!client) {
    client = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 1000, enableOfflineQueue: true });
    let lastLog = 0;
    client.on("error", (error: Error) => {
      if (Date.now() - lastLog > 60_000) {
        lastLog = Date.now();
        console.error(`Rate limits: Redis error (${error.message}); counting in memory until it is back`);
      }
    });
    clients.set(url, client);
  }
  return client;
}

/** Closes the Redis connections the limiters opened (tests, graceful shutdown). */
export async function closeRateLimitConnections(): Promise<void> {
  const clients = redisClients;
  redisClients = new Map();
  await Promise.all([...clients.values()].map((c) => c.quit().catch(() => c.disconnect())));
}

export function createRateLimiter(opts: RateLimiterOptions & { now?: () => number }): RefundableRateLimiter {
  if (!opts.name || !/^[\w.-]+$/.test(opts.name))
    throw new Error(`Rate limiter name must be a word, got "${opts.name}"`);
  if (!(opts.windowSeconds > 0) || !(opts.max >= 1))
    throw new Error("Rate limiter needs windowSeconds > 0 and max >= 1");
  const windowMs = Math.round(opts.windowSeconds * 1000);
  const memory = memoryWindow(windowMs, opts.max, opts.now ?? Date.now);
  if (!opts.redisUrl) {
    return {
      hit: (key) => Promise.resolve(memory.hit(key)),
      undo: (key) => Promise.resolve(memory.undo(key)),
      reset: (key) => Promise.resolve(memory.reset(key)),
    };
  }

  const redis = redisClient(opts.redisUrl);
  const prefix = `toolstore:rl:${opts.name}:`;
  return {
    async hit(key) {
      try {
        const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, String(windowMs))) as [number, number];
        const allowed = count <= opts.max;
        return {
          allowed,
          remaining: Math.max(0, opts.max - count),
          retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(ttl / 1000)),
        };
      } catch {
        return memory.hit(key);
      }
    },
    async undo(key) {
      try {
        await redis.eval(UNDO_SCRIPT, 1, prefix + key);
      } catch {
        memory.undo(key);
      }
    },
    async reset(key) {
      try {
        await redis.del(prefix + key);
      } catch {
        memory.reset(key);
      }
    },
  };
}
