// Batch lookup and delta sync over HTTP against the built dist: the named records in order, unknown
// ones in meta.missing; the records changed after a moment with updated_at; counted by the rate
// limiter like any list request, and the 400 for misuse.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchResponseSchema } from '../../src/schemas/batch.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { SyncResponseSchema } from '../../src/schemas/sync.ts';
import { type Server, startServer, testOutDir } from '../helpers/server.ts';

let server: Server;
let slugs: string[];
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT: '100' } });
  const bundle = JSON.parse(readFileSync(path.join(testOutDir(), 'server/registry-bundle.json'), 'utf8')) as { records: Array<{ canonical_slug: string }> };
  slugs = bundle.records.map((r) => r.canonical_slug);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe('GET /api/rtp/list?slugs=', () => {
  it('answers the named records in the order given, with missing ones named, counted by the limiter', async () => {
    const named = [slugs.at(-1)!, 'no-such-game', slugs[0]!, slugs[500]!];
    const res = await fetch(`${server.url}/api/rtp/list?slugs=${named.join(',')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const body = BatchResponseSchema.parse(await res.json());
    expect(body.items.map((i) => i.canonical_slug)).toEqual([slugs.at(-1), slugs[0], slugs[500]]);
    expect(body.meta).toMatchObject({ total: slugs.length, found: 3, missing: ['no-such-game'] });
    const etag = res.headers.get('etag')!;
    expect((await fetch(`${server.url}/api/rtp/list?slugs=${named.join(',')}`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
  });

  it('takes 200 real slugs over HTTP (a query string longer than the usual 2 KB bound)', async () => {
    const named = slugs.slice(-200);
    const url = `${server.url}/api/rtp/list?slugs=${named.join(',')}`;
    expect(url.length).toBeGreaterThan(2048);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const body = BatchResponseSchema.parse(await res.json());
    expect(body.items.map((i) => i.canonical_slug)).toEqual(named);
  });

  it('answers 400 naming slugs when it is combined with a filter', async () => {
    const res = await fetch(`${server.url}/api/rtp/list?slugs=${slugs[0]}&provider=playngo`);
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(await res.json()).errors).toEqual([
      {
        param: 'slugs',
        message:
          'cannot be combined with q, provider, game_type, has_variants, badge, confidence, sort, limit, offset, rtp_min, rtp_max, volatility, max_win_min, released_after, released_before, operator, operator_build, include, fields, updated_since',
      },
    ]);
  });
});

describe('GET /api/rtp/list?updated_since=', () => {
  it('pages through the records changed after a moment, each with updated_at, counted by the limiter', async () => {
    const seen = new Set<string>();
    let filtered = -1;
    for (let offset = 0; offset < 20_000; offset += 200) {
      const res = await fetch(`${server.url}/api/rtp/list?updated_since=2026-11-22&limit=200&offset=${offset}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      const page = SyncResponseSchema.parse(await res.json());
      filtered = page.meta.filtered;
      for (const item of page.items) {
        expect(item.updated_at > '2026-11-22').toBe(true);
        seen.add(item.canonical_slug);
      }
      if (!page.meta.has_more) break;
    }
    expect(seen.size).toBe(filtered);
    expect(filtered).toBeGreaterThan(0);
    const bad = await fetch(`${server.url}/api/rtp/list?updated_since=2026-11-22&q=book`);
    expect(bad.status).toBe(400);
    expect(ErrorBodySchema.parse(await bad.json()).errors).toEqual([
      {
        param: 'updated_since',
        message:
          'cannot be combined with q, provider, game_type, has_variants, badge, confidence, sort, rtp_min, rtp_max, volatility, max_win_min, released_after, released_before, operator, operator_build, include, fields, slugs',
      },
    ]);
  });
});
