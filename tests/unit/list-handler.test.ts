// The list handler's HTTP-neutral answers: status, headers, error bodies, ETags, the Astro endpoint shape.
import { describe, expect, it } from 'vitest';
import { toResponse } from '../../src/list/http.ts';
import { createServices } from '../../src/list/service.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

const services = createServices(fixtureBundle(120));

describe('list handler', () => {
  it('answers 200 JSON with the list cache policy, CORS and a strong ETag from the bytes', () => {
    const r = services.list('q=book');
    expect(r.status).toBe(200);
    expect(r.headers).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=300',
      ETag: r.headers.ETag,
      'Access-Control-Allow-Origin': '*',
    });
    expect(r.headers.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    ListResponseSchema.parse(JSON.parse(r.body.toString('utf8')));
  });

  it('answers 400 with every bad parameter and no caching', () => {
    const r = services.list('limit=abc&offset=-1&sort=nope&game_type=video&has_variants=yes');
    expect(r.status).toBe(400);
    expect(r.headers).toEqual({ 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' });
    expect(r.body.toString('utf8')).toBe(
      '{"statusCode":400,"statusMessage":"invalid query parameters","errors":[' +
        '{"param":"game_type","message":"must be one of: slot, scratchcard, table, instant, bingo, keno"},' +
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
