import { Redis } from "ioredis";

export interface ConsumeResult {
  allowed: boolean;
  retryAfter: number | null;
}

// INCR with the window as TTL on first hit, in one atomic step, so parallel requests
// on several app processes cannot all slip past a stale count.
const CONSUME_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
return {n, ttl}
`;

const clients = new Map<string, Redis>();

function sharedRedis(url: string): Redis {
  let client = clients.get(url);
  if (!client) {
    client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    client.on("error", (error) => console.error(`Redis: ${error.message}`));
    clients.set(url, client);
  }
  return client;
}

/** Better Auth's rate-limit storage on Redis, shared by every app process. */
export function redisRateLimitStorage(url: string, prefix = "toolstore:auth-rl:") {
  const redis = sharedRedis(url);
  return {
    async consume(key: string, rule: { window: number; max: number }): Promise<ConsumeResult> {
      const [count, ttl] = (await redis.eval(CONSUME_SCRIPT, 1, `${prefix}${key}`, String(rule.window))) as [
        number,
        number,
      ];
      if (count <= rule.max) return { allowed: true, retryAfter: null };
      return { allowed: false, retryAfter: Math.max(1, ttl) };
    },
  };
}
