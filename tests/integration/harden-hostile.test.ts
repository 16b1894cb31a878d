// Hostile traffic against the real server over loopback, from many client addresses: memory stays
// bounded by bytes under padded and distinct queries, slow-header clients are cut off while others
// are served, a malformed pipelined request never writes into a response in flight, and the
// framework surface is gone (docs/security.md).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents, blast, exchange, get } from '../helpers/load.ts';
import { type Server, startServer } from '../helpers/server.ts';

const portOf = (server: Server) => Number(new URL(server.url).port);

describe('memory stays bounded by bytes under hostile queries', () => {
  let server: Server;
  beforeAll(async () => {
    // A budget no client reaches, so every request gets past the limiter to the caches.
    server = await startServer({ env: { RATE_LIMIT: '1000000' } });
  });
  afterAll(async () => server?.stop());

  it('30,000 padded and distinct list requests from 20 addresses: all answered, a normal query after, RSS under 300 MB', async () => {
    const pool = agents(20, 10);
    const big = 'x'.repeat(15 * 1024);
    const near = (k: number) => String(k).padStart(8, '0') + 'y'.repeat(1900);
    const words = ['book', 'dead', 'gates', 'sweet', 'big', 'bass', 'wolf', 'gold', 'fire', 'star'];
    const statuses = await blast(server.url, 30_000, 40, pool, (k) => {
      if (k % 3 === 0) return `/api/rtp/list?limit=1&n=${k}&pad=${big}`; // past the bound: 414 before parsing
      if (k % 3 === 1) return `/api/rtp/list?limit=1&n=${k}&pad=${near(k)}`; // within it: parsed, one cached response
      return `/api/rtp/list?q=${words[k % 10]}+${k.toString(36)}${'z'.repeat(150)}`; // distinct searches
    });
    for (const a of pool) a.destroy();
    expect(statuses.get(0) ?? 0).toBe(0);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(statuses.get(414)).toBe(10_000);
    expect(statuses.get(200)).toBe(20_000);
    const normal = await get(`${server.url}/api/rtp/list?q=book&limit=5`);
    expect(normal.status).toBe(200);
    expect(JSON.parse(normal.body).items.length).toBeGreaterThan(0);
    expect(server.rssKiB()).toBeLessThan(300 * 1024);
    expect(server.output()).not.toContain('FATAL');
    expect(server.output()).toMatch(/memory bounds \d+ MiB in the heap .* heap in use = \d+ MiB of a \d+ MiB heap limit; \d+ MiB outside it/);
    expect(server.output()).not.toContain('WARNING the memory bounds');
  }, 180_000);

  it('a long path gets 414 JSON; a 414 is never cached or counted', async () => {
    const r = await get(`${server.url}/api/rtp/${'a'.repeat(2000)}`);
    expect(r.status).toBe(414);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(JSON.parse(r.body)).toEqual({ statusCode: 414, statusMessage: 'path too long: at most 1024 bytes' });
  });
});

describe('slow clients', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '120000', RATE_LIMIT: '1000000' } });
  });
  afterAll(async () => server?.stop());

  it('1,500 connections sending their head a byte at a time are cut off by the head timeout; others are served meanwhile', async () => {
    const port = portOf(server);
    const started = performance.now();
    /** Per slow connection: when it closed, and what the server sent first (nothing when refused past the cap). */
    const closed: Array<{ at: number; answer: string }> = [];
    const sockets: net.Socket[] = [];
    const head = `GET /api/rtp/list HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(4000)}`;
    let allClosed!: () => void;
    const done = new Promise<void>((resolve) => (allClosed = resolve));
    const opened = Array.from(
      { length: 1500 },
      (_, k) =>
        new Promise<void>((resolve) => {
          const socket = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.1.${(k % 15) + 1}` });
          let at = 0;
          let answer = '';
          const drip = setInterval(() => {
            if (!socket.destroyed && socket.writable) socket.write(head[at++ % head.length]!);
          }, 250);
          socket.on('data', (c: Buffer) => (answer += c.toString('latin1')));
          socket.on('error', () => undefined);
          socket.once('close', () => {
            clearInterval(drip);
            closed.push({ at: performance.now() - started, answer });
            if (closed.length === 1500) allClosed();
          });
          socket.once('connect', () => resolve());
          socket.once('close', () => resolve());
          sockets.push(socket);
        }),
    );
    await Promise.all(opened);
    // A normal client, ten requests a second, while the slow ones hold their connections; counted
    // as served while held when answered before the head timeout cut the first slow connection.
    let servedWhileHeld = 0;
    let served = 0;
    let finished = false;
    void done.then(() => (finished = true));
    const timedOut = () => closed.filter((c) => c.answer !== '').length;
    while (!finished && performance.now() - started < 90_000) {
      const r = await get(`${server.url}/api/rtp/list?q=book&limit=3`);
      expect(r.status).toBe(200);
      served++;
      if (timedOut() === 0) servedWhileHeld++;
      await new Promise((resolve) => setTimeout(resolve, 100)); // pacing of the normal client, not a wait for an event
    }
    expect(closed.length).toBe(1500);
    // Past the per-address cap (64 per address, 15 addresses), connections are closed at once, unanswered.
    const refused = closed.filter((c) => c.answer === '');
    expect(refused.length).toBeGreaterThanOrEqual(1500 - 15 * 64);
    // The rest are cut off by the head timeout (5 s here), each with the JSON 408, well before the
    // request timeout (120 s here) would have closed them: a wide margin on both sides.
    for (const c of closed.filter((c) => c.answer !== '')) {
      expect(c.answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(c.answer.endsWith('{"statusCode":408,"statusMessage":"request timeout"}')).toBe(true);
    }
    expect(Math.max(...closed.map((c) => c.at))).toBeLessThan(60_000);
    // Every refusal came before the first head timeout (event order, not a clock bound).
    expect(Math.max(...refused.map((c) => c.at))).toBeLessThan(Math.min(...closed.filter((c) => c.answer !== '').map((c) => c.at)));
    expect(servedWhileHeld).toBeGreaterThan(5);
    expect(served).toBeGreaterThanOrEqual(servedWhileHeld);
    for (const s of sockets) s.destroy();
  }, 150_000);
});

describe('protocol edges and surface', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.stop());

  it('a malformed request pipelined behind a valid one never writes into its response', async () => {
    const text = await exchange(portOf(server), 'GET /api/rtp/book-of-dead HTTP/1.1\r\nHost: x\r\n\r\nNOT A REQUEST\r\n\r\n');
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body).canonical_slug).toBe('book-of-dead');
    expect(text).not.toContain('HTTP/1.1 400');
  });

  it('a malformed request alone gets a JSON 400', async () => {
    const text = await exchange(portOf(server), 'NOT A REQUEST\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toContain('X-Content-Type-Options: nosniff');
    expect(text.endsWith('{"statusCode":400,"statusMessage":"bad request"}')).toBe(true);
  });

  it.each(['/_image?href=%2Ffavicon.svg&w=16&h=16&f=png', '/_server-islands/Any', '/_actions/any'])(
    '%s: 404 (no framework runtime), never a 500',
    async (target) => {
      const r = await get(server.url + target);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.headers['cache-control']).toBe('no-store');
    },
  );

  it.each(['/', '/about', '/providers', '/rtp/book-of-dead', '/no-such-page'])('%s: the page security headers', async (target) => {
    const r = await get(server.url + target);
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the widget keeps allowing framing', async () => {
    const r = await get(`${server.url}/widget/rtp/book-of-dead`);
    expect(r.status).toBe(200);
    expect(r.headers['x-frame-options']).toBeUndefined();
    expect(r.headers['content-security-policy']).not.toContain('frame-ancestors');
  });

  it.each(['/api/rtp/list?q=book', '/api/rtp/history', '/api/openapi.json', '/api/rtp/list?limit=0', '/api/rtp/book-of-dead'])(
    '%s: nosniff',
    async (target) => {
      expect((await get(server.url + target)).headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('build assets are not counted against the rate limit', async () => {
    const page = await get(`${server.url}/`);
    const asset = /(?:src|href)="(\/_astro\/[^"]+)"/.exec(page.body)?.[1];
    expect(asset).toBeDefined();
    const r = await get(server.url + asset!);
    expect(r.status).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
