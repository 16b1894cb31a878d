// Several instances, one budget: two servers on different ports with RATE_LIMIT_STORE=redis share
// the 1,000-request budget exactly (a real redis-server on loopback); while Redis is down or frozen
// each instance counts in process, so the limit still holds, and counting returns to Redis after.
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimitedBodySchema } from '../../src/schemas/rate-limit.ts';
import { FALLBACK_RETRY_MS } from '../../src/server/rate-limit-redis.ts';
import { type Answer, request } from '../helpers/production.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { type Server, startServer } from '../helpers/server.ts';

let redis: TestRedis;
let a: Server;
let b: Server;
const SLOT = '/api/rtp/book-of-dead';
/** REDIS_TIMEOUT_MS of the frozen-Redis test: a wait on Redis is seconds, a count in process milliseconds. */
const REDIS_WAIT_MS = 3000;

async function pair(prefix: string): Promise<[Server, Server]> {
  const env = { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, REDIS_PREFIX: prefix };
  return Promise.all([startServer({ env: env }), startServer({ env: env })]);
}

beforeAll(async () => {
  redis = await startRedis();
  [a, b] = await pair(`e2e:${randomBytes(6).toString('hex')}:`);
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await redis?.stop();
});

/** Runs `count` requests, `concurrency` at a time, alternating between the servers. */
async function burst(count: number, concurrency: number, url: (k: number) => string): Promise<Answer[]> {
  const out: Answer[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let k = next++; k < count; k = next++) out[k] = await request(url(k));
    }),
  );
  return out;
}

describe('Redis-backed rate limit', () => {
  it('two instances share one budget exactly: 1,000 allowed in total, then 429 on both', async () => {
    const answers = await burst(1000, 10, (k) => `${(k % 2 === 0 ? a : b).url}${k % 3 === 0 ? '/api/rtp/list?limit=1' : SLOT}`);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1000);
    const remaining = answers.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 1000 }, (_, i) => i)); // each count handed out once
    for (const r of answers) expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
    const resets = new Set(answers.map((r) => Number(r.headers.get('x-ratelimit-reset'))));
    expect(Math.max(...resets) - Math.min(...resets)).toBeLessThanOrEqual(1);

    for (const server of [a, b, a, b]) {
      const r = await request(server.url + SLOT);
      expect(r.status).toBe(429);
      const body = RateLimitedBodySchema.parse(JSON.parse(r.text));
      expect(body).toMatchObject({ statusCode: 429, limit: 1000, remaining: 0 });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(86_000);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // Exempt routes are never counted nor blocked.
    for (const server of [a, b]) expect((await request(`${server.url}/api/rtp/provider/playngo`)).status).toBe(200);
  });

  it('Redis down: each instance counts in process (headers and all), warns once, and returns to the shared budget', async () => {
    await redis.stop();
    const during = await burst(20, 4, (k) => `${(k % 2 === 0 ? a : b).url}${SLOT}`);
    for (const r of during) {
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
    }
    // Ten requests each, counted by each instance itself: 999 down to 990.
    const remainingA = during
      .filter((_, k) => k % 2 === 0)
      .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
      .sort((x, y) => y - x);
    expect(remainingA).toEqual([999, 998, 997, 996, 995, 994, 993, 992, 991, 990]);
    for (const server of [a, b])
      expect(server.output().match(/rate limit: WARNING store unavailable, counting in this process until it answers/g)).toHaveLength(1);

    await redis.start(); // empty: no persistence, so a fresh window
    for (const server of [a, b]) {
      await vi.waitFor(
        async () => {
          await request(server.url + SLOT);
          expect(server.output()).toMatch(/rate limit: store answering again; counting there resumed/);
        },
        { timeout: 30_000, interval: 100 },
      );
    }
    const ra = Number((await request(a.url + SLOT)).headers.get('x-ratelimit-remaining'));
    const rb = Number((await request(b.url + SLOT)).headers.get('x-ratelimit-remaining'));
    expect(rb).toBe(ra - 1); // one shared counter again
  }, 90_000);

  it('Redis frozen by SIGSTOP: the limit still holds per instance, no request waits on Redis twice, counting returns after SIGCONT', async () => {
    const prefix = `e2e:${randomBytes(6).toString('hex')}:`;
    // A long Redis timeout sets a request that waited on Redis (seconds) far apart from one counted in process (milliseconds).
    const c = await startServer({
      env: { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, REDIS_PREFIX: prefix, RATE_LIMIT: '5', REDIS_TIMEOUT_MS: String(REDIS_WAIT_MS) },
    });
    try {
      expect((await request(c.url + SLOT)).headers.get('x-ratelimit-remaining')).toBe('4'); // counted in Redis
      redis.pause();
      const statuses: number[] = [];
      const took: number[] = [];
      const ended: number[] = [];
      for (let k = 0; k < 8; k++) {
        const started = performance.now();
        const r = await request(c.url + SLOT);
        ended.push(performance.now());
        took.push(ended[k]! - started);
        statuses.push(r.status);
        expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      }
      // The first waits REDIS_TIMEOUT_MS; the others are counted in process, but for one probe of
      // Redis per retry interval (FALLBACK_RETRY_MS after the last failure). Whatever the machine's
      // speed, a request waited on Redis only when such an interval had passed since the last wait.
      const waited = took.map((ms) => ms >= REDIS_WAIT_MS / 2);
      expect(waited[0], took.join(', ')).toBe(true);
      const probes = took.filter((_ms, k) => k > 0 && waited[k]);
      const outsideWaitsMs = ended[7]! - ended[0]! - probes.reduce((a, b) => a + b, 0);
      expect(probes.length, took.join(', ')).toBeLessThanOrEqual(Math.floor(outsideWaitsMs / FALLBACK_RETRY_MS));
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(c.output().match(/rate limit: WARNING store unavailable/g)).toHaveLength(1);
      redis.resume();
      await vi.waitFor(
        async () => {
          await request(c.url + SLOT);
          expect(c.output()).toMatch(/rate limit: store answering again/);
        },
        { timeout: 30_000, interval: 100 },
      );
      // Each request is counted in Redis again: its counter for this client moves by one.
      const client = createClient({ url: redis.url });
      await client.connect();
      try {
        const before = Number(await client.get(`${prefix}127.0.0.1`));
        await request(c.url + SLOT);
        expect(Number(await client.get(`${prefix}127.0.0.1`))).toBe(before + 1);
      } finally {
        await client.close();
      }
    } finally {
      redis.resume();
      await c.stop();
    }
  }, 90_000);

  it('a fresh key space per deployment: another prefix starts its own budget', async () => {
    const [c, d] = await pair(`e2e:${randomBytes(6).toString('hex')}:`);
    try {
      expect((await request(c.url + SLOT)).headers.get('x-ratelimit-remaining')).toBe('999');
      expect((await request(d.url + SLOT)).headers.get('x-ratelimit-remaining')).toBe('998');
    } finally {
      await c.stop();
      await d.stop();
    }
  });
});
