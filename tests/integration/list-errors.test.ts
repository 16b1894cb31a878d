// Bad list and history queries over HTTP: 400 JSON naming each bad parameter, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { type Server, startServer } from '../helpers/server.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT: '1000000' } });
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

const LIMIT = 'must be an integer from 1 to 200';
const OFFSET = 'must be an integer from 0 to 1000000';
const SORT = 'must be one of: name, provider, rtp_desc, rtp_asc, variants_desc, recent, relevance';
const TYPE = 'must be one of: slot, scratchcard, table, video_poker, instant, bingo, keno';

describe('list errors', () => {
  it.each([
    ['limit=abc', [['limit', LIMIT]]],
    ['limit=0', [['limit', LIMIT]]],
    ['limit=201', [['limit', LIMIT]]],
    ['limit=1.5', [['limit', LIMIT]]],
    ['limit=-5', [['limit', LIMIT]]],
    ['offset=-1', [['offset', OFFSET]]],
    ['offset=1000001', [['offset', OFFSET]]],
    ['offset=x', [['offset', OFFSET]]],
    ['sort=newest', [['sort', SORT]]],
    ['game_type=video', [['game_type', TYPE]]],
    ['has_variants=yes', [['has_variants', 'must be 1 (or left out)']]],
    ['has_variants=0', [['has_variants', 'must be 1 (or left out)']]],
    [`q=${'x'.repeat(2000)}`, [['q', 'must be at most 200 characters']]],
    [`q=${'x'.repeat(201)}`, [['q', 'must be at most 200 characters']]],
    ['q=a+b+c+d+e+f+g+h+i+j+k', [['q', 'must contain at most 10 words']]],
    ['limit=1&limit=2', [['limit', 'must be given at most once']]],
    ['q=a&q=a', [['q', 'must be given at most once']]],
    ['provider=netent&provider=wazdan', [['provider', 'must be given at most once']]],
    [
      'limit=0&offset=-1&sort=x&game_type=y&has_variants=2',
      [
        ['game_type', TYPE],
        ['has_variants', 'must be 1 (or left out)'],
        ['sort', SORT],
        ['limit', LIMIT],
        ['offset', OFFSET],
      ],
    ],
  ])('%s → 400', async (query, errors) => {
    const res = await fetch(`${server.url}/api/rtp/list?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = ErrorBodySchema.parse(await res.json());
    expect(body).toEqual({ statusCode: 400, statusMessage: 'invalid query parameters', errors: errors.map(([param, message]) => ({ param, message })) });
  });

  it('refuses a query string past 2,048 bytes with 414 before reading it', async () => {
    const res = await fetch(`${server.url}/api/rtp/list?q=${'x'.repeat(10 * 1024)}`);
    expect(res.status).toBe(414);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ statusCode: 414, statusMessage: 'query string too long: at most 2048 bytes' });
  });

  it('accepts q of exactly 200 characters', async () => {
    expect((await fetch(`${server.url}/api/rtp/list?q=${'x'.repeat(200)}`)).status).toBe(200);
  });

  it('never answers 500 to malformed query strings', async () => {
    for (const query of ['%', '%zz', 'q=%E0%A4%A', 'q=%00', '&&&', '=', 'q', 'limit', 'q=%F0%9F%8E%B0', 'sort=%00', 'provider=%2F..%2F']) {
      const res = await fetch(`${server.url}/api/rtp/list?${query}`);
      expect([200, 400]).toContain(res.status);
      await res.arrayBuffer();
    }
  });
});

describe('history errors', () => {
  it.each([
    ['limit=0', 'limit', LIMIT],
    ['offset=-1', 'offset', OFFSET],
    ['since=yesterday', 'since', 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)'],
    ['slug=a&slug=b', 'slug', 'must be given at most once'],
  ])('%s → 400', async (query, param, message) => {
    const res = await fetch(`${server.url}/api/rtp/history?${query}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: 400, statusMessage: 'invalid query parameters', errors: [{ param, message }] });
  });
});
