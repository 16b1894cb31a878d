import { describe, expect, it } from 'vitest';
import { makeBundle } from '../../src/registry/bundle.ts';
import { synthRegistry } from '../../scripts/lib/synth.ts';
import { ListResponseSchema, type ListResponse } from '../../src/schemas/list.ts';
import { distinctStream, queryMix, toSearch, vocabularyOf, type ListQuery } from '../../scripts/bench/query-mix.ts';
import { ftsExpression, handleList, openDb, SqliteList } from '../../scripts/bench/sqlite-peer.ts';
import { servicesFor } from '../../scripts/lib/services.ts';

const bundle = makeBundle({ dir: '', ...synthRegistry({ count: 600, seed: 5 }) });
// One name with an apostrophe and an accent, which both sides must fold the same way.
bundle.records[0]!.canonical_name = 'Gonzo’s Café Quest';
const route = servicesFor(bundle);
const { db, driver } = await openDb();
const peer = new SqliteList(db, bundle);
const vocab = vocabularyOf(bundle.records);

function both(search: string): { a: ListResponse; b: ListResponse; aText: string; bText: string } {
  const a = route.list(search);
  const b = handleList(peer, search);
  expect(b.status).toBe(a.status);
  const aText = a.body.toString('utf8');
  return { a: JSON.parse(aText) as ListResponse, b: ListResponseSchema.parse(JSON.parse(b.body)), aText, bText: b.body };
}

/** Queries whose words are all shorter than 5 letters, where the route's search applies no typo tolerance, so both engines must agree exactly. */
function exactComparable(q: ListQuery): boolean {
  return q.q === undefined || q.q.split(/\s+/).every((w) => w.length < 5);
}

describe('SQLite FTS5 peer', () => {
  it('runs on better-sqlite3 here', () => {
    expect(driver).toBe('better-sqlite3');
  });

  it('quotes every term as an FTS5 prefix term', () => {
    expect(ftsExpression(['book', 'de"ad'])).toBe('"book"* AND "de""ad"*');
  });

  it('answers exactly like the route (same bytes), relevance order apart', () => {
    const queries = [...queryMix(vocab, 400, 9), ...Array.from({ length: 200 }, (_, i) => distinctStream(vocab).at(i))].filter(exactComparable);
    expect(queries.length).toBeGreaterThan(300);
    for (const q of queries) {
      const search = toSearch(q);
      const { a, b, aText, bText } = both(search);
      if (q.sort === 'relevance') {
        // Scores differ (FTS5's bm25 vs the route's BM25+); the matching set must not.
        expect({ search, meta: b.meta, facets: b.facets }).toEqual({ search, meta: a.meta, facets: a.facets });
        expect(b.items.length).toBe(a.items.length);
        // When the page holds every match, it holds the same records.
        if ((q.offset ?? 0) === 0 && a.meta.filtered <= (q.limit ?? 50)) expect(b.items.map((i) => i.canonical_slug).sort()).toEqual(a.items.map((i) => i.canonical_slug).sort());
      } else {
        expect({ search, body: bText }).toEqual({ search, body: aText }); // byte for byte
      }
    }
  });

  it('answers the range, volatility and confidence filters like the route (same bytes)', () => {
    for (const search of [
      'rtp_min=96&volatility=high,low',
      'max_win_min=250&released_after=2015&provider=alpha-games',
      'rtp_max=96.5&released_before=2018&sort=recent',
      'volatility=very-high&q=book&game_type=slot',
      'rtp_min=94&rtp_max=94&limit=200',
      'confidence=verified&volatility=high,low',
      'confidence=single_source&rtp_min=95&max_win_min=250&sort=rtp_desc',
      'confidence=corroborated&volatility=medium&q=book&released_before=2020',
    ]) {
      const { aText, bText } = both(search);
      expect({ search, body: bText }).toEqual({ search, body: aText });
    }
  });

  it('finds accented and apostrophe names the way the route does', () => {
    for (const q of ['gonzos', 'GONZ', 'cafe', 'Café'.normalize('NFD')]) {
      const { a, b } = both(`q=${encodeURIComponent(q)}&limit=200`);
      expect(a.items.map((i) => i.canonical_slug)).toContain(bundle.records[0]!.canonical_slug);
      expect(b.items.map((i) => i.canonical_slug)).toEqual(a.items.map((i) => i.canonical_slug));
    }
  });

  it('rejects bad parameters with the route parser', () => {
    const r = handleList(peer, 'limit=0&sort=nope');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).errors.map((e: { param: string }) => e.param)).toEqual(['sort', 'limit']);
  });
});
