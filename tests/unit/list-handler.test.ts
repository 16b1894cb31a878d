// The list handler's HTTP-neutral answers: status, headers, error bodies, ETags, the Astro endpoint shape.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import type { ListEngine } from '../../src/list/engine.ts';
import { toResponse } from '../../src/list/handler-result.ts';
import { listEtag, listFormat } from '../../src/list/list.ts';
import { listQueryKey, parseListQuery } from '../../src/list/query.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

const services = servicesFor(fixtureBundle(120));

function queryOf(search: string) {
  const parsed = parseListQuery(search);
  if (!parsed.ok) throw new Error(search);
  return parsed.query;
}

const PINNED = {
  '': '4b45108c2a5d09cd',
  'q=book&sort=relevance&limit=7': '0a3166b9289112b3',
  'provider=beta&has_variants=1&sort=rtp_desc&offset=3': '0446db9ccaf598e9',
  'game_type=keno&q=xyz': 'ca249fd03052aed0',
};

describe('list handler', () => {
  it('answers 200 JSON with the list cache policy, CORS and a strong ETag', () => {
    const r = services.list('q=book');
    expect(r.status).toBe(200);
    expect(r.headers).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=300',
      ETag: r.headers.ETag,
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(r.headers.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    ListResponseSchema.parse(JSON.parse(r.body.toString('utf8')));
  });

  it('answers 400 with every bad parameter and no caching', () => {
    const r = services.list('limit=abc&offset=-1&sort=nope&game_type=video&has_variants=yes');
    expect(r.status).toBe(400);
    expect(r.headers).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
    });
    expect(r.body.toString('utf8')).toBe(
      '{"statusCode":400,"statusMessage":"invalid query parameters","errors":[' +
        '{"param":"game_type","message":"must be one of: slot, scratchcard, table, video_poker, instant, bingo, keno"},' +
        '{"param":"has_variants","message":"must be 1 (or left out)"},' +
        '{"param":"sort","message":"must be one of: name, provider, rtp_desc, rtp_asc, variants_desc, recent, relevance"},' +
        '{"param":"limit","message":"must be an integer from 1 to 200"},' +
        '{"param":"offset","message":"must be an integer from 0 to 1000000"}]}',
    );
    ErrorBodySchema.parse(JSON.parse(r.body.toString('utf8')));
  });

  it('gives different ETags to different answers and equal ETags to equal ones', () => {
    expect(services.list('limit=5').headers.ETag).not.toBe(services.list('limit=6').headers.ETag);
    expect(services.list('limit=5&x=1').headers.ETag).toBe(services.list('limit=5').headers.ETag);
  });

  it('tags a body by the list format, the registry content and the normalised query', () => {
    const r = services.list('q=book&limit=5');
    expect(r.headers.ETag).toBe(listEtag(services.engine, listQueryKey(queryOf('limit=5&q=book'))));
    const other = servicesFor({ ...fixtureBundle(120), meta: { ...fixtureBundle(120).meta, data_version: '2.3.5' } });
    expect(other.list('q=book&limit=5').headers.ETag).not.toBe(r.headers.ETag);
    // Two queries whose fields would run together in a naive key get their own answers and tags.
    const a = services.list('q=a%00b');
    const b = services.list('q=a&provider=b');
    expect(services.list('q=a%00b').body.equals(a.body)).toBe(true); // now cached
    expect(services.list('q=a&provider=b').body.equals(b.body)).toBe(true);
    expect(a.headers.ETag).not.toBe(b.headers.ETag);
  });

  // Responses stay byte-identical: when this fails because the list body's encoding changed on
  // purpose, update the digests (the ETag's format id follows by itself, see the next test).
  it('pins the bytes of fixture bodies', () => {
    const digests = Object.fromEntries(
      ['', 'q=book&sort=relevance&limit=7', 'provider=beta&has_variants=1&sort=rtp_desc&offset=3', 'game_type=keno&q=xyz'].map((q) => [
        q,
        createHash('sha256').update(services.list(q).body).digest('hex').slice(0, 16),
      ]),
    );
    expect(digests).toEqual(PINNED);
  });

  it('changes the format id, and so every ETag, when the body encoding changes', () => {
    const base = services.engine;
    // The same data with one record written differently (a space after it): another format.
    const respaced: ListEngine = Object.assign(Object.create(Object.getPrototypeOf(base) as object) as ListEngine, base, {
      recordLength: (i: number) => base.recordLength(i) + 1,
      copyRecord: (i: number, target: Uint8Array, at: number) => {
        const end = base.copyRecord(i, target, at);
        target[end] = 0x20;
        return end + 1;
      },
    });
    expect(listFormat(base)).toMatch(/^[0-9a-f]{16}$/);
    expect(listFormat(base)).toBe(listFormat(servicesFor(fixtureBundle(120)).engine));
    expect(listFormat(respaced)).not.toBe(listFormat(base));
    // The same for the default items the bodies are made of.
    const respacedItems: ListEngine = Object.assign(Object.create(Object.getPrototypeOf(base) as object) as ListEngine, base, {
      itemLength: (i: number) => base.itemLength(i) + 1,
      copyItem: (i: number, target: Uint8Array, at: number) => {
        const end = base.copyItem(i, target, at);
        target[end] = 0x20;
        return end + 1;
      },
    });
    expect(listFormat(respacedItems)).not.toBe(listFormat(base));
    expect(listEtag(respaced, 'k')).not.toBe(listEtag(base, 'k'));
  });

  it('converts to a web Response for the Astro endpoints', async () => {
    const r = services.list('limit=1');
    const response = toResponse(r);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('etag')).toBe(r.headers.ETag);
    expect(Buffer.from(await response.arrayBuffer()).equals(r.body)).toBe(true);
  });

  it('reports the bundle meta', () => {
    expect(services).toMatchObject({ dataVersion: '2.3.4', frozenAt: '2026-05-01T00:00:00Z', games: 120 });
  });
});
