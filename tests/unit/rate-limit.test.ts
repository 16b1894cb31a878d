// The fixed-window rate limiter and the memory store: counting, headers, 429 body, window reset
// with fake timers, sweeping, the key cap, and an asynchronous store.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimitedBodySchema } from '../../src/schemas/rate-limit.ts';
import { type RateLimitDecision, RateLimiter, rateLimitedBody } from '../../src/server/rate-limit.ts';
import { MemoryRateLimitStore } from '../../src/server/rate-limit-memory.ts';
import type { RateLimitStore, WindowCount } from '../../src/server/rate-limit-store.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 21, 8, 0, 0);

function sync(d: RateLimitDecision | Promise<RateLimitDecision>): RateLimitDecision {
  if (d instanceof Promise) throw new Error('expected a synchronous decision');
  return d;
}

function headerMap(d: RateLimitDecision): Record<string, string> {
  const out: Record<string, string> = {};
  for (let k = 0; k < d.headers.length; k += 2) out[d.headers[k]!] = d.headers[k + 1]!;
  return out;
}

describe('rate limiter with the memory store', () => {
  let store: MemoryRateLimitStore;
  let limiter: RateLimiter;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    store = new MemoryRateLimitStore();
    limiter = new RateLimiter({ store });
  });
  afterEach(() => {
    store.close();
    vi.useRealTimers();
  });

  it('allows 1,000 requests per client in 24 hours and refuses the 1,001st', () => {
    for (let i = 1; i <= 1000; i++) {
      const d = sync(limiter.hit('203.0.113.1'));
      expect(d.allowed).toBe(true);
      expect(d.remaining).toBe(1000 - i);
    }
    const over = sync(limiter.hit('203.0.113.1'));
    expect(over).toMatchObject({ allowed: false, limit: 1000, remaining: 0, reset: (T0 + DAY) / 1000, retryAfter: 86400 });
    expect(sync(limiter.hit('203.0.113.2')).allowed).toBe(true);
  });

  it('sends the X-RateLimit headers and the IETF draft RateLimit / RateLimit-Policy fields', () => {
    sync(limiter.hit('a'));
    vi.advanceTimersByTime(90_500);
    const d = sync(limiter.hit('a'));
    expect(headerMap(d)).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '998',
      'X-RateLimit-Reset': String((T0 + DAY) / 1000),
      'RateLimit-Policy': '"default";q=1000;w=86400',
      RateLimit: '"default";r=998;t=86310',
    });
    expect(d.headers.filter((_, k) => k % 2 === 0)).toEqual([
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
    ]);
  });

  it('builds the 429 body', () => {
    for (let i = 0; i < 1001; i++) limiter.hit('b');
    const d = sync(limiter.hit('b'));
    expect(RateLimitedBodySchema.parse(rateLimitedBody(d))).toEqual({
      statusCode: 429,
      statusMessage: 'rate limit exceeded',
      limit: 1000,
      remaining: 0,
      reset: (T0 + DAY) / 1000,
    });
  });

  it('opens a new window once the old one ends, anchored at the first request of the window', () => {
    for (let i = 0; i < 1001; i++) limiter.hit('c');
    vi.advanceTimersByTime(DAY - 1);
    expect(sync(limiter.hit('c')).allowed).toBe(false);
    expect(sync(limiter.hit('c')).retryAfter).toBe(1);
    vi.advanceTimersByTime(1);
    const fresh = sync(limiter.hit('c'));
    expect(fresh).toMatchObject({ allowed: true, remaining: 999, reset: (T0 + 2 * DAY) / 1000 });
  });

  it('sweeps ended windows with its timer', () => {
    limiter.hit('d1');
    vi.advanceTimersByTime(DAY / 2);
    limiter.hit('d2');
    expect(store.size).toBe(2);
    vi.advanceTimersByTime(DAY / 2 + 60_000);
    expect(store.size).toBe(1);
    vi.advanceTimersByTime(DAY / 2);
    expect(store.size).toBe(0);
  });

  it('honours a configured limit and window', () => {
    const small = new RateLimiter({ store, limit: 2, windowMs: 60_000 });
    expect(sync(small.hit('e')).allowed).toBe(true);
    expect(sync(small.hit('e')).allowed).toBe(true);
    const third = sync(small.hit('e'));
    expect(third.allowed).toBe(false);
    expect(headerMap(third)['RateLimit-Policy']).toBe('"default";q=2;w=60');
    vi.advanceTimersByTime(60_000);
    expect(sync(small.hit('e')).allowed).toBe(true);
  });
});

describe('memory store bounds', () => {
  it('never holds more than maxKeys, dropping the oldest windows first', () => {
    const store = new MemoryRateLimitStore({ maxKeys: 3, now: () => 1000 });
    for (const k of ['a', 'b', 'c', 'd', 'e']) store.increment(k, DAY);
    expect(store.size).toBe(3);
    expect(store.increment('e', DAY).count).toBe(2); // kept
    expect(store.increment('c', DAY).count).toBe(2); // kept
    expect(store.increment('a', DAY).count).toBe(1); // dropped, starts afresh
    store.close();
  });

  it('drops ended windows before live ones when full', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ maxKeys: 2, now: () => now });
    store.increment('old', 10);
    now = 5;
    store.increment('live', 100);
    now = 20;
    store.increment('new', 100);
    expect(store.size).toBe(2);
    expect(store.increment('live', 100).count).toBe(2);
    store.close();
  });

  it('stays bounded under a flood of distinct clients', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ maxKeys: 10_000, now: () => now });
    for (let i = 0; i < 100_000; i++) {
      now += 1;
      store.increment(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 50_000);
    }
    expect(store.size).toBeLessThanOrEqual(10_000);
    now += 50_000;
    store.sweep();
    expect(store.size).toBe(0);
    store.close();
  });

  it('does not keep the process alive with its sweep timer', () => {
    const store = new MemoryRateLimitStore();
    // @ts-expect-error reading the private timer to check it is unref()ed
    expect((store.timer as NodeJS.Timeout).hasRef()).toBe(false);
    store.close();
  });
});

describe('asynchronous stores', () => {
  it('are awaited, and give the same decisions', async () => {
    const counts = new Map<string, number>();
    const store: RateLimitStore = {
      increment: async (key: string): Promise<WindowCount> => {
        const count = (counts.get(key) ?? 0) + 1;
        counts.set(key, count);
        return { count, resetAt: Date.now() + 1000 };
      },
      close: () => undefined,
    };
    const limiter = new RateLimiter({ store, limit: 1 });
    const first = limiter.hit('x');
    expect(first).toBeInstanceOf(Promise);
    expect((await first).allowed).toBe(true);
    expect((await limiter.hit('x')).allowed).toBe(false);
  });
});
