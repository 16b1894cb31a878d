// The rate limiter over HTTP on a fresh server with the default budget: 1,000 counted requests
// pass, the 1,001st gets 429; exempt routes are never counted nor blocked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedBodySchema } from '../../src/schemas/rate-limit.ts';
import { type Server, startServer } from '../helpers/server.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const COUNTED = ['/api/rtp/list?limit=1', '/api/rtp/book-of-dead', '/widget/rtp/book-of-dead', '/api/rtp/no-such-game', '/', '/api/openapi.json'];
const EXEMPT = ['/api/rtp/history', '/api/rtp/provider/netent', '/api/widget/rtp/book-of-dead', '/api/rtp/provider/no-such', '/api/widget/rtp/no-such'];

describe('rate limit over HTTP', () => {
  it('allows 1,000 counted requests, then answers 429; exempt routes pass throughout', async () => {
    let etag: string | null = null;
    for (let i = 1; i <= 1000; i++) {
      const target = COUNTED[i % COUNTED.length]!;
      // Some requests are conditional: 304s count like any other answer.
      const headers: Record<string, string> = target === '/api/rtp/list?limit=1' && etag !== null ? { 'If-None-Match': etag } : {};
      const res = await fetch(`${server.url}${target}`, { headers });
      await res.arrayBuffer();
      if (target === '/api/rtp/list?limit=1') etag = res.headers.get('etag') ?? etag;
      expect(res.status === 200 || res.status === 304 || res.status === 404).toBe(true);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(1000 - i));
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${1000 - i};t=\\d+$`));
      if (i % 100 === 0) {
        for (const exempt of EXEMPT) {
          const e = await fetch(`${server.url}${exempt}`);
          await e.arrayBuffer();
          expect(e.headers.get('x-ratelimit-limit')).toBeNull();
        }
      }
    }

    const over = await fetch(`${server.url}/api/rtp/list`);
    expect(over.status).toBe(429);
    expect(over.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(over.headers.get('access-control-allow-origin')).toBe('*');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(86_000);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    const body = RateLimitedBodySchema.parse(await over.json());
    expect(body).toEqual({
      statusCode: 429,
      statusMessage: 'rate limit exceeded',
      limit: 1000,
      remaining: 0,
      reset: Number(over.headers.get('x-ratelimit-reset')),
    });
    expect(body.reset - Date.now() / 1000).toBeGreaterThan(86_000);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.headers.get('ratelimit-policy')).toBe('"default";q=1000;w=86400');

    for (const target of COUNTED) {
      const res = await fetch(`${server.url}${target}`);
      expect(res.status).toBe(429);
      await res.arrayBuffer();
    }
    for (const target of EXEMPT) {
      const res = await fetch(`${server.url}${target}`);
      expect(res.status).not.toBe(429);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      await res.arrayBuffer();
    }
    // Preflights are never counted either.
    expect((await fetch(`${server.url}/api/rtp/list`, { method: 'OPTIONS' })).status).toBe(204);
  });
});
