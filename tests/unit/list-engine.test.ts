// The in-memory list engine against the naive reference model: filters, every order, facets,
// pages, search semantics, relevance, and the response bytes.
import { describe, expect, it, vi } from 'vitest';
import type { ListResult } from '../../src/list/engine.ts';
import { listBody } from '../../src/list/list.ts';
import { createMemoryEngine } from '../../src/list/memory-engine.ts';
import { parseListQuery } from '../../src/list/query.ts';
import { PostingSearch } from '../../src/list/search.ts';
import { LIST_QUERY_DEFAULTS, type ListFacets, ListResponseSchema } from '../../src/schemas/list.ts';
import { decodeListBundle, encodeListBundle } from '../../src/schemas/list-bundle-file.ts';
import { listItemOf } from '../../src/schemas/list-item.ts';
import { FIXTURE_PROVIDERS, fixtureEngine, parseQuery, rng } from '../helpers/list-fixture.ts';
import { type RefQuery, refFacets, refFilterSort, refMatchesQ, refSearch } from '../helpers/list-reference.ts';
import { referenceIndex, referenceScores, referenceSearch } from '../helpers/minisearch-reference.ts';

const { bundle, compiled, engine } = fixtureEngine(300);
const records = bundle.records;
const parse = parseQuery;

/** The facets an evaluated result writes into a response, as an object. */
function facetsOf(result: ListResult): ListFacets {
  const buffer = Buffer.allocUnsafe(result.maxFacetsBytes);
  return JSON.parse(buffer.toString('utf8', 0, result.writeFacets(buffer, 0))) as ListFacets;
}

function respond(query: string) {
  const q = parse(query);
  return ListResponseSchema.parse(JSON.parse(listBody(engine, q, engine.run(q)).toString('utf8')));
}

const SORTS = ['name', 'provider', 'rtp_desc', 'rtp_asc', 'variants_desc', 'recent'];
const QS = [
  null,
  'book',
  'BOOK',
  'böök',
  'of dead',
  'gold fruit',
  'cafe',
  'elan',
  'apfel',
  'gonzos',
  'fortun',
  'fortnue',
  'dragn',
  'alpha',
  'ete',
  'studios',
  'play',
  'x',
  'zzz',
  '!!!',
  'a',
];
const PROVIDERS = [null, 'alpha-games', 'beta', 'empty-co', 'nope'];
const TYPES = [null, 'slot', 'keno', 'table'];
const BADGE_FILTERS = [null, 'verified_rtp', 'variants_tracked', 'sources_disagree'];
/** Badge and confidence filters: each alone, and one pair. */
const FILTERS: Array<{ badge: string | null; confidence: string | null }> = [
  ...BADGE_FILTERS.map((badge) => ({ badge, confidence: null })),
  ...['verified', 'corroborated', 'single_source'].map((confidence) => ({ badge: null, confidence })),
  { badge: 'variants_tracked', confidence: 'single_source' },
];

describe('memory engine vs the reference model', () => {
  it('matches filtered counts, orders and facets for every combination of q, provider, game_type, has_variants, badge or confidence, and sort', () => {
    let checked = 0;
    const pathsTaken = { few: 0, many: 0 };
    for (const q of QS) {
      // The reference's q filter is slow (edit distances); apply it once per q.
      const matching = q === null ? records : refSearch(records, q);
      // The engine orders up to n/16 matches by rank and scans the permutation for more: cover both.
      if (q !== null && matching.length > 0) pathsTaken[matching.length * 16 <= records.length ? 'few' : 'many']++;
      for (const provider of PROVIDERS) {
        for (const gameType of TYPES) {
          for (const hv of [false, true]) {
            for (const { badge, confidence } of FILTERS) {
              for (const sort of SORTS) {
                const ref: RefQuery = { q: null, provider, game_type: gameType, has_variants: hv, badge, confidence, sort };
                const params = new URLSearchParams({ sort, limit: '200' });
                if (q !== null) params.set('q', q);
                if (provider !== null) params.set('provider', provider);
                if (gameType !== null) params.set('game_type', gameType);
                if (hv) params.set('has_variants', '1');
                if (badge !== null) params.set('badge', badge);
                if (confidence !== null) params.set('confidence', confidence);
                const result = engine.run(parse(params.toString()));
                const expected = refFilterSort(matching, ref);
                expect(result.filtered).toBe(expected.length);
                expect(Array.from(result.items, (i) => records[i]!.canonical_slug)).toEqual(expected.slice(0, 200).map((r) => r.canonical_slug));
                expect(facetsOf(result)).toEqual(refFacets(matching, FIXTURE_PROVIDERS, ref));
                checked++;
              }
            }
          }
        }
      }
    }
    expect(checked).toBe(QS.length * PROVIDERS.length * TYPES.length * 2 * FILTERS.length * SORTS.length);
    // The fixture holds records with and without each badge the filter is tested on, and every confidence level.
    for (const b of ['verified_rtp', 'variants_tracked']) expect(new Set(records.map((r) => r.badges.includes(b as never))).size, b).toBe(2);
    expect(new Set(records.map((r) => r.confidence)).size).toBe(3);
    expect(pathsTaken.few).toBeGreaterThan(1);
    expect(pathsTaken.many).toBeGreaterThan(1);
  }, 120_000); // every combination (seven game types): seconds of CPU, more on a busy machine

  it('matches the reference for random combinations with rtp_min, rtp_max, volatility, max_win_min and the release years, with confidence too', () => {
    const rnd = rng(36);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const RTPS = ['94', '95.5', '96', '96.21', '96.5', '97', '98.1', '0', '100'];
    const LEVELS = ['low', 'medium', 'high', 'very-high', 'low,high', 'medium,very-high,low', 'high,high'];
    const WINS = ['0', '96.21', '250', '251', '5000', '12500.5', '100000'];
    const YEARS = ['2009', '2010', '2015', '2020', '2024', '2030'];
    const seen = { rtp: 0, volatility: 0, max_win: 0, years: 0, unknownYearExcluded: 0, confidenceAndVolatility: 0 };
    for (let k = 0; k < 1500; k++) {
      const params = new URLSearchParams({ sort: pick([...SORTS, 'relevance']), limit: pick(['7', '200']), offset: pick(['0', '0', '3']) });
      const maybe = (name: string, values: readonly (string | null)[], p = 0.4) => {
        const v = rnd() < p ? pick(values) : null;
        if (v !== null) params.set(name, v);
      };
      maybe(
        'q',
        QS.filter((q) => q !== null),
        0.2,
      );
      maybe(
        'provider',
        PROVIDERS.filter((p) => p !== null),
        0.3,
      );
      maybe(
        'game_type',
        TYPES.filter((t) => t !== null),
        0.2,
      );
      maybe('has_variants', ['1'], 0.2);
      maybe(
        'badge',
        BADGE_FILTERS.filter((b) => b !== null),
        0.2,
      );
      maybe('confidence', ['verified', 'corroborated', 'single_source'], 0.3);
      maybe('rtp_min', RTPS);
      maybe('rtp_max', RTPS);
      maybe('volatility', LEVELS);
      maybe('max_win_min', WINS, 0.3);
      maybe('released_after', YEARS, 0.3);
      maybe('released_before', YEARS, 0.3);
      const parsed = parseListQuery(params.toString());
      if (!parsed.ok) {
        // Only a range given backwards is refused among these values.
        expect(
          parsed.errors.map((e) => e.param).every((p) => p === 'rtp_max' || p === 'released_before'),
          params.toString(),
        ).toBe(true);
        continue;
      }
      const query = parsed.query;
      const q = query.q;
      const matching = q === null ? records : refSearch(records, q);
      const ref: RefQuery = { ...query, q: null };
      const expected = refFilterSort(matching, ref);
      const result = engine.run(query);
      expect(result.filtered, params.toString()).toBe(expected.length);
      const slugs = Array.from(result.items, (i) => records[i]!.canonical_slug);
      if (query.sort === 'relevance') expect(new Set(slugs).size).toBe(slugs.length);
      else expect(slugs, params.toString()).toEqual(expected.slice(query.offset, query.offset + query.limit).map((r) => r.canonical_slug));
      expect(facetsOf(result), params.toString()).toEqual(refFacets(matching, FIXTURE_PROVIDERS, ref));
      if (query.rtp_min !== null || query.rtp_max !== null) seen.rtp++;
      if (query.volatility !== null) seen.volatility++;
      // Each of the two level facets ignores its own filter and applies the other's.
      if (query.volatility !== null && query.confidence !== null) seen.confidenceAndVolatility++;
      if (query.max_win_min !== null) seen.max_win++;
      if (query.released_after !== null || query.released_before !== null) {
        seen.years++;
        if (query.released_before !== null && query.released_after === null) seen.unknownYearExcluded++;
      }
    }
    for (const [name, count] of Object.entries(seen)) expect(count, name).toBeGreaterThan(50);
    // The fixture has games with and without each figure the filters read.
    expect(records.some((r) => r.release_year === null) && records.some((r) => r.max_win === null) && records.some((r) => r.volatility === null)).toBe(true);
  }, 60_000); // 1,500 random queries against the reference

  it('treats a game with no known year or max win as matching no filter on it', () => {
    const unknownYear = records.filter((r) => r.release_year === null).map((r) => r.canonical_slug);
    const all = respond('released_before=9999&limit=200');
    expect(all.meta.filtered).toBe(records.length - unknownYear.length);
    expect(all.items.map((r) => r.canonical_slug)).not.toContain(unknownYear[0]);
    expect(respond('max_win_min=0&limit=1').meta.filtered).toBe(records.filter((r) => r.max_win !== null).length);
  });

  it('counts volatilities over every other filter and lists a selected level with 0', () => {
    const page = respond('volatility=low&provider=beta');
    const levels = page.facets.volatilities.map((f) => f.volatility);
    expect(levels).toEqual(expect.arrayContaining(['low', 'medium', 'high', 'very-high']));
    expect(page.meta.query.volatility).toEqual(['low']);
    const none = respond('volatility=high&q=zzz');
    expect(none.facets.volatilities).toEqual([{ volatility: 'high', count: 0 }]);
  });

  it('counts confidence levels within the volatility filter and volatilities within the confidence filter', () => {
    const page = respond('confidence=verified&volatility=high,low&limit=1');
    const inLevels = records.filter((r) => r.volatility === 'high' || r.volatility === 'low');
    const verified = records.filter((r) => r.confidence === 'verified');
    expect(page.meta.filtered).toBe(inLevels.filter((r) => r.confidence === 'verified').length);
    for (const f of page.facets.confidence) expect(f.count, f.confidence).toBe(inLevels.filter((r) => r.confidence === f.confidence).length);
    for (const f of page.facets.volatilities) expect(f.count, f.volatility).toBe(verified.filter((r) => r.volatility === f.volatility).length);
    expect(page.facets.confidence.map((f) => f.confidence).sort()).toEqual(['corroborated', 'single_source', 'verified']);
    expect(page.facets.volatilities.length).toBe(4);
  });

  it('pages through every order without repeating or skipping a record', () => {
    for (const sort of [...SORTS, 'relevance']) {
      for (const extra of ['', '&q=book', '&q=o', '&provider=beta', '&q=gold&has_variants=1']) {
        const seen: string[] = [];
        let offset = 0;
        for (;;) {
          const page = respond(`sort=${sort}&limit=7&offset=${offset}${extra}`);
          seen.push(...page.items.map((r) => r.canonical_slug));
          expect(page.meta.has_more).toBe(offset + page.items.length < page.meta.filtered);
          if (!page.meta.has_more) break;
          offset += 7;
        }
        const all = respond(`sort=${sort}&limit=200${extra}`);
        expect(seen).toHaveLength(all.meta.filtered);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.slice(0, 200)).toEqual(all.items.map((r) => r.canonical_slug));
      }
    }
  });

  it('answers offsets beyond the matches with no items and the full count', () => {
    const page = respond('offset=1000000&limit=5');
    expect(page.items).toEqual([]);
    expect(page.meta).toMatchObject({ total: 300, filtered: 300, has_more: false });
    expect(respond('q=book&offset=299').items).toEqual([]);
  });

  it('counts an unknown provider as no match, keeping the provider facet for alternatives', () => {
    const page = respond('provider=nope');
    expect(page.meta.filtered).toBe(0);
    expect(page.items).toEqual([]);
    expect(page.facets.providers.map((p) => p.provider).sort()).toEqual(['alpha-games', 'beta', 'delta', 'gamma-play']);
    expect(page.facets.game_types).toEqual([]);
  });

  it('lists a selected provider or type with count 0, and never other zero counts', () => {
    expect(respond('provider=empty-co').facets.providers).toContainEqual({ provider: 'empty-co', display: 'Empty Co', count: 0 });
    expect(respond('').facets.providers.map((p) => p.provider)).not.toContain('empty-co');
    const keno = respond('game_type=keno&provider=alpha-games&q=zzz');
    expect(keno.facets.game_types).toEqual([{ game_type: 'keno', count: 0 }]);
  });

  it('sums each facet to filtered when its own filter is unset', () => {
    for (const query of ['', 'q=book', 'has_variants=1', 'q=gold&has_variants=1']) {
      const page = respond(query);
      expect(page.facets.providers.reduce((s, f) => s + f.count, 0)).toBe(page.meta.filtered);
      expect(page.facets.game_types.reduce((s, f) => s + f.count, 0)).toBe(page.meta.filtered);
    }
  });
});

describe('search semantics', () => {
  const slugsFor = (q: string) => new Set(Array.from(engine.run(parse(`q=${encodeURIComponent(q)}&limit=200`)).items, (i) => records[i]!.canonical_slug));

  it('matches by word prefix, in any case and without accents', () => {
    const book = slugsFor('book');
    expect(book.size).toBeGreaterThan(5);
    for (const slug of book) expect(refMatchesQ(records.find((r) => r.canonical_slug === slug)!, 'book')).toBe(true);
    expect(slugsFor('BOO')).toEqual(slugsFor('boo'));
    expect(slugsFor('böök')).toEqual(slugsFor('book'));
    expect(slugsFor('CAFÉ')).toEqual(slugsFor('cafe'));
    expect(slugsFor('Ａｐｆｅｌ')).toEqual(slugsFor('apfel'));
  });

  it('as typed, tolerates one typo in words of five letters or more, not in shorter words', () => {
    const asTyped = (q: string) => new Set(records.filter((r) => refMatchesQ(r, q)).map((r) => r.canonical_slug));
    expect(asTyped('fortnue').size).toBe(0); // transposition: 2 edits
    expect(slugsFor('fortuxe')).toEqual(slugsFor('fortune'));
    expect(slugsFor('fortune').size).toBeGreaterThan(0);
    expect(slugsFor('gold').size).toBeGreaterThan(0);
    expect(asTyped('gald').size).toBe(0);
  });

  it('reads a query forgivingly only when nothing matches it as typed: typos in short words, two edits, run-together words, small words, numerals', () => {
    // Nothing matches these as typed, so the forgiving reading answers.
    expect(slugsFor('fortnue')).toEqual(slugsFor('fortune'));
    expect(slugsFor('gald')).toEqual(new Set(refSearch(records, 'gald').map((r) => r.canonical_slug)));
    expect([...slugsFor('gald')].some((s) => s.includes('gold'))).toBe(true);
    for (const q of ['goldfruit', 'gold of the fruit', 'the', 'zzzzzzzz'])
      expect(slugsFor(q), q).toEqual(new Set(refSearch(records, q).map((r) => r.canonical_slug)));
    // What matches as typed is not widened: 'gold' does not also find 'bold'.
    expect(slugsFor('gold')).toEqual(new Set(records.filter((r) => refMatchesQ(r, 'gold')).map((r) => r.canonical_slug)));
  });

  it('requires every word (AND) and reads slug words and provider key and name', () => {
    const both = slugsFor('gold fruit');
    for (const slug of both) {
      expect(slugsFor('gold').has(slug) && slugsFor('fruit').has(slug)).toBe(true);
    }
    expect(slugsFor('alpha')).toEqual(new Set(records.filter((r) => r.provider === 'alpha-games').map((r) => r.canonical_slug)));
    expect(slugsFor('ete studios')).toEqual(new Set(records.filter((r) => r.provider === 'beta').map((r) => r.canonical_slug)));
    expect(slugsFor('gamma-play')).toEqual(new Set(records.filter((r) => r.provider === 'gamma-play').map((r) => r.canonical_slug)));
  });

  it('matches nothing for a q without letters or digits', () => {
    expect(respond('q=!!!').meta.filtered).toBe(0);
  });

  it('orders sort=relevance by MiniSearch score, ties by slug', () => {
    const index = referenceIndex(
      records.map((r, id) => ({ id, name: r.canonical_name, slug: r.canonical_slug, provider: r.provider, display: r.provider_display })),
    );
    const scores = referenceScores(index, ['book', 'dead']);
    const items = Array.from(engine.run(parse('q=book+dead&sort=relevance&limit=200')).items);
    expect(items.length).toBe(scores.size);
    for (let k = 1; k < items.length; k++) {
      const a = items[k - 1]!;
      const b = items[k]!;
      expect(scores.get(a)! > scores.get(b)! || (scores.get(a) === scores.get(b) && records[a]!.canonical_slug < records[b]!.canonical_slug)).toBe(true);
    }
    expect(referenceSearch(index, []).ids).toHaveLength(0);
  });
});

describe('engine loading and response bytes', () => {
  it('writes exactly JSON.stringify of the response object', () => {
    for (const query of ['', 'q=book&limit=3', 'q=zzz', 'provider=beta&game_type=keno&has_variants=1&sort=variants_desc&limit=200']) {
      const q = parse(query);
      const body = listBody(engine, q, engine.run(q)).toString('utf8');
      expect(body).toBe(JSON.stringify(JSON.parse(body)));
      const parsed = ListResponseSchema.parse(JSON.parse(body));
      expect(Object.keys(parsed)).toEqual(['meta', 'facets', 'items']);
      expect(Object.keys(parsed.meta)).toEqual(['data_version', 'frozen_at', 'total', 'filtered', 'has_more', 'query']);
      for (const item of parsed.items) expect(item).toEqual(listItemOf(records.find((r) => r.canonical_slug === item.canonical_slug)!));
    }
  });

  it('echoes the normalised query with defaults and the bundle meta', () => {
    const page = respond('q=++book++&sort=relevance&limit=3');
    expect(page.meta.query).toEqual({ ...LIST_QUERY_DEFAULTS, q: 'book', sort: 'relevance', limit: 3 });
    expect(page.meta).toMatchObject({ data_version: '2.3.4', frozen_at: '2026-05-01T00:00:00Z', total: 300 });
    expect(respond('sort=relevance').meta.query.sort).toBe('name');
  });

  it('keeps a search from the second request of its q on, so one-off searches leave the kept ones in place', () => {
    const small = createMemoryEngine(compiled, { searchCacheEntries: 2 });
    const match = vi.spyOn(PostingSearch.prototype, 'match');
    try {
      const calls = () => match.mock.calls.length;
      const book = parse('q=book&sort=rtp_desc&badge=verified_rtp');
      const first = small.run(book);
      expect(calls()).toBe(1);
      small.run(book); // the second request of its q: searched again, and kept
      expect(calls()).toBe(2);
      small.run(book);
      expect(calls()).toBe(2);
      // Forty one-off searches, more than the cache holds: none is kept, so none evicts the kept one.
      for (let k = 0; k < 40; k++) small.run(parse(`q=${'bcdfghjklm'[k % 10]}${'npqrstvwxz'[Math.floor(k / 10)]}zz${k}`));
      expect(calls()).toBe(42);
      const again = small.run(book);
      expect(calls()).toBe(42);
      expect(Array.from(again.items)).toEqual(Array.from(first.items));
      expect(facetsOf(again)).toEqual(facetsOf(first));
    } finally {
      match.mockRestore();
    }
  });

  it('round-trips a list bundle through its file form', () => {
    const file = Buffer.concat(encodeListBundle(compiled));
    const decoded = decodeListBundle(file);
    expect(decoded.meta).toEqual(bundle.meta);
    expect(decoded.history).toEqual(bundle.history);
    expect(decoded.source).toEqual(compiled.source);
    expect(decoded.searchIndex.head).toBe(compiled.searchIndex.head);
    const loaded = createMemoryEngine(decoded);
    for (const query of ['', 'q=book&sort=rtp_asc', 'provider=beta&sort=recent&offset=20', 'q=o&sort=relevance', 'game_type=keno&has_variants=1']) {
      const q = parse(query);
      expect(listBody(loaded, q, loaded.run(q)).equals(listBody(engine, q, engine.run(q)))).toBe(true);
    }
    expect(() => decodeListBundle(Buffer.from('nope'))).toThrow('not a list bundle');
    expect(Buffer.from(decoded.recordBytes).equals(Buffer.from(compiled.recordBytes))).toBe(true);
    // A buffer that does not start on an 8-byte boundary is copied, not misread.
    const shifted = Buffer.concat([Buffer.alloc(3), file]).subarray(3);
    expect(decodeListBundle(shifted).orders.name).toEqual(compiled.orders.name);
    // A section reaching past the end of the file is refused, not read out of bounds.
    expect(() => decodeListBundle(file.subarray(0, file.length - 64))).toThrow(/list bundle section \w+ out of bounds/);
  });

  it('orders records sharing a name by slug, whatever their case or accents', () => {
    const names = respond('q=book+of+dead&limit=200').items.filter((r) => /^b(o|ö)(o|ö)k of d(e|é)ad$/i.test(r.canonical_name));
    expect(names.length).toBeGreaterThan(3);
    const slugs = names.map((r) => r.canonical_slug);
    expect(slugs).toEqual([...slugs].sort());
  });
});
