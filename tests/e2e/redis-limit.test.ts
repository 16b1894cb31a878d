// Several instances, one budget: two servers on different ports with RATE_LIMIT_STORE=redis share
// the 1,000-request budget exactly (a real redis-server on loopback), and fail open with a logged
// warning while Redis is down.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedBodySchema } from '../../src/schemas/rate-limit.ts';
import { request, startServer, type Answer, type Server } from '../helpers/production.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { testOutDir } from '../helpers/server.ts';

let redis: TestRedis;
let a: Server;
let b: Server;
const SLOT = '/api/rtp/book-of-dead';

async function pair(prefix: string): Promise<[Server, Server]> {
  const env = { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, REDIS_PREFIX: prefix };
  return Promise.all([startServer(testOutDir(), env), startServer(testOutDir(), env)]);
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

  it('fails open with a logged warning while Redis is down, and counts again once it is back', async () => {
    await redis.stop();
    const during = await burst(20, 4, (k) => `${(k % 2 === 0 ? a : b).url}${SLOT}`);
    for (const r of during) {
      expect(r.status).toBe(200);
      expect(r.headers.get('x-ratelimit-limit')).toBeNull();
      expect(r.headers.get('ratelimit')).toBeNull();
    }
    for (const server of [a, b]) expect(server.output()).toMatch(/rate limit: WARNING store unavailable, failing open/);

    await redis.start(); // empty: no persistence, so a fresh window
    let r = await request(a.url + SLOT);
    for (let k = 0; k < 100 && r.headers.get('x-ratelimit-limit') === null; k++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await request(a.url + SLOT);
    }
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('999');
    let s = await request(b.url + SLOT);
    for (let k = 0; k < 100 && s.headers.get('x-ratelimit-limit') === null; k++) {
      await new Promise((res) => setTimeout(res, 50));
      s = await request(b.url + SLOT);
    }
    expect(s.headers.get('x-ratelimit-remaining')).toBe('998');
    expect(a.output()).toMatch(/rate limit: store answering again; counting resumed/);
  }, 30_000);

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
