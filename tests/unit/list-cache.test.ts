// The list route's caches (src/list/list-cache.ts): pages and whole responses admitted by how often
// they are asked, never thrashing in a cycle of more queries than fit, time to live, and the same bytes.
import { describe, expect, it, vi } from 'vitest';
import { createListHandler, listBody, listEtag } from '../../src/list/list.ts';
import { listQueryKey } from '../../src/list/query.ts';
import type { ListQuery } from '../../src/schemas/list.ts';
import { fixtureEngine, parseQuery as parse } from '../helpers/list-fixture.ts';

const { engine } = fixtureEngine(300);

/** The engine, with the keys of the queries it evaluates (a cache miss) in `runs`. */
function countedEngine() {
  const runs: string[] = [];
  return {
    runs,
    engine: {
      ...engine,
      run: (q: ListQuery) => {
        runs.push(listQueryKey(q));
        return engine.run(q);
      },
    },
  };
}

describe('whole responses', () => {
  it('caches a response from its second sighting on, with the same bytes and ETag', () => {
    const handler = createListHandler(engine, { cacheEntries: 2 });
    const first = handler('q=book');
    const second = handler('q=book&unknown=1');
    expect(second).not.toBe(first); // one sighting: answered, not kept
    expect(handler('q=book')).toBe(second); // kept from the second on
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers.ETag).toBe(first.headers.ETag);
    expect(second.headers.ETag).toBe(listEtag(engine, listQueryKey(parse('q=book'))));
    expect(handler('q=gold').headers.ETag).not.toBe(first.headers.ETag);
  });

  it('gives the room of a whole response only to a query asked more often; the others are answered from their pages', () => {
    const handler = createListHandler(engine, { cacheEntries: 1 });
    handler('q=book');
    const kept = handler('q=book'); // room: kept whole
    expect(handler('q=book')).toBe(kept); // asked 3 times
    handler('limit=3');
    const a = handler('limit=3'); // asked 2 times: less than q=book, written again from its page
    const b = handler('limit=3'); // 3: not more than q=book's 3
    expect(b).not.toBe(a);
    expect(b.body.equals(a.body)).toBe(true);
    const admitted = handler('limit=3'); // 4: more than q=book's 3, takes its room
    expect(admitted).not.toBe(b);
    expect(handler('limit=3')).toBe(admitted);
    expect(admitted.body.equals(a.body)).toBe(true);
    const again = handler('q=book');
    expect(again).not.toBe(kept);
    expect(again.body.equals(kept.body)).toBe(true);
  });

  it('keeps the responses of a cycle of equally asked queries that got in, instead of evicting one for the next', () => {
    const handler = createListHandler(engine, { cacheEntries: 3 });
    const cycle = ['limit=1', 'limit=2', 'limit=3', 'limit=4', 'limit=5', 'limit=6'];
    // Each query once a pass: a query reached early in a pass is always one request ahead of a kept
    // one reached later, which is not enough to take its room.
    for (let pass = 0; pass < 2; pass++) for (const q of cycle) handler(q);
    const kept = cycle.map((q) => handler(q));
    for (let pass = 0; pass < 8; pass++) for (const q of cycle) handler(q);
    const same = cycle.filter((q, k) => handler(q) === kept[k]);
    expect(same).toHaveLength(3);
  });

  it('lets a whole response go after its time to live, so popularity is recent', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    try {
      const handler = createListHandler(engine, { cacheEntries: 1, cacheTtlMs: 60_000 });
      handler('q=book');
      const kept = handler('q=book');
      expect(handler('q=book')).toBe(kept);
      now.mockReturnValue(62_000);
      const first = handler('q=book'); // expired, and its page too: evaluated again, a first sighting
      expect(first).not.toBe(kept);
      const renewed = handler('q=book'); // the second: kept anew
      expect(renewed).not.toBe(first);
      expect(renewed.body.equals(kept.body)).toBe(true);
      expect(handler('q=book')).toBe(renewed);
    } finally {
      now.mockRestore();
    }
  });
});

describe('evaluated pages', () => {
  it('with both bounds at 0 (LIST_CACHE_MB=0) keeps nothing and answers the same bytes', () => {
    const off = createListHandler(engine, { cacheBytes: 0, pageCacheBytes: 0 });
    const on = createListHandler(engine);
    for (let k = 0; k < 3; k++) {
      const a = off('q=book&limit=4');
      const b = off('q=book&limit=4');
      expect(b).not.toBe(a);
      expect(b.body.equals(a.body)).toBe(true);
      expect(b.body.equals(on('q=book&limit=4').body)).toBe(true);
    }
  });

  it('answers a cached page byte for byte like the engine, for every kind of query', () => {
    const handler = createListHandler(engine, { cacheBytes: 0 });
    for (const query of [
      '',
      'q=book&sort=relevance&limit=7',
      'provider=beta&has_variants=1&sort=rtp_desc&offset=3',
      'game_type=keno&q=xyz',
      'badge=verified_rtp&limit=200',
    ]) {
      const q = parse(query);
      const direct = listBody(engine, q, engine.run(q));
      handler(query);
      const paged = handler(query); // second sighting: from the page just cached
      expect(paged.body.equals(direct), query).toBe(true);
      expect(handler(query).body.equals(direct), query).toBe(true); // third: from the page again (no body room)
    }
  });

  it('keeps one facets entry for the pages of the same filters, and evaluates a page again when its facets have left', () => {
    const { runs, engine: counted } = countedEngine();
    // A page of q=book&limit=2 weighs about 684 bytes (with its keys and overhead), its facets (with
    // the confidence, volatility and operator build counts) about 1,040: two pages and one facets
    // entry fit in 2,600; two pages with a facets entry each would not.
    const handler = createListHandler(counted, { cacheBytes: 0, pageCacheBytes: 2_600 });
    runs.length = 0; // the format probes
    const pages = ['q=book&limit=2', 'q=book&limit=2&offset=2'];
    const direct = pages.map((query) => listBody(engine, parse(query), engine.run(parse(query))));
    // First and second sightings: evaluated twice each.
    for (const query of pages) {
      handler(query);
      handler(query);
    }
    expect(runs).toHaveLength(4);
    for (let k = 0; k < 3; k++)
      pages.forEach((query, i) => {
        expect(handler(query).body.equals(direct[i]!), query).toBe(true);
      });
    expect(runs).toHaveLength(4); // both pages and their one facets entry stayed

    // Other filters, asked more often than the kept pages and their facets were, take the room: the
    // first pages lose their facets (or themselves), and are evaluated again.
    for (const query of ['provider=beta&limit=2', 'game_type=keno&limit=2']) for (let k = 0; k < 16; k++) handler(query);
    runs.length = 0;
    expect(handler(pages[0]!).body.equals(direct[0]!)).toBe(true);
    expect(runs).toEqual([listQueryKey(parse(pages[0]!))]);
  });

  it('keeps the pages of a cycle of more queries than fit that got in, instead of evicting one for the next', () => {
    const { runs, engine: counted } = countedEngine();
    // Room for the facets and about two pages of the six: least recently used eviction would evaluate
    // all six again in every pass.
    const handler = createListHandler(counted, { cacheBytes: 0, pageCacheBytes: 2_400 });
    runs.length = 0; // the format probes
    const cycle = ['limit=2', 'limit=2&offset=2', 'limit=2&offset=4', 'limit=2&offset=6', 'limit=2&offset=8', 'limit=2&offset=10'];
    for (let pass = 0; pass < 3; pass++) for (const q of cycle) handler(q);
    const evaluated: string[][] = [];
    for (let pass = 0; pass < 6; pass++) {
      runs.length = 0;
      for (const q of cycle) expect(handler(q).body.equals(listBody(engine, parse(q), engine.run(parse(q)))), q).toBe(true);
      evaluated.push([...runs]);
    }
    expect(evaluated[0]!.length).toBeGreaterThan(0);
    expect(evaluated[0]!.length).toBeLessThan(cycle.length);
    for (const pass of evaluated) expect(pass).toEqual(evaluated[0]);
  });

  it('lets a kept page go after its time to live, and keeps a newcomer in its room', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    try {
      const { runs, engine: counted } = countedEngine();
      const handler = createListHandler(counted, { cacheBytes: 0, pageCacheBytes: 2_400, cacheTtlMs: 60_000 });
      runs.length = 0; // the format probes
      const [old, next] = ['provider=beta&limit=2', 'game_type=keno&limit=2'];
      for (let k = 0; k < 5; k++) handler(old!);
      for (let k = 0; k < 3; k++) handler(next!); // no room: its filters' facets and page do not fit beside the kept ones
      runs.length = 0;
      handler(old!);
      handler(next!);
      expect(runs).toEqual([listQueryKey(parse(next!))]);
      now.mockReturnValue(62_000); // the kept page and facets expire
      handler(next!); // kept now, in their room
      runs.length = 0;
      handler(next!);
      expect(runs).toEqual([]);
    } finally {
      now.mockRestore();
    }
  });
});
