// Search alone: the packed index the build writes, searched by the server's PostingSearch, timed in
// process over the query mix's q values; and the whole list handler per query.
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { buildSearchIndex } from '../../src/emit/list/search-index.ts';
import { PostingSearch } from '../../src/list/search.ts';
import { searchDocuments } from '../../src/emit/list/compile.ts';
import type { GameRecord } from '../../src/schemas/game-record.ts';
import { openServices } from '../../src/list/service.ts';
import { listBundleOf } from '../../src/emit/emit.ts';
import { queryMix, toSearch, vocabularyOf } from './query-mix.ts';
import type { BenchResult, SearchRow } from './results.ts';
import { queryTerms } from '../../src/schemas/text.ts';
import { percentileOfSorted } from './stats.ts';

function timeAll(items: readonly string[], fn: (item: string) => void): Float64Array {
  const out = new Float64Array(items.length);
  items.forEach((item, i) => {
    const t = performance.now();
    fn(item);
    out[i] = performance.now() - t;
  });
  return out.sort();
}

/**
 * Builds the index for `records` as the build does, then times the server's search
 * (PostingSearch over it) once per q, after one untimed warm-up pass, so the
 * figures are for a running server, not a cold JIT. Returns ms figures.
 */
export function benchSearch(records: readonly GameRecord[], qs: readonly string[]): { indexMs: number; p50: number; p99: number; matches: number } {
  const t = performance.now();
  const packed = buildSearchIndex(searchDocuments(records));
  const indexMs = performance.now() - t;
  const postings = new PostingSearch(packed);
  let matches = 0;
  const run = (q: string) => {
    matches += postings.match(queryTerms(q)).ids.length;
  };
  for (const q of qs) run(q);
  matches = 0;
  const lat = timeAll(qs, run);
  return { indexMs, p50: percentileOfSorted(lat, 50), p99: percentileOfSorted(lat, 99), matches };
}

/**
 * Times the whole list handler (parse, engine, response bytes) per query string: a warm-up pass on
 * one set of services, then a timed pass on fresh services, so code is warm but the response and
 * search caches start empty (as for a query stream the server has not seen).
 */
export function benchListHandler(bundle: RegistryBundle, searches: readonly string[]): { p50: number; p99: number } {
  const bytes = listBundleOf(bundle); // compiled once, opened twice
  const warm = openServices(bytes);
  for (const s of searches) warm.list(s);
  const cold = openServices(bytes);
  const lat = timeAll(searches, (s) => {
    if (cold.list(s).status !== 200) throw new Error(`list handler rejected ${s}`);
  });
  return { p50: percentileOfSorted(lat, 50), p99: percentileOfSorted(lat, 99) };
}

/** The search phase: index build and search per q, and the whole list handler per query, for each data set. */
export async function searchPhase(sets: ReadonlyArray<{ label: string; games: number; bundle: () => Promise<RegistryBundle> }>, mixCount: number, seed: number, log: (s: string) => void): Promise<NonNullable<BenchResult['search']>> {
  const rows: SearchRow[] = [];
  for (const ds of sets) {
    const bundle = await ds.bundle();
    const mix = queryMix(vocabularyOf(bundle.records), mixCount, seed);
    const qs = mix.map((q) => q.q).filter((q): q is string => q !== undefined);
    const r = benchSearch(bundle.records, qs);
    const l = benchListHandler(bundle, mix.map(toSearch));
    rows.push({ label: ds.label, games: ds.games, queries: qs.length, indexMs: r.indexMs, searchP50Ms: r.p50, searchP99Ms: r.p99, listP50Ms: l.p50, listP99Ms: l.p99 });
    log(`search ${ds.label}: index ${r.indexMs.toFixed(0)} ms, search p50 ${r.p50.toFixed(3)} / p99 ${r.p99.toFixed(3)} ms, list handler p50 ${l.p50.toFixed(3)} / p99 ${l.p99.toFixed(3)} ms`);
  }
  return {
    rows,
    notes: [
      'Search: the index over name, slug, provider key and display name built as the build does (index ms), searched by the server\'s PostingSearch (src/list/search.ts) per q of the mix after one untimed pass. List: the route\'s handler (parameters, engine, response bytes) per query of the mix, on fresh services after a warm-up on others; no HTTP.',
    ],
  };
}
