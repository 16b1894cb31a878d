// The bulk downloads over HTTP from the built dist: types, CORS, caching, exempt from the rate limit,
// ETag and 304, HEAD, large files streamed; the data package's sizes and hashes match what is served.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figure } from '../../src/lib/percent.ts';
import { DataPackageSchema, RegistryDumpSchema, ReleaseChangesSchema, RemovedResponseSchema } from '../../src/schemas/dump.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { type Server, startServer, testOutDir } from '../helpers/server.ts';

let server: Server;
beforeAll(async () => {
  // A limit of 2 per window: any counted request past the second would be a 429.
  server = await startServer({ env: { RATE_LIMIT: '2' } });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const get = async (p: string, init: RequestInit = {}) => {
  const res = await fetch(server.url + p, init);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

const HOUR = 'public, max-age=3600, s-maxage=3600';

describe('bulk downloads', () => {
  it('serve the JSON, CSV and NDJSON dumps with their types, CORS, an hour of caching and no rate limit', async () => {
    const types: Record<string, string> = {
      '/api/rtp/dump/registry.json': 'application/json; charset=utf-8',
      '/api/rtp/dump/registry.csv': 'text/csv; charset=utf-8; header=present',
      '/api/rtp/dump/registry.ndjson': 'application/x-ndjson',
      '/api/rtp/dump/datapackage.json': 'application/json; charset=utf-8',
      '/api/rtp/removed': 'application/json; charset=utf-8',
      '/llms.txt': 'text/plain; charset=utf-8',
    };
    for (let round = 0; round < 3; round++) {
      for (const [p, type] of Object.entries(types)) {
        const r = await get(p);
        expect(r.status, p).toBe(200);
        expect(r.headers.get('content-type'), p).toBe(type);
        expect(r.headers.get('access-control-allow-origin')).toBe('*');
        expect(r.headers.get('cache-control')).toBe(HOUR);
        expect(r.headers.get('x-content-type-options')).toBe('nosniff');
        expect(r.headers.get('ratelimit'), p).toBeNull();
        expect(r.headers.get('content-length')).toBe(String(r.bytes.length));
      }
    }
  });

  it('serve what the data package describes, byte for byte', async () => {
    const pkg = DataPackageSchema.parse(JSON.parse((await get('/api/rtp/dump/datapackage.json')).bytes.toString('utf8')));
    for (const resource of pkg.resources) {
      const { bytes } = await get(`/api/rtp/dump/${resource.path}`);
      expect(bytes.length, resource.path).toBe(resource.bytes);
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(resource.hash);
    }
    const json = RegistryDumpSchema.parse(JSON.parse((await get('/api/rtp/dump/registry.json')).bytes.toString('utf8')));
    const bundle = JSON.parse(readFileSync(path.join(testOutDir(), 'server/registry-bundle.json'), 'utf8')) as {
      records: unknown[];
      history: Array<{ data_version: string }>;
    };
    expect(json.records).toEqual(bundle.records);
    expect(json.meta.data_version).toBe(pkg.version);
  });

  it('stream a dump larger than the cache holds, with a strong ETag, 304 and HEAD', async () => {
    const full = await get('/api/rtp/dump/registry.json');
    expect(full.bytes.length).toBeGreaterThan(1024 * 1024); // past the static cache's per-file bound: streamed
    const etag = full.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await get('/api/rtp/dump/registry.json')).headers.get('etag')).toBe(etag);
    const again = await get('/api/rtp/dump/registry.json', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    const head = await get('/api/rtp/dump/registry.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(full.bytes.length));
    expect(head.bytes.length).toBe(0);
  });

  it('serve the changes of every frozen version and the tombstones', async () => {
    const bundle = JSON.parse(readFileSync(path.join(testOutDir(), 'server/registry-bundle.json'), 'utf8')) as { history: Array<{ data_version: string }> };
    const versions = [...new Set(bundle.history.map((e) => e.data_version))];
    expect(versions.length).toBeGreaterThan(0);
    let previous: string | null = null;
    for (const v of versions) {
      const r = await get(`/api/rtp/dump/changes/${v}.json`);
      expect(r.status, v).toBe(200);
      const changes = ReleaseChangesSchema.parse(JSON.parse(r.bytes.toString('utf8')));
      expect(changes).toMatchObject({ data_version: v, previous_version: previous });
      previous = v;
    }
    RemovedResponseSchema.parse(JSON.parse((await get('/api/rtp/removed')).bytes.toString('utf8')));
  });

  it("serve each game's RTP badge as SVG with a locked-down CSP, not rate limited", async () => {
    const bundle = JSON.parse(readFileSync(path.join(testOutDir(), 'server/registry-bundle.json'), 'utf8')) as {
      records: Array<{ canonical_slug: string; stated_rtp: number }>;
    };
    for (const r of bundle.records.slice(0, 5)) {
      const res = await get(`/api/badge/rtp/${r.canonical_slug}.svg`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(res.headers.get('cache-control')).toBe(HOUR);
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.bytes.toString('utf8')).toContain(`>${figure(r.stated_rtp)}%</text>`);
    }
    // A figure given with three decimals is shown as given, never rounded (1 Can 2 Can: 95.245).
    const three = bundle.records.find((r) => /\.\d{3}$/.test(String(r.stated_rtp)))!;
    expect((await get(`/api/badge/rtp/${three.canonical_slug}.svg`)).bytes.toString('utf8')).toContain(`>${String(three.stated_rtp)}%</text>`);
    for (const p of ['/api/badge/rtp/no-such-game.svg', '/api/badge/rtp/book-of-dead', '/api/badge/rtp/book-of-dead.png']) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      ErrorBodySchema.parse(JSON.parse(r.bytes.toString('utf8')));
    }
  });

  it('serve the Atom feeds, and the pages link the feed of what they show', async () => {
    const bundle = JSON.parse(readFileSync(path.join(testOutDir(), 'server/registry-bundle.json'), 'utf8')) as {
      records: Array<{ canonical_slug: string; provider: string }>;
    };
    const game = bundle.records[0]!;
    const feeds = {
      '/': '/api/feeds/rtp.atom',
      '/about': '/api/feeds/rtp.atom',
      [`/providers/${game.provider}`]: `/api/feeds/provider/${game.provider}.atom`,
      [`/rtp/${game.canonical_slug}`]: `/api/feeds/game/${game.canonical_slug}.atom`,
    };
    // The pages are counted by the limiter: read them from a server with room for them.
    const pages = await startServer({ env: { RATE_LIMIT: '100' } });
    const htmlOf = async (p: string) => {
      const res = await fetch(pages.url + p);
      expect(res.status, p).toBe(200);
      return res.text();
    };
    for (const [page, feed] of Object.entries(feeds)) {
      const html = await htmlOf(page);
      const link = /<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="([^"]+)"/.exec(html);
      expect(link?.[1], page).toBe(feed);
      const r = await get(feed);
      expect(r.status, feed).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe(HOUR);
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('ratelimit')).toBeNull();
      expect(r.bytes.toString('utf8')).toContain(`<link rel="self" type="application/atom+xml" href="http://127.0.0.1:4321${feed}"/>`);
    }
    expect(await pages.stop()).toBe(0);
  });

  it('answer unknown dump paths with the JSON 404', async () => {
    for (const p of ['/api/rtp/dump/changes/9.9.9.json', '/api/rtp/dump/registry.xml', '/api/rtp/dump/', '/api/rtp/dump/changes/1.0.json']) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      ErrorBodySchema.parse(JSON.parse(r.bytes.toString('utf8')));
    }
  });
});
