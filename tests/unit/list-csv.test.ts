// format=csv on the list route (src/list/csv.ts): the same records as the JSON answer, as RFC 4180
// CSV with the dump's columns, for a list page, a batch lookup and a delta sync; a bad format is a 400.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { CSV_TYPE } from '../../src/list/csv.ts';
import { BatchResponseSchema } from '../../src/schemas/batch.ts';
import { CSV_COLUMNS, csvRows } from '../../src/schemas/csv.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { SyncResponseSchema } from '../../src/schemas/sync.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

const bundle = fixtureBundle(120);
const services = servicesFor(bundle);
const bySlug = new Map(bundle.records.map((r) => [r.canonical_slug, r]));

function csvOf(query: string): Array<Record<string, string>> {
  const r = services.list(query);
  expect(r.status, query).toBe(200);
  expect(r.headers['Content-Type']).toBe(CSV_TYPE);
  return parse(r.body, { columns: true, bom: false }) as Array<Record<string, string>>;
}

const json = (query: string) => JSON.parse(services.list(query).body.toString('utf8')) as unknown;

describe('GET /api/rtp/list?format=csv', () => {
  it('answers the page of the same query as CSV rows with the dump columns, byte for byte as the dump writes them', () => {
    for (const query of [
      'limit=7',
      'q=book&sort=rtp_desc&limit=20',
      'volatility=high,low&rtp_min=96&released_after=2015&limit=200&offset=3',
      'provider=beta&has_variants=1',
    ]) {
      const page = ListResponseSchema.parse(json(query));
      const body = services.list(`${query}&format=csv`).body.toString('utf8');
      expect(body, query).toBe(csvRows(page.items.map((r) => bySlug.get(r.canonical_slug)!)));
      const rows = csvOf(`format=csv&${query}`);
      expect(rows.map((r) => r.canonical_slug)).toEqual(page.items.map((r) => r.canonical_slug));
      if (rows.length > 0) expect(Object.keys(rows[0]!)).toEqual(CSV_COLUMNS.map((c) => c.name));
    }
  });

  it('answers a batch lookup and a delta sync as CSV', () => {
    const slugs = bundle.records.slice(0, 3).map((r) => r.canonical_slug);
    const batch = BatchResponseSchema.parse(json(`slugs=${slugs.join(',')},no-such-game`));
    expect(csvOf(`slugs=${slugs.join(',')},no-such-game&format=csv`).map((r) => r.canonical_slug)).toEqual(batch.items.map((r) => r.canonical_slug));
    const sync = SyncResponseSchema.parse(json('updated_since=2026-01-01&limit=5'));
    expect(csvOf('updated_since=2026-01-01&limit=5&format=csv').map((r) => r.canonical_slug)).toEqual(sync.items.map((r) => r.canonical_slug));
  });

  it('writes only the header row when nothing matches, and json is the default format', () => {
    expect(services.list('q=zzzzzz&format=csv').body.toString('utf8')).toBe(`${CSV_COLUMNS.map((c) => c.name).join(',')}\r\n`);
    expect(services.list('limit=3&format=json').body.equals(services.list('limit=3').body)).toBe(true);
    expect(services.list('limit=3&format=').body.equals(services.list('limit=3').body)).toBe(true);
  });

  it('rejects another format, and reports it with the other bad parameters', () => {
    const bad = (query: string) => {
      const r = services.list(query);
      expect(r.status, query).toBe(400);
      return ErrorBodySchema.parse(JSON.parse(r.body.toString('utf8'))).errors ?? [];
    };
    expect(bad('format=xlsx')).toEqual([{ param: 'format', message: 'must be one of: json, csv' }]);
    expect(bad('format=csv&limit=0')).toEqual([{ param: 'limit', message: 'must be an integer from 1 to 200' }]);
    expect(bad('format=xml&rtp_min=abc').map((e) => e.param)).toEqual(['rtp_min', 'format']);
    expect(bad('format=csv&format=csv')).toEqual([{ param: 'format', message: 'must be given at most once' }]);
    expect(bad('format=csv&slugs=Bad_Slug').map((e) => e.param)).toEqual(['slugs']);
  });
});
