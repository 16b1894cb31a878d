// The server's request handler in-process over a real socket: a fixture dist/client, the fixture
// bundle, a fake Astro handler. Methods, preflight, headers per family, 304, 404s, traversal,
// rate limiting, client keys behind proxies, framework paths (404: no adapter), request-target bounds,
// and errors on the asynchronous limiter path.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { createApp } from '../../src/server/app.ts';
import { NO_PROXY, parseTrustProxy } from '../../src/server/client-ip.ts';
import { RateLimiter } from '../../src/server/rate-limit.ts';
import { MemoryRateLimitStore } from '../../src/server/rate-limit-memory.ts';
import type { RateLimitStore } from '../../src/server/rate-limit-store.ts';
import { describeRoute, hasHeader } from '../../src/server/request.ts';
import { MAX_BATCH_QUERY_LENGTH, MAX_QUERY_LENGTH } from '../../src/server/request-target.ts';
import { StaticFiles } from '../../src/server/static.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

const bundle = fixtureBundle(60);
const slug = bundle.records[0]!.canonical_slug;
let root: string;
let outside: string;

function write(rel: string, text: string): void {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(base: string, target: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: init.method ?? 'GET', path: target, headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer(listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let server: { base: string; close: () => Promise<void> };
let limitedServer: { base: string; close: () => Promise<void> };
let proxiedServer: { base: string; close: () => Promise<void> };
const errors: unknown[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'rtp-app-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'rtp-outside-'));
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  write('index.html', '<h1>home</h1>');
  write('about.html', '<h1>about</h1>');
  write('providers/beta.html', '<h1>beta</h1>');
  write(`rtp/${slug}.html`, '<h1>game page</h1>');
  write(`api/rtp/${slug}`, JSON.stringify({ canonical_slug: slug }));
  write('api/rtp/provider/beta', JSON.stringify({ provider: 'beta' }));
  write(`api/widget/rtp/${slug}`, JSON.stringify({ slug }));
  write(`widget/rtp/${slug}.html`, '<p>widget</p>');
  write('api/openapi.json', '{"openapi":"3.1.0"}');
  write('_astro/app.abc.js', 'console.log(1)');
  write('favicon.svg', '<svg/>');
  write('_headers', '/*\n  X-Test: 1\n');
  write('.env', 'SECRET=1');
  write('404.html', '<h1>custom 404</h1>');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'api/rtp/linked'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'linked.txt'));

  const services = servicesFor(bundle);
  const statics = await StaticFiles.open(root);
  const base = { services, statics, trustProxy: NO_PROXY, notFoundHtml: Buffer.from('<h1>custom 404</h1>'), onError: (e: unknown) => errors.push(e) };
  server = await listen(createApp({ ...base, limiter: new RateLimiter({ store: new MemoryRateLimitStore(), limit: 1_000_000 }) }));
  limitedServer = await listen(createApp({ ...base, limiter: new RateLimiter({ store: new MemoryRateLimitStore(), limit: 3 }) }));
  proxiedServer = await listen(
    createApp({ ...base, trustProxy: parseTrustProxy('1', []), limiter: new RateLimiter({ store: new MemoryRateLimitStore(), limit: 2 }) }),
  );
});

afterAll(async () => {
  await Promise.all([server.close(), limitedServer.close(), proxiedServer.close()]);
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

describe('routes and headers', () => {
  it.each([
    ['/api/rtp/list?q=book', JSON_TYPE, 'public, max-age=0, s-maxage=300', true],
    ['/api/rtp/history', JSON_TYPE, 'public, max-age=0, s-maxage=3600', false],
    [`/api/rtp/${slug}`, JSON_TYPE, 'public, max-age=3600, s-maxage=3600', true],
    ['/api/rtp/provider/beta', JSON_TYPE, 'public, max-age=3600, s-maxage=3600', false],
    [`/api/widget/rtp/${slug}`, JSON_TYPE, 'public, max-age=3600, s-maxage=3600', false],
    [`/widget/rtp/${slug}`, HTML_TYPE, 'public, max-age=3600, s-maxage=3600', true],
    ['/api/openapi.json', JSON_TYPE, 'public, max-age=3600, s-maxage=3600', true],
    ['/', HTML_TYPE, 'public, max-age=300, s-maxage=3600', true],
    ['/about', HTML_TYPE, 'public, max-age=300, s-maxage=3600', true],
    ['/providers/beta', HTML_TYPE, 'public, max-age=300, s-maxage=3600', true],
    [`/rtp/${slug}`, HTML_TYPE, 'public, max-age=300, s-maxage=3600', true],
    ['/_astro/app.abc.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable', false],
    ['/favicon.svg', 'image/svg+xml', 'public, max-age=300, s-maxage=3600', true],
  ])('%s: 200, %s, %s, CORS, ETag, rate-limit headers only when counted', async (target, type, cache, counted) => {
    const r = await request(server.base, target);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(type);
    expect(r.headers['cache-control']).toBe(cache);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
    expect(r.headers.vary).toBeUndefined();
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy']) {
      expect(r.headers[h] !== undefined).toBe(counted);
    }
  });

  it('sends the widget CSP and nosniff with the widget', async () => {
    const r = await request(server.base, `/widget/rtp/${slug}`);
    expect(r.headers['content-security-policy']).toBeTruthy();
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers the list with the list handler, valid against the public schema', async () => {
    const r = await request(server.base, '/api/rtp/list?q=book&limit=3');
    expect(ListResponseSchema.parse(JSON.parse(r.body)).items.length).toBeLessThanOrEqual(3);
  });

  it('answers many concurrent distinct list queries each with its own exact bytes', async () => {
    const queries = Array.from(
      { length: 60 },
      (_, i) => `limit=${1 + (i % 40)}&offset=${i}&sort=${['name', 'rtp_desc', 'recent'][i % 3]}${i % 2 ? '&q=o' : ''}`,
    );
    const replies = await Promise.all(queries.map((q) => request(server.base, `/api/rtp/list?${q}`)));
    const reference = servicesFor(bundle);
    replies.forEach((r, i) => {
      expect(r.status).toBe(200);
      expect(r.body).toBe(reference.list(queries[i]!).body.toString('utf8'));
    });
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await request(server.base, '/api/rtp/list?limit=2');
    const head = await request(server.base, '/api/rtp/list?limit=2', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it.each(['/api/rtp/list?limit=4', '/api/rtp/history', `/api/rtp/${slug}`, `/widget/rtp/${slug}`, '/about', '/api/rtp/provider/beta'])(
    '%s: 304 for a matching If-None-Match',
    async (target) => {
      const first = await request(server.base, target);
      const etag = first.headers.etag!;
      for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
        const r = await request(server.base, target, { headers: { 'If-None-Match': inm } });
        expect(r.status).toBe(304);
        expect(r.body).toBe('');
        expect(r.headers.etag).toBe(etag);
        expect(r.headers['cache-control']).toBe(first.headers['cache-control']);
        expect(r.headers['access-control-allow-origin']).toBe('*');
        expect(r.headers['content-type']).toBeUndefined();
      }
      expect((await request(server.base, target, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
      expect((await request(server.base, target, { headers: { 'iF-nOnE-mAtCh': etag } })).status).toBe(304);
    },
  );

  it('finds a header in the raw list whatever its case, without building req.headers', () => {
    const req = { rawHeaders: ['Host', 'x', 'IF-NONE-MATCH', '"a"', 'X-Api-Key', 'k'] } as unknown as IncomingMessage;
    expect(hasHeader(req, 'if-none-match')).toBe(true);
    expect(hasHeader(req, 'x-api-key')).toBe(true);
    expect(hasHeader(req, 'authorization')).toBe(false);
    expect(hasHeader({ rawHeaders: ['"a"', 'authorization'] } as unknown as IncomingMessage, 'authorization')).toBe(false); // values are not names
  });
});

describe('methods', () => {
  it('answers a preflight with 204 and the CORS grant, echoing requested headers', async () => {
    const r = await request(server.base, '/api/rtp/list', {
      method: 'OPTIONS',
      headers: { Origin: 'https://x.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'X-API-Key, If-None-Match' },
    });
    expect(r.status).toBe(204);
    expect(r.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'X-API-Key, If-None-Match',
      'access-control-max-age': '86400',
      allow: 'GET, HEAD, OPTIONS',
    });
    expect(r.body).toBe('');
  });

  it('lists the default allowed headers when the requested ones cannot be echoed', async () => {
    const r = await request(server.base, '/anything', { method: 'OPTIONS', headers: { 'Access-Control-Request-Headers': 'bad header;' } });
    expect(r.headers['access-control-allow-headers']).toBe(
      'Accept, Accept-Language, Authorization, Cache-Control, Content-Type, If-Modified-Since, If-None-Match, X-API-Key',
    );
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s → 405 JSON with Allow', async (method) => {
    const r = await request(server.base, '/api/rtp/list', { method });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['content-type']).toBe(JSON_TYPE);
    expect(JSON.parse(r.body)).toEqual({ statusCode: 405, statusMessage: 'method not allowed' });
  });
});

describe('not found and odd paths', () => {
  const SLOT_404 = '{"statusCode":404,"statusMessage":"slot not found in registry"}';
  it.each(['/api/rtp/nope', '/api/rtp/list/', `/api/rtp/${slug}/`, '/api/rtp/Book-Of-Dead', '/api/rtp/provider/', '/api/rtp/linked', '/api/rtp/a.json'])(
    '%s → the slot 404 bytes',
    async (target) => {
      const r = await request(server.base, target);
      expect(r.status).toBe(404);
      expect(r.body).toBe(SLOT_404);
      expect(r.headers['content-type']).toBe(JSON_TYPE);
      expect(r.headers['access-control-allow-origin']).toBe('*');
    },
  );

  it.each(['/api/nope', '/api', '/api/widget/rtp/nope', '/api/openapi.yaml'])('%s → JSON route not found', async (target) => {
    const r = await request(server.base, target);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toEqual({ statusCode: 404, statusMessage: 'route not found' });
  });

  it.each([
    '/widget/rtp/nope',
    '/nope',
    '/_headers',
    '/.env',
    '/linked.txt',
    '/index.html',
    '/about.html',
    `/widget/rtp/${slug}.html`,
    '/404',
    '/rtp/nope',
    `/rtp/${slug}.html`,
  ])('%s → the HTML 404 page', async (target) => {
    const r = await request(server.base, target);
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe(HTML_TYPE);
    expect(r.body).toBe('<h1>custom 404</h1>');
  });

  it.each([
    '/api/rtp/../../../etc/passwd',
    '/api/rtp/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/api/rtp/..%2f..%2f..%2fetc%2fpasswd',
    '/api/rtp/%2e%2e%5c%2e%2e%5cetc%5cpasswd',
    '/api/rtp/book%00',
    '//etc/passwd',
    '/api//rtp/list',
    '/%2e%2e/%2e%2e/tmp',
  ])('%s → 404, never a file outside the client folder', async (target) => {
    const r = await request(server.base, target);
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('root:');
    expect(r.body).not.toContain('secret');
  });

  it.each(['/_image?href=/x.png&w=1&h=1&f=png', '/_server-islands/X', '/_actions/x', '/on-demand'])(
    '%s: a framework endpoint or unknown page is a plain 404 (no adapter is loaded)',
    async (target) => {
      const r = await request(server.base, target);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe(HTML_TYPE);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    },
  );
});

describe('rate limiting', () => {
  it('counts every counted family, 304s and 404s included, and refuses beyond the limit', async () => {
    const a = await request(limitedServer.base, '/api/rtp/list');
    expect(a.headers['x-ratelimit-remaining']).toBe('2');
    const b = await request(limitedServer.base, '/api/rtp/list', { headers: { 'If-None-Match': a.headers.etag! } });
    expect(b.status).toBe(304);
    expect(b.headers['x-ratelimit-remaining']).toBe('1');
    const c = await request(limitedServer.base, '/api/rtp/nope');
    expect(c.status).toBe(404);
    expect(c.headers['x-ratelimit-remaining']).toBe('0');
    const d = await request(limitedServer.base, '/about');
    expect(d.status).toBe(429);
    expect(d.headers['retry-after']).toMatch(/^\d+$/);
    expect(d.headers['x-ratelimit-remaining']).toBe('0');
    expect(d.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(d.body)).toEqual({
      statusCode: 429,
      statusMessage: 'rate limit exceeded',
      limit: 3,
      remaining: 0,
      reset: Number(d.headers['x-ratelimit-reset']),
    });
  });

  it('never counts or blocks exempt routes, preflights or refused methods', async () => {
    for (const target of ['/api/rtp/history', '/api/rtp/provider/beta', `/api/widget/rtp/${slug}`, '/api/rtp/provider/nope', '/api/widget/rtp/nope']) {
      const r = await request(limitedServer.base, target);
      expect(r.status).not.toBe(429);
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
      expect(r.headers.ratelimit).toBeUndefined();
    }
    expect((await request(limitedServer.base, '/api/rtp/list', { method: 'OPTIONS' })).status).toBe(204);
    expect((await request(limitedServer.base, '/api/rtp/list', { method: 'POST' })).status).toBe(405);
  });

  it('counts a file served from memory by its route family, as when it was first read', async () => {
    // Each path three times: the first answer reads the file, the others come from memory, where
    // the family the file was read as decides the counting (src/server/app.ts).
    const counted = [`/api/rtp/${slug}`, `/rtp/${slug}`, `/widget/rtp/${slug}`, '/about', '/favicon.svg', '/api/openapi.json'];
    const exempt = ['/api/rtp/provider/beta', `/api/widget/rtp/${slug}`, '/_astro/app.abc.js'];
    for (const target of [...counted, ...exempt]) {
      const remaining: (string | undefined)[] = [];
      for (let k = 0; k < 3; k++) {
        const r = await request(server.base, target);
        expect(r.status, target).toBe(200);
        remaining.push(r.headers['x-ratelimit-remaining'] as string | undefined);
      }
      if (exempt.includes(target)) expect(remaining, target).toEqual([undefined, undefined, undefined]);
      else {
        expect(remaining, target).toEqual([expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/)]);
        expect(remaining.map(Number), target).toEqual([Number(remaining[0]), Number(remaining[0]) - 1, Number(remaining[0]) - 2]);
      }
    }
  });

  it('keys on the X-Forwarded-For client behind a trusted proxy', async () => {
    const as = (ip: string) => request(proxiedServer.base, '/about', { headers: { 'X-Forwarded-For': `6.6.6.6, ${ip}` } });
    expect((await as('203.0.113.1')).status).toBe(200);
    expect((await as('203.0.113.1')).status).toBe(200);
    expect((await as('203.0.113.1')).status).toBe(429);
    expect((await as('203.0.113.2')).status).toBe(200);
  });

  it('ignores X-Forwarded-For without a trusted proxy', async () => {
    for (let i = 0; i < 5; i++) await request(limitedServer.base, '/about', { headers: { 'X-Forwarded-For': `203.0.113.${i}` } });
    expect((await request(limitedServer.base, '/about', { headers: { 'X-Forwarded-For': '198.51.100.1' } })).status).toBe(429);
  });
});

describe('request-target bounds', () => {
  it('answers a query string past MAX_QUERY_LENGTH with 414 JSON, before parsing, without echoing it', async () => {
    const pad = 'Z'.repeat(MAX_QUERY_LENGTH);
    const r = await request(limitedServer.base, `/api/rtp/list?limit=1&pad=${pad}`);
    expect(r.status).toBe(414);
    expect(r.body).toBe('{"statusCode":414,"statusMessage":"query string too long: at most 2048 bytes"}');
    expect(r.headers['content-type']).toBe(JSON_TYPE);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('answers a path past 1024 bytes with 414 JSON', async () => {
    const r = await request(server.base, `/api/rtp/${'a'.repeat(1100)}`);
    expect(r.status).toBe(414);
    expect(r.body).toBe('{"statusCode":414,"statusMessage":"path too long: at most 1024 bytes"}');
  });

  it('answers a query string of exactly MAX_QUERY_LENGTH as usual', async () => {
    const q = `limit=1&pad=${'Z'.repeat(MAX_QUERY_LENGTH - 'limit=1&pad='.length)}`;
    expect(q.length).toBe(MAX_QUERY_LENGTH);
    expect((await request(server.base, `/api/rtp/list?${q}`)).status).toBe(200);
  });

  it('lets a batch lookup take up to MAX_BATCH_QUERY_LENGTH, and no other query', async () => {
    const slugs = Array.from({ length: 200 }, (_, k) => `some-long-game-name-number-${k}`).join(',');
    expect(slugs.length).toBeGreaterThan(MAX_QUERY_LENGTH);
    const batch = await request(server.base, `/api/rtp/list?slugs=${slugs}`);
    expect(batch.status).toBe(200);
    expect(JSON.parse(batch.body).meta.missing).toHaveLength(200);
    const other = await request(server.base, `/api/rtp/list?q=${'a'.repeat(3000)}`);
    expect(other.status).toBe(414);
    const tooLong = await request(server.base, `/api/rtp/list?slugs=${'a'.repeat(MAX_BATCH_QUERY_LENGTH)}`);
    expect(tooLong.status).toBe(414);
    expect(tooLong.body).toBe('{"statusCode":414,"statusMessage":"query string too long: at most 14336 bytes for a batch lookup"}');
    expect((await request(server.base, `/api/rtp/history?slugs=${'a'.repeat(3000)}`)).status).toBe(414);
  });

  it('a 400 names the parameter and never echoes its value', async () => {
    const r = await request(server.base, `/api/rtp/list?q=${'<script>x</script>'.repeat(20)}&limit=<img>`);
    expect(r.status).toBe(400);
    expect(r.body).not.toContain('script');
    expect(r.body).not.toContain('<img>');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('nosniff on every response', () => {
  it.each([
    '/api/rtp/list?q=book',
    '/api/rtp/history',
    `/api/rtp/${slug}`,
    '/api/openapi.json',
    '/about',
    '/_astro/app.abc.js',
    '/api/rtp/list?limit=0',
    '/nope',
    '/api/nope',
  ])('%s', async (target) => {
    expect((await request(server.base, target)).headers['x-content-type-options']).toBe('nosniff');
  });

  it('preflights and 405s', async () => {
    expect((await request(server.base, '/api/rtp/list', { method: 'OPTIONS' })).headers['x-content-type-options']).toBe('nosniff');
    expect((await request(server.base, '/api/rtp/list', { method: 'DELETE' })).headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('errors on the asynchronous limiter path', () => {
  it('a throw while routing after an asynchronous decision is a 500 JSON, never an unhandled rejection or a hang', async () => {
    const asyncStore: RateLimitStore = { increment: async (_k, w) => ({ count: 1, resetAt: Date.now() + w }), close: () => undefined };
    const seen: unknown[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const services = servicesFor(bundle);
    const broken = await listen(
      createApp({
        services: {
          ...services,
          list: () => {
            throw new Error('list exploded');
          },
        },
        statics: await StaticFiles.open(root),
        trustProxy: NO_PROXY,
        notFoundHtml: Buffer.from('x'),
        onError: (e) => seen.push(e),
        limiter: new RateLimiter({ store: asyncStore, limit: 100 }),
      }),
    );
    try {
      const r = await request(broken.base, '/api/rtp/list?q=book');
      expect(r.status).toBe(500);
      expect(r.body).toBe('{"statusCode":500,"statusMessage":"internal server error"}');
      expect(r.body).not.toContain('exploded');
      expect(seen).toHaveLength(1);
      await new Promise((r2) => setImmediate(r2));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await broken.close();
    }
  });

  it('describeRoute names the route pattern, never the request target', () => {
    const req = (url: string, method = 'GET') => ({ url, method }) as IncomingMessage;
    expect(describeRoute(req('/api/rtp/list?key=rtp_live_secret&q=<x>'))).toBe('GET /api/rtp/list');
    expect(describeRoute(req('/api/rtp/book-of-dead?token=1'))).toBe('GET /api/rtp/{slug}');
    expect(describeRoute(req('/widget/rtp/x'))).toBe('GET /widget/rtp/{slug}');
    expect(describeRoute(req('/some/<payload>'))).toBe('GET (page)');
    expect(describeRoute(req('/', 'G\r\nX'))).toBe('(method) (page)');
  });
});
