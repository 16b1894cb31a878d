// GET /api/rtp/list over HTTP against the built dist: every parameter and their combinations,
// checked against an independent model computed from the data files; every response schema-valid.
import { describe, expect, it } from 'vitest';
import { LIST_QUERY_DEFAULTS } from '../../src/schemas/list.ts';
import { readDataFiles } from '../helpers/data-files.ts';
import { refFacets, refFilterSort, refMatchesQ, refSearch } from '../helpers/list-reference.ts';
import { useListServer } from '../helpers/list-server.ts';
import { testDataDir } from '../helpers/server.ts';

const data = readDataFiles(testDataDir());
const server = useListServer();
const list = server.list;
const listAll = server.listAll;

const QS = [null, 'book', 'BOOK', 'böök', 'of dead', 'sweet', 'pragmatic', 'play', 'netent', 'hold win', 'zzzz', 'wolf', 'bonanxa', 'gonzos'];
const PROVIDERS = [null, 'netent', 'wazdan', 'push-gaming', 'nope'];
const TYPES = [null, 'slot', 'keno'];
const SORTS = ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent', 'relevance'];

describe('list parameters and combinations', () => {
  it('finds Book of Dead with q=book', async () => {
    const page = await list('q=book');
    expect(page.items.map((r) => r.canonical_slug)).toContain('book-of-dead');
    for (const r of page.items) expect(refMatchesQ(data.games.find((g) => g.canonical_slug === r.canonical_slug)!, 'book')).toBe(true);
  });

  it('answers the default query with the first 50 by name and the whole registry counted', async () => {
    const page = await list('');
    expect(page.meta).toEqual({
      data_version: data.meta.data_version,
      frozen_at: data.meta.frozen_at,
      total: data.games.length,
      filtered: data.games.length,
      has_more: data.games.length > 50,
      query: LIST_QUERY_DEFAULTS,
    });
    expect(page.items.map((r) => r.canonical_slug)).toEqual(
      refFilterSort(data.games, { sort: 'name' })
        .slice(0, 50)
        .map((r) => r.canonical_slug),
    );
  });

  it('matches the independent model for every combination of q, provider, game_type, has_variants and sort', async () => {
    let checked = 0;
    for (const q of QS) {
      const matching = q === null ? data.games : refSearch(data.games, q);
      for (const provider of PROVIDERS) {
        for (const gameType of TYPES) {
          for (const hv of [false, true]) {
            for (const sort of SORTS) {
              const params = new URLSearchParams({ sort });
              if (q !== null) params.set('q', q);
              if (provider !== null) params.set('provider', provider);
              if (gameType !== null) params.set('game_type', gameType);
              if (hv) params.set('has_variants', '1');
              const page = await listAll(params.toString());
              const ref = { q: null, provider, game_type: gameType, has_variants: hv, sort };
              const expected = refFilterSort(matching, ref);
              expect(page.meta.filtered).toBe(expected.length);
              expect(page.meta.total).toBe(data.games.length);
              expect(page.meta.has_more).toBe(expected.length > 200);
              expect(page.meta.query).toEqual({
                ...LIST_QUERY_DEFAULTS,
                q,
                provider,
                game_type: gameType,
                has_variants: hv,
                sort: sort === 'relevance' && q === null ? 'name' : sort,
                limit: 200,
              });
              const slugs = page.items.map((r) => r.canonical_slug);
              if (sort === 'relevance') expect([...slugs].sort()).toEqual(expected.map((r) => r.canonical_slug).sort());
              else expect(slugs).toEqual(expected.map((r) => r.canonical_slug));
              expect(page.facets).toEqual(refFacets(matching, data.providers, ref, data.operators));
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBe(QS.length * PROVIDERS.length * TYPES.length * 2 * SORTS.length);
  });

  it('returns the records as the data files state them', async () => {
    const byslug = new Map(data.games.map((g) => [g.canonical_slug, g]));
    const page = await listAll('');
    expect(page.items).toHaveLength(data.games.length);
    for (const item of page.items) {
      const g = byslug.get(item.canonical_slug)!;
      expect(item).toMatchObject({
        canonical_name: g.canonical_name,
        provider: g.provider,
        provider_display: g.provider_display,
        stated_rtp: g.stated_rtp,
        variants_count: g.variants_count,
        release_year: g.release_year,
        game_type: g.game_type,
      });
    }
  });

  it('sums each facet to filtered when its own filter is unset', async () => {
    for (const query of ['', 'q=book', 'has_variants=1', 'q=play&sort=rtp_desc']) {
      const page = await list(query);
      expect(page.facets.providers.reduce((s, f) => s + f.count, 0)).toBe(page.meta.filtered);
      expect(page.facets.game_types.reduce((s, f) => s + f.count, 0)).toBe(page.meta.filtered);
    }
  });

  it('answers an unknown provider or a query without match with 200 and filtered 0', async () => {
    for (const query of ['provider=nope', 'q=qqqqqqqqqq', 'game_type=bingo', 'q=book&provider=nope']) {
      const page = await list(query);
      expect(page.meta.filtered).toBe(0);
      expect(page.items).toEqual([]);
      expect(page.meta.has_more).toBe(false);
    }
  });

  it('honours limit and offset, with has_more', async () => {
    const all = await listAll('');
    for (const [limit, offset] of [
      [1, 0],
      [7, 0],
      [7, 7],
      [50, 100],
      [200, 0],
      [10, data.games.length - 3],
      [5, data.games.length],
      [5, 1_000_000],
    ] as const) {
      const page = await list(`limit=${limit}&offset=${offset}`);
      expect(page.items).toEqual(all.items.slice(offset, offset + limit));
      expect(page.meta.has_more).toBe(offset + page.items.length < data.games.length);
      expect(page.meta.query).toMatchObject({ limit, offset });
    }
  });

  it('badge= keeps exactly the games carrying the badge, in the same order, with facets of those games', async () => {
    const all = await listAll('sort=rtp_desc');
    for (const badge of ['verified_rtp', 'variants_tracked', 'sources_disagree'] as const) {
      const expected = all.items.filter((r) => r.badges.includes(badge)).map((r) => r.canonical_slug);
      expect(expected.length, badge).toBeGreaterThan(0);
      const page = await listAll(`sort=rtp_desc&badge=${badge}`);
      expect(page.meta.query.badge).toBe(badge);
      expect(page.items.map((r) => r.canonical_slug)).toEqual(expected);
      expect(page.facets.providers.reduce((s, f) => s + f.count, 0)).toBe(expected.length);
      const combined = await listAll(`q=book&provider=playngo&badge=${badge}`);
      expect(combined.items.every((r) => r.badges.includes(badge) && r.provider === 'playngo')).toBe(true);
    }
    const bad = await fetch(`${server.url}/api/rtp/list?badge=gold`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      statusCode: 400,
      statusMessage: 'invalid query parameters',
      errors: [{ param: 'badge', message: 'must be one of: verified_rtp, variants_tracked, sources_disagree' }],
    });
  });

  it('confidence= keeps exactly the games of that level, counted in the facets; a bad level is a 400 naming the parameter', async () => {
    const all = await listAll('sort=rtp_desc');
    const counts: Record<string, number> = {};
    for (const level of ['verified', 'corroborated', 'single_source'] as const) {
      const expected = all.items.filter((r) => r.confidence === level).map((r) => r.canonical_slug);
      expect(expected.length, level).toBeGreaterThan(0);
      counts[level] = expected.length;
      const page = await listAll(`sort=rtp_desc&confidence=${level}`);
      expect(page.meta.query.confidence).toBe(level);
      expect(page.items.map((r) => r.canonical_slug)).toEqual(expected);
      expect(page.facets.providers.reduce((s, f) => s + f.count, 0)).toBe(expected.length);
      // The confidence facet ignores its own filter: it still counts every level.
      expect(page.facets.confidence.find((f) => f.confidence === level)?.count).toBe(expected.length);
      // verified_rtp follows verified.
      expect(page.items.every((r) => r.badges.includes('verified_rtp') === (level === 'verified'))).toBe(true);
    }
    expect(all.facets.confidence).toEqual(
      Object.entries(counts)
        .map(([confidence, count]) => ({ confidence, count }))
        .sort((a, b) => b.count - a.count),
    );
    const combined = await listAll('provider=netent&confidence=corroborated');
    expect(combined.items.length).toBeGreaterThan(0);
    expect(combined.items.every((r) => r.provider === 'netent' && r.confidence === 'corroborated')).toBe(true);
    for (const value of ['high', 'VERIFIED', 'verified_rtp']) {
      const bad = await fetch(`${server.url}/api/rtp/list?confidence=${value}`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({
        statusCode: 400,
        statusMessage: 'invalid query parameters',
        errors: [{ param: 'confidence', message: 'must be one of: verified, corroborated, single_source' }],
      });
    }
  });

  it('finds games by their provider group and by any label the sources write for the provider', async () => {
    const evolution = await listAll('q=evolution');
    const providers = new Set(evolution.items.map((r) => r.provider));
    for (const p of ['netent', 'red-tiger', 'big-time-gaming', 'nolimit-city']) expect(providers.has(p), p).toBe(true);
    const global = await listAll('q=games global immortal');
    expect(global.items.map((r) => r.canonical_slug)).toContain('immortal-romance');
    const r7 = await listAll('q=r7');
    expect(r7.items.length).toBeGreaterThan(0);
    expect(r7.items.every((r) => r.provider === 'red-tiger')).toBe(true);
  });

  it('ignores unknown parameters and the widget v parameter', async () => {
    const plain = await fetch(`${server.url}/api/rtp/list?limit=3`);
    const extra = await fetch(`${server.url}/api/rtp/list?limit=3&v=1.0.0&foo=bar&Limit=x`);
    expect(await extra.text()).toBe(await plain.text());
  });
});
