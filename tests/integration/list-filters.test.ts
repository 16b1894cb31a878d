// The list route's range and volatility filters and its CSV format over HTTP, against the built
// dist and the real data: random combinations checked against the independent model, the 400s
// naming each bad parameter, and format=csv read back with a real CSV parser.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../src/schemas/csv.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { readDataFiles } from '../helpers/data-files.ts';
import { rng } from '../helpers/list-fixture.ts';
import { type RefQuery, refFacets, refFilterSort, refSearch } from '../helpers/list-reference.ts';
import { useListServer } from '../helpers/list-server.ts';
import { testDataDir } from '../helpers/server.ts';

const data = readDataFiles(testDataDir());
const server = useListServer();

describe('rtp_min, rtp_max, volatility, max_win_min, released_after, released_before, operator, operator_build (with confidence)', () => {
  it('match the independent model in 300 random combinations with the other parameters', async () => {
    const rnd = rng(2026);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const VALUES: Record<string, readonly string[]> = {
      q: ['book', 'wolf', 'sweet', 'gold'],
      provider: ['netent', 'pragmatic-play', 'playngo', 'hacksaw'],
      game_type: ['slot', 'table'],
      has_variants: ['1'],
      confidence: ['verified', 'corroborated', 'single_source'],
      sort: ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent'],
      rtp_min: ['94', '95.5', '96', '96.21', '96.5', '97'],
      rtp_max: ['96', '96.5', '97', '98.5', '100'],
      volatility: ['low', 'medium', 'high', 'very-high', 'high,very-high', 'low,medium'],
      max_win_min: ['0', '1000', '5000', '10000', '50000'],
      released_after: ['2010', '2018', '2021', '2024'],
      released_before: ['2015', '2020', '2023', '2026'],
      operator: ['711nl', 'no-such-casino'],
      operator_build: ['top', 'lower', 'higher'],
    };
    let compared = 0;
    for (let k = 0; k < 300; k++) {
      const params = new URLSearchParams({ limit: '200' });
      for (const [name, values] of Object.entries(VALUES))
        if (rnd() < (['q', 'provider', 'game_type', 'has_variants'].includes(name) ? 0.15 : 0.35)) params.set(name, pick(values));
      const res = await fetch(`${server.url}/api/rtp/list?${params}`);
      if (res.status === 400) {
        const errors = ErrorBodySchema.parse(await res.json()).errors!;
        expect(
          errors.map((e) => e.param).every((p) => p === 'rtp_max' || p === 'released_before'),
          params.toString(),
        ).toBe(true);
        continue;
      }
      const page = ListResponseSchema.parse(await res.json());
      const q = page.meta.query;
      const ref: RefQuery = { ...q, q: null };
      const matching = q.q === null ? data.games : refSearch(data.games, q.q);
      const expected = refFilterSort(matching, ref);
      expect(page.meta.filtered, params.toString()).toBe(expected.length);
      expect(
        page.items.map((r) => r.canonical_slug),
        params.toString(),
      ).toEqual(expected.slice(0, 200).map((r) => r.canonical_slug));
      expect(page.facets, params.toString()).toEqual(refFacets(matching, data.providers, ref, data.operators));
      compared++;
    }
    expect(compared).toBeGreaterThan(200);
  }, 120_000);

  it('never match a game with no known year or max win, and bound stated RTP inclusively', async () => {
    const years = await server.listAll('released_after=1000&released_before=9999');
    expect(years.meta.filtered).toBe(data.games.filter((g) => g.release_year !== null).length);
    const wins = await server.list('max_win_min=0');
    expect(wins.meta.filtered).toBe(data.games.filter((g) => g.max_win !== null).length);
    const exact = await server.listAll('rtp_min=96.21&rtp_max=96.21');
    expect(exact.items.map((r) => r.stated_rtp)).toEqual(data.games.filter((g) => g.stated_rtp === 96.21).map(() => 96.21));
    expect(exact.items.map((r) => r.canonical_slug)).toContain('book-of-dead');
  });

  it('count volatilities over every other filter, in the facets', async () => {
    const page = await server.list('provider=netent&volatility=high');
    const netent = data.games.filter((g) => g.provider === 'netent');
    for (const f of page.facets.volatilities) expect(f.count, f.volatility).toBe(netent.filter((g) => g.volatility === f.volatility).length);
    expect(page.meta.filtered).toBe(netent.filter((g) => g.volatility === 'high').length);
  });

  it('count confidence levels within the volatility filter and volatilities within the confidence filter', async () => {
    const page = await server.list('confidence=corroborated&volatility=high,very-high');
    const high = data.games.filter((g) => g.volatility === 'high' || g.volatility === 'very-high');
    const corroborated = data.games.filter((g) => g.confidence === 'corroborated');
    expect(page.meta.filtered).toBe(high.filter((g) => g.confidence === 'corroborated').length);
    expect(page.meta.filtered).toBeGreaterThan(0);
    for (const f of page.facets.confidence) expect(f.count, f.confidence).toBe(high.filter((g) => g.confidence === f.confidence).length);
    for (const f of page.facets.volatilities) expect(f.count, f.volatility).toBe(corroborated.filter((g) => g.volatility === f.volatility).length);
    expect(page.facets.confidence.map((f) => f.confidence)).toContain('verified');
    expect(page.facets.volatilities.map((f) => f.volatility)).toContain('low');
  });

  it('reject bad values with a 400 naming each parameter', async () => {
    const res = await fetch(`${server.url}/api/rtp/list?rtp_min=96.215&rtp_max=x&volatility=extreme&max_win_min=-5&released_after=15&released_before=20xx`);
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(ErrorBodySchema.parse(await res.json()).errors).toEqual([
      { param: 'rtp_min', message: 'must be a percentage from 0 to 100 with at most two decimals (96.5)' },
      { param: 'rtp_max', message: 'must be a percentage from 0 to 100 with at most two decimals (96.5)' },
      { param: 'volatility', message: 'must be one or more of: low, medium, high, very-high (separated by commas)' },
      { param: 'max_win_min', message: 'must be a multiple of the stake from 0 to 100000000 with at most two decimals (5000)' },
      { param: 'released_after', message: 'must be a year from 1000 to 9999' },
      { param: 'released_before', message: 'must be a year from 1000 to 9999' },
    ]);
    const order = await fetch(`${server.url}/api/rtp/list?rtp_min=97&rtp_max=96&released_after=2020&released_before=2019`);
    expect(ErrorBodySchema.parse(await order.json()).errors).toEqual([
      { param: 'rtp_max', message: 'must not be below rtp_min' },
      { param: 'released_before', message: 'must not be before released_after' },
    ]);
  });
});

describe('format=csv', () => {
  const csv = async (query: string) => {
    const res = await fetch(`${server.url}/api/rtp/list?${query}`);
    expect(res.status, query).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const text = await res.text();
    return { res, text, rows: parse(text, { columns: true, relax_quotes: false, relax_column_count: false }) as Array<Record<string, string>> };
  };

  it("answers the page as RFC 4180 CSV with the dump's columns, one row per item, as the dump writes them", async () => {
    const page = await server.list('provider=playngo&limit=200&sort=rtp_desc');
    const { text, rows } = await csv('provider=playngo&limit=200&sort=rtp_desc&format=csv');
    expect(rows.map((r) => r.canonical_slug)).toEqual(page.items.map((r) => r.canonical_slug));
    expect(Object.keys(rows[0]!)).toEqual(CSV_COLUMNS.map((c) => c.name));
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    // Every row is the dump's row of that game, byte for byte.
    const dump = await (await fetch(`${server.url}/api/rtp/dump/registry.csv`)).text();
    const dumpRows = new Map(
      dump
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .map((line) => [line.split(',')[0]!, line]),
    );
    const lines = text.split('\r\n').slice(1, -1);
    expect(lines).toHaveLength(page.items.length);
    for (const line of lines) expect(line).toBe(dumpRows.get(line.split(',')[0]!));
    for (const [k, r] of page.items.entries()) expect(Number(rows[k]!.stated_rtp)).toBe(r.stated_rtp);
  });

  it('answers a batch lookup and a delta sync as CSV, with the filters too', async () => {
    expect((await csv('slugs=book-of-dead,no-such-game,gates-of-olympus&format=csv')).rows.map((r) => r.canonical_slug)).toEqual([
      'book-of-dead',
      'gates-of-olympus',
    ]);
    const since = await fetch(`${server.url}/api/rtp/list?updated_since=2026-01-01&limit=7`);
    const sync = (await since.json()) as { items: Array<{ canonical_slug: string }> };
    expect((await csv('updated_since=2026-01-01&limit=7&format=csv')).rows.map((r) => r.canonical_slug)).toEqual(sync.items.map((r) => r.canonical_slug));
    const high = (await csv('volatility=very-high&format=csv&limit=200')).rows;
    expect(high.length).toBe(data.games.filter((g) => g.volatility === 'very-high').length);
    for (const r of high) expect(r.volatility).toBe('very-high');
  });

  it('is counted as one request, carries an ETag answered with 304, and a bad format is a 400', async () => {
    const first = await csv('q=book&format=csv');
    const second = await csv('q=book&format=csv');
    expect(Number(first.res.headers.get('x-ratelimit-remaining')) - Number(second.res.headers.get('x-ratelimit-remaining'))).toBe(1);
    const etag = first.res.headers.get('etag')!;
    expect(etag).toBe(second.res.headers.get('etag'));
    expect((await fetch(`${server.url}/api/rtp/list?q=book&format=csv`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const bad = await fetch(`${server.url}/api/rtp/list?format=xlsx`);
    expect(bad.status).toBe(400);
    expect(ErrorBodySchema.parse(await bad.json()).errors).toEqual([{ param: 'format', message: 'must be one of: json, csv' }]);
  });
});
