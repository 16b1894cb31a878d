// The Redis rate-limit store against a real redis-server: atomic counting in one script, window
// expiry, script reloading after a restart, and the fail-open policy when Redis is down or hangs.
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FailOpenRateLimiter, RedisRateLimitStore, WINDOW_SCRIPT_SHA, redactUrl } from '../../src/server/rate-limit-redis.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';

let redis: TestRedis;
const stores: RedisRateLimitStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
}, 20_000);
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  await redis.start(); // a test may have stopped it
  redis.resume();
  for (const s of stores.splice(0)) await s.close();
});

async function store(options: { timeoutMs?: number; log?: (l: string) => void } = {}): Promise<RedisRateLimitStore> {
  const s = await RedisRateLimitStore.connect({ url: redis.url, prefix: `test:${randomBytes(6).toString('hex')}:`, log: options.log ?? (() => undefined), timeoutMs: options.timeoutMs });
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
    await new Promise((r) => setTimeout(r, 250));
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

describe('fail open', () => {
  it('lets requests through without headers while Redis is down, warns once, and resumes counting', async () => {
    const lines: string[] = [];
    const s = await store({ log: (l) => lines.push(l) });
    const limiter = new FailOpenRateLimiter({ store: s, limit: 3, windowMs: 60_000, log: (l) => lines.push(l) });
    expect((await limiter.hit('k')).remaining).toBe(2);

    await redis.stop();
    const during = await Promise.all(Array.from({ length: 5 }, () => limiter.hit('k')));
    for (const d of during) {
      expect(d.allowed).toBe(true);
      expect(d.headers).toEqual([]);
      expect(FailOpenRateLimiter.isOpen(d)).toBe(true);
    }
    const warnings = lines.filter((l) => l.startsWith('rate limit: WARNING store unavailable, failing open'));
    expect(warnings).toHaveLength(1);

    await redis.start();
    let next = await limiter.hit('k');
    for (let k = 0; k < 100 && FailOpenRateLimiter.isOpen(next); k++) {
      await new Promise((r) => setTimeout(r, 50));
      next = await limiter.hit('k');
    }
    // Redis restarted empty (no persistence): a fresh window.
    expect(next.remaining).toBe(2);
    expect(lines.some((l) => /^rate limit: store answering again; counting resumed \(\d+ request\(s\) were served unlimited\)$/.test(l))).toBe(true);
  }, 20_000);

  it('does not wait for a Redis that accepts connections but never answers', async () => {
    const s = await store({ timeoutMs: 100 });
    const limiter = new FailOpenRateLimiter({ store: s, limit: 3, windowMs: 60_000, log: () => undefined });
    expect(FailOpenRateLimiter.isOpen(await limiter.hit('k'))).toBe(false);
    redis.pause();
    const d = await limiter.hit('k');
    expect(FailOpenRateLimiter.isOpen(d)).toBe(true);
    redis.resume();
  });

  it('starts without Redis and counts once it appears', async () => {
    await redis.stop();
    const lines: string[] = [];
    const s = await RedisRateLimitStore.connect({ url: redis.url, prefix: `test:${randomBytes(6).toString('hex')}:`, connectWaitMs: 200, log: (l) => lines.push(l) });
    stores.push(s);
    expect(lines.some((l) => l.includes('is not reachable yet: requests are served without a limit (fail open)'))).toBe(true);
    await expect(s.increment('k', 60_000)).rejects.toThrow('Redis did not count the request');
    await redis.start();
    let count: number | undefined;
    for (let k = 0; k < 100 && count === undefined; k++) {
      count = await s.increment('k', 60_000).then((r) => r.count, async () => {
        await new Promise((r) => setTimeout(r, 50));
        return undefined;
      });
    }
    expect(count).toBe(1);
  }, 20_000);
});
