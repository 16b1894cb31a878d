// GET /api/og/rtp/{slug}.png against the real server: a 1200 × 630 PNG card per game, drawn on first
// request and then kept on disk (same ETag, 304 on revalidation), exempt from the rate limiter, a
// JSON 404 for a slug the registry does not hold, and the game page naming it as its og:image and
// Twitter image.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/routes/paths.ts';
import { type Server, startServer } from '../helpers/server.ts';

let server: Server;
const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'rtp-og-'));
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT: '1000000', CARD_CACHE_DIR: cacheDir } });
});
afterAll(async () => {
  await server?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

/** Width and height from a PNG's IHDR chunk (PNG spec §11.2.2). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(bytes);
  expect(view.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(view.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

describe('link-preview cards', () => {
  it('a game gets a 1200 × 630 PNG, exempt from the rate limit, cached an hour, kept on disk once drawn', async () => {
    const first = await fetch(server.url + paths.ogImage('book-of-dead'));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600, s-maxage=3600');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('x-ratelimit-limit')).toBeNull();
    const body = new Uint8Array(await first.arrayBuffer());
    expect(pngSize(body)).toEqual({ width: 1200, height: 630 });
    const etag = first.headers.get('etag')!;
    const [folder] = readdirSync(cacheDir);
    expect(existsSync(path.join(cacheDir, folder!, 'book-of-dead.png'))).toBe(true);
    const again = await fetch(server.url + paths.ogImage('book-of-dead'));
    expect(again.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(body))).toBe(true);
    const revalidated = await fetch(server.url + paths.ogImage('book-of-dead'), { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
  });

  it('an unknown slug or a malformed card path is a JSON 404', async () => {
    for (const target of [paths.ogImage('no-such-game'), '/api/og/rtp/Book-Of-Dead.png', '/api/og/rtp/book-of-dead.jpg']) {
      const r = await fetch(server.url + target);
      expect(r.status, target).toBe(404);
      expect(r.headers.get('content-type'), target).toBe('application/json; charset=utf-8');
    }
  });

  it('the game page names its card as og:image and twitter:image, with its size', async () => {
    const html = await (await fetch(`${server.url}/rtp/book-of-dead`)).text();
    const image = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
    expect(image).toMatch(/\/api\/og\/rtp\/book-of-dead\.png$/);
    expect(html).toContain('<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain(`<meta name="twitter:image" content="${image}">`);
    const card = await fetch(server.url + new URL(image!).pathname);
    expect(card.status).toBe(200);
  });
});
