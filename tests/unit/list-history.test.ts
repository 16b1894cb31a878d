// GET /api/rtp/history in-process: order, filters, since, paging, validation, schema, headers.
import { describe, expect, it } from 'vitest';
import { createHistoryHandler, parseSince } from '../../src/list/history.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { HistoryResponseSchema } from '../../src/schemas/history.ts';
import { fixtureRegistry } from '../helpers/list-fixture.ts';

const registry = fixtureRegistry(20);
const handler = createHistoryHandler(registry.meta, registry.history);
const [g0, g1, g2, g3] = registry.games;

function ok(query: string) {
  const r = handler(query);
  expect(r.status).toBe(200);
  return HistoryResponseSchema.parse(JSON.parse(r.body.toString('utf8')));
}

function bad(query: string) {
  const r = handler(query);
  expect(r.status).toBe(400);
  expect(r.headers['Cache-Control']).toBe('no-store');
  return ErrorBodySchema.parse(JSON.parse(r.body.toString('utf8')));
}

describe('history handler', () => {
  it('lists every entry newest first; one freeze in reverse file order', () => {
    const page = ok('');
    expect(page.meta).toEqual({
      data_version: '2.3.4',
      frozen_at: '2026-05-01T00:00:00Z',
      total: 5,
      filtered: 5,
      has_more: false,
      query: { slug: null, provider: null, since: null, limit: 50, offset: 0 },
    });
    expect(page.items.map((i) => [i.data_version, i.slug, i.field])).toEqual([
      ['2.3.4', g2!.canonical_slug, 'rtp_variants'],
      ['2.3.4', g0!.canonical_slug, 'stated_rtp'],
      ['2.3.3', g1!.canonical_slug, 'rtp_variants'],
      ['2.3.3', g0!.canonical_slug, 'stated_rtp'],
      ['2.2.0', g3!.canonical_slug, 'stated_rtp'],
    ]);
    expect(Object.keys(page.items[0]!)).toEqual(['data_version', 'frozen_at', 'slug', 'provider', 'field', 'from', 'to', 'merged_into']);
    expect(page.items.every((i) => i.merged_into === null)).toBe(true);
  });

  it('filters by slug and provider; unknown values give filtered 0', () => {
    expect(ok(`slug=${g0!.canonical_slug}`).items.map((i) => i.data_version)).toEqual(['2.3.4', '2.3.3']);
    expect(ok(`provider=${g1!.provider}`).items.every((i) => i.provider === g1!.provider)).toBe(true);
    expect(ok('slug=nope').meta).toMatchObject({ total: 5, filtered: 0, has_more: false });
    expect(ok('provider=nope').items).toEqual([]);
  });

  it('keeps entries frozen at or after since (a date is its midnight UTC; offsets compared as instants)', () => {
    expect(ok('since=2026-05-01').meta.filtered).toBe(2);
    expect(ok('since=2026-05-01T00:00:00Z').meta.filtered).toBe(2);
    expect(ok('since=2026-05-01T00:00:01Z').meta.filtered).toBe(0);
    expect(ok('since=2026-03-01T02:00:00%2B02:00').meta.filtered).toBe(4);
    // 2026-01-15T12:00:00+02:00 is 10:00 UTC.
    expect(ok('since=2026-01-15T10:00:00Z').meta.filtered).toBe(5);
    expect(ok('since=2026-01-15T10:00:01Z').meta.filtered).toBe(4);
    expect(ok('since=2026-05-01').meta.query.since).toBe('2026-05-01T00:00:00.000Z');
  });

  it('pages with limit and offset', () => {
    const first = ok('limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.meta.has_more).toBe(true);
    const last = ok('limit=2&offset=4');
    expect(last.items).toHaveLength(1);
    expect(last.meta.has_more).toBe(false);
    expect([...first.items, ...ok('limit=2&offset=2').items, ...last.items]).toEqual(ok('').items);
  });

  it.each([
    ['limit=0', 'limit', 'must be an integer from 1 to 200'],
    ['limit=201', 'limit', 'must be an integer from 1 to 200'],
    ['limit=abc', 'limit', 'must be an integer from 1 to 200'],
    ['offset=-1', 'offset', 'must be an integer from 0 to 1000000'],
    ['since=yesterday', 'since', 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)'],
    ['since=2026-02-31', 'since', 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)'],
    ['since=2026-01-31T12:00:00', 'since', 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)'],
    ['since=1700000000', 'since', 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)'],
    ['slug=a&slug=b', 'slug', 'must be given at most once'],
    [`provider=${'p'.repeat(201)}`, 'provider', 'must be at most 200 characters'],
  ])('%s → 400 naming %s', (query, param, message) => {
    expect(bad(query)).toEqual({ statusCode: 400, statusMessage: 'invalid query parameters', errors: [{ param, message }] });
  });

  it('parses since values', () => {
    expect(parseSince('2026-01-31')).toBe(Date.UTC(2026, 0, 31));
    expect(parseSince('2026-01-31T12:00:00.5+01:00')).toBe(Date.UTC(2026, 0, 31, 11, 0, 0, 500));
    expect(parseSince('2026-13-01')).toBeNull();
    expect(parseSince('')).toBeNull();
  });

  it('sends JSON with the history cache policy, CORS and an ETag', () => {
    const r = handler('');
    expect(r.headers).toMatchObject({
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=0, s-maxage=3600',
      'Access-Control-Allow-Origin': '*',
    });
    expect(r.headers.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(handler('limit=50').body.equals(r.body)).toBe(true);
  });

  it('works with an empty log', () => {
    const empty = createHistoryHandler(registry.meta, []);
    expect(HistoryResponseSchema.parse(JSON.parse(empty('').body.toString('utf8'))).meta).toMatchObject({ total: 0, filtered: 0, has_more: false });
  });
});
