import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { closeRateLimitConnections, createRateLimiter } from "../../server/security/rate-limit.ts";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const unique = (tag: string) => `${tag}-${randomBytes(5).toString("hex")}`;

describe("rate limiter in memory", () => {
  it("allows max hits per window and key, then says when to retry", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ name: "mem", windowSeconds: 60, max: 3, now: () => now });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit("1.2.3.4"));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results[3].retryAfterSeconds).toBe(60);
    expect((await limiter.hit("5.6.7.8")).allowed).toBe(true); // another key has its own window

    now += 30_000;
    expect((await limiter.hit("1.2.3.4")).retryAfterSeconds).toBe(30);
    now += 30_001;
    expect(await limiter.hit("1.2.3.4")).toEqual({ allowed: true, remaining: 2, retryAfterSeconds: 0 });
  });

  it("does not share counts between limiter instances without Redis", async () => {
    const a = createRateLimiter({ name: "mem2", windowSeconds: 60, max: 1 });
    const b = createRateLimiter({ name: "mem2", windowSeconds: 60, max: 1 });
    expect((await a.hit("k")).allowed).toBe(true);
    expect((await b.hit("k")).allowed).toBe(true);
  });
});

describe("rate limiter in Redis", () => {
  afterAll(async () => {
    await closeRateLimitConnections();
  });

  it("two limiter instances (as in two app processes) share one window", async () => {
    const name = unique("contact");
    // Different URLs for the same Redis give each limiter its own connection, like two processes.
    const a = createRateLimiter({ name, windowSeconds: 60, max: 5, redisUrl: REDIS_URL });
    const b = createRateLimiter({ name, windowSeconds: 60, max: 5, redisUrl: `${REDIS_URL}/0` });
    const seq = [];
    for (let i = 0; i < 6; i++) seq.push(await (i % 2 ? b : a).hit("203.0.113.1"));
    expect(seq.map((r) => r.allowed)).toEqual([true, true, true, true, true, false]);
    expect(seq[5].retryAfterSeconds).toBeGreaterThan(0);
    expect(seq[5].retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await b.hit("203.0.113.2")).allowed).toBe(true);
  });

  it("counts parallel hits from separate connections exactly", async () => {
    const name = unique("burst");
    const limiters = [REDIS_URL, `${REDIS_URL}/0`].map((redisUrl) =>
      createRateLimiter({ name, windowSeconds: 60, max: 7, redisUrl }),
    );
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 2].hit("k")));
    expect(results.filter((r) => r.allowed)).toHaveLength(7);
  });

  it("stores the window with an expiry in Redis", async () => {
    const name = unique("ttl");
    await createRateLimiter({ name, windowSeconds: 30, max: 2, redisUrl: REDIS_URL }).hit("k");
    const redis = new Redis(REDIS_URL);
    try {
      const ttl = await redis.pttl(`toolstore:rl:${name}:k`);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
    } finally {
      redis.disconnect();
    }
  });

  it("falls back to counting in memory when Redis is unreachable", async () => {
    const limiter = createRateLimiter({
      name: unique("down"),
      windowSeconds: 60,
      max: 2,
      redisUrl: "redis://127.0.0.1:1",
    });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await limiter.hit("k"));
    expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
  });
});
