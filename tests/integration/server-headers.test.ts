// Headers on every route family of the built dist over HTTP: Content-Type, Cache-Control, CORS,
// ETag and 304, rate-limit headers only where counted; HEAD, OPTIONS preflight and 405.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryResponseSchema } from '../../src/schemas/history.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { type Server, startServer, testOutDir } from '../helpers/server.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const HOUR = 'public, max-age=3600, s-maxage=3600';
const asset = readdirSync(path.join(testOutDir(), 'client', '_astro')).find((f) => f.endsWith('.js') || f.endsWith('.css'));

const ROUTES: Array<[string, string, string, boolean]> = [
  ['/api/rtp/list', JSON_TYPE, 'public, max-age=0, s-maxage=300', true],
  ['/api/rtp/list?q=book&sort=relevance', JSON_TYPE, 'public, max-age=0, s-maxage=300', true],
  ['/api/rtp/history', JSON_TYPE, 'public, max-age=0, s-maxage=3600', false],
  ['/api/rtp/book-of-dead', JSON_TYPE, HOUR, true],
  ['/api/rtp/provider/netent', JSON_TYPE, HOUR, false],
  ['/api/widget/rtp/book-of-dead', JSON_TYPE, HOUR, false],
  ['/widget/rtp/book-of-dead', HTML_TYPE, HOUR, true],
  ['/widget/rtp/book-of-dead?v=1.0.0&theme=dark', HTML_TYPE, HOUR, true],
  ['/api/openapi.json', JSON_TYPE, HOUR, true],
  ['/', HTML_TYPE, 'public, max-age=300, s-maxage=3600', true],
  ['/rtp/book-of-dead', HTML_TYPE, 'public, max-age=300, s-maxage=3600', true],
  ...(asset === undefined
    ? []
    : [
        [
          `/_astro/${asset}`,
          asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
          'public, max-age=31536000, immutable',
          false,
        ] as [string, string, string, boolean],
      ]),
];

describe('headers on every route family', () => {
  it.each(ROUTES)('%s', async (target, type, cache, counted) => {
    const res = await fetch(`${server.url}${target}`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('cache-control')).toBe(cache);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-length')).toBe(String(body.length));
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    if (counted) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(1000);
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      expect(res.headers.get('ratelimit-policy')).toBe('"default";q=1000;w=86400');
      expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    } else {
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy'])
        expect(res.headers.get(h)).toBeNull();
    }
    if (type === JSON_TYPE) JSON.parse(body.toString('utf8'));

    const again = await fetch(`${server.url}${target}`, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(cache);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');

    const head = await fetch(`${server.url}${target}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(body.length));
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
  });

  it('sends the widget its Content-Security-Policy and no frame restrictions', async () => {
    const res = await fetch(`${server.url}/widget/rtp/book-of-dead`);
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    expect(res.headers.get('content-security-policy')).not.toContain('frame-ancestors');
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('serves list and history bodies that validate against their public schemas', async () => {
    ListResponseSchema.parse(await (await fetch(`${server.url}/api/rtp/list?limit=200`)).json());
    HistoryResponseSchema.parse(await (await fetch(`${server.url}/api/rtp/history?limit=200`)).json());
  });

  it('gives the same ETag to the same list answer and another to a different one', async () => {
    const a = (await fetch(`${server.url}/api/rtp/list?limit=5`)).headers.get('etag');
    const b = (await fetch(`${server.url}/api/rtp/list?limit=5&v=2`)).headers.get('etag');
    const c = (await fetch(`${server.url}/api/rtp/list?limit=6`)).headers.get('etag');
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('errors and methods', () => {
  it('answers unknown slots with the exact 404 bytes', async () => {
    for (const target of ['/api/rtp/no-such-game', '/api/rtp/book-of-dead/', '/api/rtp/list/', '/api/rtp/Book-Of-Dead', '/api/rtp/history/x']) {
      const res = await fetch(`${server.url}${target}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe(JSON_TYPE);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.text()).toBe('{"statusCode":404,"statusMessage":"slot not found in registry"}');
    }
  });

  it('answers other unknown API paths with route not found, and pages with HTML', async () => {
    const api = await fetch(`${server.url}/api/nothing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ statusCode: 404, statusMessage: 'route not found' });
    for (const target of ['/widget/rtp/no-such-game', '/no-such-page', '/rtp/no-such-game']) {
      const res = await fetch(`${server.url}${target}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe(HTML_TYPE);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.text()).toMatch(/<html/i);
    }
  });

  it('answers the CORS preflight on every family', async () => {
    for (const [target] of ROUTES) {
      const res = await fetch(`${server.url}${target}`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://embedder.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toBe('x-api-key');
      expect(res.headers.get('access-control-max-age')).toBe('86400');
    }
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s → 405 JSON with Allow', async (method) => {
    for (const target of ['/api/rtp/list', '/api/rtp/book-of-dead', '/widget/rtp/book-of-dead', '/']) {
      const res = await fetch(`${server.url}${target}`, { method, body: method === 'DELETE' ? undefined : '{}' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({ statusCode: 405, statusMessage: 'method not allowed' });
    }
  });
});
