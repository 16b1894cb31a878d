// The Redis rate-limit store against a real redis-server: atomic counting in one script, window
// expiry, script reloading after a restart, and the fallback to the in-process limiter when Redis
// is down or hangs.
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../src/server/rate-limit.ts';
import { MemoryRateLimitStore } from '../../src/server/rate-limit-memory.ts';
import { FallbackRateLimiter, RedisRateLimitStore, redactUrl, WINDOW_SCRIPT_SHA } from '../../src/server/rate-limit-redis.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';

let redis: TestRedis;
const stores: RedisRateLimitStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  await redis.start(); // a test may have stopped it
  redis.resume();
  for (const s of stores.splice(0)) await s.close();
});

async function store(options: { timeoutMs?: number; log?: (l: string) => void } = {}): Promise<RedisRateLimitStore> {
  const s = await RedisRateLimitStore.connect({
    url: redis.url,
    prefix: `test:${randomBytes(6).toString('hex')}:`,
    log: options.log ?? (() => undefined),
    timeoutMs: options.timeoutMs,
  });
  stores.push(s);
  return s;
}

const rawClient = () => createClient({ url: redis.url });

/** Runs `fn` with a plain client of the test Redis (to look behind the store's back). */
async function raw<T>(fn: (c: ReturnType<typeof rawClient>) => Promise<T>): Promise<T> {
  const c = rawClient();
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

describe('RedisRateLimitStore', () => {
  it('counts 500 concurrent requests exactly once each, and sets the window once', async () => {
    const s = await store();
    const t0 = Date.now();
    const results = await Promise.all(Array.from({ length: 500 }, () => s.increment('203.0.113.9', 60_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    for (const r of results) {
      expect(r.resetAt).toBeGreaterThan(t0 + 55_000);
      expect(r.resetAt).toBeLessThanOrEqual(Date.now() + 60_000);
    }
    const ttl = await raw((c) => c.pTTL(`${s.prefix}203.0.113.9`));
    expect(ttl).toBeGreaterThan(55_000);
  });

  it('two stores (two instances) share one counter', async () => {
    const a = await store();
    const b = await RedisRateLimitStore.connect({ url: redis.url, prefix: a.prefix, log: () => undefined });
    stores.push(b);
    expect((await a.increment('k', 60_000)).count).toBe(1);
    expect((await b.increment('k', 60_000)).count).toBe(2);
    expect((await a.increment('k', 60_000)).count).toBe(3);
  });

  it('starts a new window when the old one has expired', async () => {
    const s = await store();
    expect((await s.increment('k', 150)).count).toBe(1);
    expect((await s.increment('k', 150)).count).toBe(2);
    // Wait on the event itself: Redis expiring the counter (its own clock, which fake timers cannot move).
    await vi.waitFor(async () => expect(await raw((c) => c.exists(`${s.prefix}k`))).toBe(0), { timeout: 30_000, interval: 20 });
    expect((await s.increment('k', 150)).count).toBe(1);
  });

  it('gives a counter found without an expiry one, so nobody is blocked for ever', async () => {
    const s = await store();
    await raw((c) => c.set(`${s.prefix}stuck`, '5000'));
    const r = await s.increment('stuck', 60_000);
    expect(r.count).toBe(5001);
    expect(await raw((c) => c.pTTL(`${s.prefix}stuck`))).toBeGreaterThan(55_000);
  });

  it('loads the script again when Redis forgot it (EVALSHA, then EVAL on NOSCRIPT)', async () => {
    const s = await store();
    await s.increment('k', 60_000);
    await raw((c) => c.scriptFlush());
    expect(await raw((c) => c.scriptExists(WINDOW_SCRIPT_SHA))).toEqual([0]);
    expect((await s.increment('k', 60_000)).count).toBe(2);
    expect(await raw((c) => c.scriptExists(WINDOW_SCRIPT_SHA))).toEqual([1]);
  });

  it('never shows a password in log lines', () => {
    expect(redactUrl('redis://user:s3cret@cache.internal:6380/2')).toBe('redis://user:***@cache.internal:6380/2');
  });
});

describe('fallback to the in-process limiter', () => {
  const fallbackLimiter = (s: RedisRateLimitStore, lines: string[], limit = 3) =>
    new FallbackRateLimiter({
      store: s,
      limit,
      windowMs: 60_000,
      retryMs: 100,
      log: (l) => lines.push(l),
      fallback: new RateLimiter({ store: new MemoryRateLimitStore(), limit, windowMs: 60_000 }),
    });

  it('counts in process while Redis is down (the limit still holds), warns once, and returns to Redis', async () => {
    const lines: string[] = [];
    const s = await store({ log: (l) => lines.push(l) });
    const limiter = fallbackLimiter(s, lines);
    expect((await limiter.hit('k')).remaining).toBe(2);

    await redis.stop();
    const during = [];
    for (let k = 0; k < 5; k++) during.push(await limiter.hit('k'));
    expect(during.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(during[0]!.headers).toContain('X-RateLimit-Limit');
    expect(limiter.degraded).toBe(true);
    const warnings = lines.filter((l) => l.startsWith('rate limit: WARNING store unavailable, counting in this process until it answers'));
    expect(warnings).toHaveLength(1);

    await redis.start();
    // Redis restarted empty (no persistence): once it answers, a fresh window there.
    await vi.waitFor(
      async () => {
        await limiter.hit('probe');
        expect(limiter.degraded).toBe(false);
      },
      { timeout: 30_000, interval: 50 },
    );
    expect((await limiter.hit('k')).remaining).toBe(2);
    expect(
      lines.some((l) => /^rate limit: store answering again; counting there resumed \(\d+ request\(s\) were counted in this process meanwhile\)$/.test(l)),
    ).toBe(true);
  }, 60_000);

  it('does not wait for a Redis that accepts connections but never answers: one probe, the rest counted in process', async () => {
    const lines: string[] = [];
    const s = await store({ timeoutMs: 100 });
    // The limiter's own clock, moved by hand: when Redis is probed again is the test's choice, not the machine's speed.
    let clock = Date.now();
    const now = () => clock;
    const limiter = new FallbackRateLimiter({
      store: s,
      limit: 1000,
      windowMs: 60_000,
      retryMs: 100,
      now,
      log: (l) => lines.push(l),
      fallback: new RateLimiter({ store: new MemoryRateLimitStore(), limit: 1000, windowMs: 60_000, now }),
    });
    expect(limiter.degraded).toBe(false);
    await limiter.hit('k');
    redis.pause();
    try {
      const first = await limiter.hit('k'); // waits the timeout, then falls back
      expect(first.allowed).toBe(true);
      expect(limiter.degraded).toBe(true);
      const asked = vi.spyOn(s, 'increment');
      for (let k = 0; k < 50; k++) expect((await limiter.hit('k')).allowed).toBe(true);
      expect(asked).not.toHaveBeenCalled(); // no request waited for Redis again
      // Past the retry interval one request probes Redis; the others meanwhile are counted in process.
      clock += 100;
      const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.hit('k')));
      expect(asked).toHaveBeenCalledTimes(1);
      expect(decisions.every((d) => d.allowed)).toBe(true);
      expect(limiter.degraded).toBe(true);
      expect(lines.filter((l) => l.includes('WARNING store unavailable'))).toHaveLength(1);
    } finally {
      redis.resume();
    }
  });

  it('starts without Redis and counts once it appears', async () => {
    await redis.stop();
    const lines: string[] = [];
    const s = await RedisRateLimitStore.connect({
      url: redis.url,
      prefix: `test:${randomBytes(6).toString('hex')}:`,
      connectWaitMs: 200,
      log: (l) => lines.push(l),
    });
    stores.push(s);
    expect(lines.some((l) => l.includes('is not reachable yet: requests are counted in this process until it is'))).toBe(true);
    await expect(s.increment('k', 60_000)).rejects.toThrow('Redis did not count the request');
    await redis.start();
    await vi.waitFor(async () => expect((await s.increment('k', 60_000)).count).toBeGreaterThanOrEqual(1), { timeout: 30_000, interval: 50 });
  }, 60_000);
});
