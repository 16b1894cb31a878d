// The in-memory list engine: loads a compiled list (compile.ts) and answers each query from the
// sort permutations, filter columns, a facet count table and a cache of search results, without
// sorting or scanning the registry per request.
import { GAME_TYPES } from '../schemas/authoring.ts';
import type { ListFacets, ListQuery, ListSort } from '../schemas/list.ts';
import type { RegistryBundle } from '../registry/bundle.ts';
import { compareStrings, compileList, STATIC_SORTS, type CompiledList, type StaticSort } from './compile.ts';
import type { ListEngine, ListResult } from './engine.ts';
import { Lru } from './lru.ts';
import { loadSearchIndex, packSearchIndex, PostingSearch, unpackSearchIndex, type PackedSearchIndex, type SearchMatch } from './search.ts';
import { queryTerms } from './text.ts';

const ALL = -1;
const UNKNOWN = -2;
const T = GAME_TYPES.length;

export interface MemoryEngineOptions {
  /** Search results kept (per distinct set of query words). */
  searchCacheEntries?: number;
  /** Bound on the record indexes held by the search cache, summed over entries. */
  searchCacheIndexes?: number;
}

interface CachedSearch {
  match: SearchMatch;
  /** Matching records counted by provider × game type × multi-variant (see `cell`). */
  cube: Int32Array;
}

/**
 * Loads the engine from a compiled list, or compiles a bundle first. Facets count the records matching every filter except their own, sorted by
 * count descending then key; zero counts are left out except for the selected provider or type.
 * Relevance order (only with q): search score descending, then slug.
 */
export function createMemoryEngine(source: CompiledList | RegistryBundle, options: MemoryEngineOptions = {}): ListEngine {
  const compiled = 'records' in source ? compileList(source) : source;
  const { total: n, recordBytes, offsets, providerKeys, providerDisplay, providerOf, typeOf, multi, orders } = compiled;
  const p = providerKeys.length;
  const providerIndex = new Map(providerKeys.map((k, i) => [k, i]));
  const typeIndex = new Map<string, number>(GAME_TYPES.map((t, i) => [t, i]));
  const bytes = Buffer.from(recordBytes.buffer, recordBytes.byteOffset, recordBytes.byteLength);

  const ranks = {} as Record<StaticSort, Int32Array>;
  for (const s of STATIC_SORTS) {
    const rank = new Int32Array(n);
    const order = orders[s];
    for (let k = 0; k < n; k++) rank[order[k]!] = k;
    ranks[s] = rank;
  }

  const cell = (prov: number, type: number, m: number) => (prov * T + type) * 2 + m;
  const cubeOf = (ids: ArrayLike<number> | null): Int32Array => {
    const cube = new Int32Array(p * T * 2);
    const count = ids === null ? n : ids.length;
    for (let k = 0; k < count; k++) {
      const i = ids === null ? k : ids[k]!;
      cube[cell(providerOf[i]!, typeOf[i]!, multi[i]!)]!++;
    }
    return cube;
  };
  const baseCube = cubeOf(null);

  // Every form of the index is searched through its packed posting lists (search.ts PostingSearch).
  const stored = compiled.searchIndex;
  const packed: PackedSearchIndex =
    typeof stored === 'string' ? packSearchIndex(loadSearchIndex(stored)) : 'postingStart' in stored ? stored : packSearchIndex(stored);
  const postings = new PostingSearch(unpackSearchIndex(packed), packed);
  const searches = new Lru<string, CachedSearch>({
    maxEntries: options.searchCacheEntries ?? 2048,
    maxWeight: options.searchCacheIndexes ?? 1_000_000,
    weigh: (v) => v.match.ids.length * 2 + v.cube.length,
  });
  const searchFor = (q: string): CachedSearch => {
    const terms = queryTerms(q);
    const key = terms.join(' ');
    let hit = searches.get(key);
    if (hit === undefined) {
      const match = postings.match(terms);
      hit = { match, cube: cubeOf(match.ids) };
      searches.set(key, hit);
    }
    return hit;
  };

  const scratch = new Uint8Array(n);

  function facets(cube: Int32Array, prov: number, type: number, hv: boolean): ListFacets {
    const mFrom = hv ? 1 : 0;
    const tFrom = type === ALL ? 0 : type;
    const tTo = type === ALL ? T : type + 1;
    const providers: ListFacets['providers'] = [];
    for (let pp = 0; pp < p; pp++) {
      let count = 0;
      for (let tt = tFrom; tt < tTo; tt++) for (let m = mFrom; m < 2; m++) count += cube[cell(pp, tt, m)]!;
      if (count > 0 || pp === prov) providers.push({ provider: providerKeys[pp]!, display: providerDisplay[pp]!, count });
    }
    providers.sort((a, b) => b.count - a.count || compareStrings(a.provider, b.provider));
    const gameTypes: ListFacets['game_types'] = [];
    // An unknown provider matches nothing, so every game type counts 0.
    const pFrom = prov === ALL || prov === UNKNOWN ? 0 : prov;
    const pTo = prov === ALL ? p : prov === UNKNOWN ? 0 : prov + 1;
    for (let tt = 0; tt < T; tt++) {
      let count = 0;
      for (let pp = pFrom; pp < pTo; pp++) for (let m = mFrom; m < 2; m++) count += cube[cell(pp, tt, m)]!;
      if (count > 0 || tt === type) gameTypes.push({ game_type: GAME_TYPES[tt]!, count });
    }
    gameTypes.sort((a, b) => b.count - a.count || compareStrings(a.game_type, b.game_type));
    return { providers, game_types: gameTypes };
  }

  function filteredCount(cube: Int32Array, prov: number, type: number, hv: boolean): number {
    if (prov === UNKNOWN) return 0;
    let count = 0;
    for (let pp = prov === ALL ? 0 : prov; pp < (prov === ALL ? p : prov + 1); pp++) {
      for (let tt = type === ALL ? 0 : type; tt < (type === ALL ? T : type + 1); tt++) {
        for (let m = hv ? 1 : 0; m < 2; m++) count += cube[cell(pp, tt, m)]!;
      }
    }
    return count;
  }

  /** Positions [start, end) of `order` among the records passing the filters (and `mask`, when given). */
  function walk(order: Int32Array, prov: number, type: number, hv: boolean, mask: Uint8Array | null, start: number, end: number): ArrayLike<number> {
    if (mask === null && prov === ALL && type === ALL && !hv) return order.subarray(start, end);
    const out: number[] = [];
    let seen = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (mask !== null && mask[i] === 0) continue;
      if (prov !== ALL && providerOf[i] !== prov) continue;
      if (type !== ALL && typeOf[i] !== type) continue;
      if (hv && multi[i] === 0) continue;
      if (seen >= start) out.push(i);
      if (++seen >= end) break;
    }
    return out;
  }

  function page(found: CachedSearch | null, sort: ListSort, prov: number, type: number, hv: boolean, start: number, end: number, filtered: number): ArrayLike<number> {
    if (start >= end) return [];
    if (sort === 'relevance') return walk(found!.match.byRelevance, prov, type, hv, null, start, end);
    if (found === null) return walk(orders[sort], prov, type, hv, null, start, end);
    const ids = found.match.ids;
    if (ids.length * 16 <= n) {
      // Few matches: order them by rank rather than scanning the whole permutation.
      const rank = ranks[sort];
      const order = orders[sort];
      const picked = new Int32Array(filtered);
      let f = 0;
      for (let k = 0; k < ids.length; k++) {
        const i = ids[k]!;
        if (prov !== ALL && providerOf[i] !== prov) continue;
        if (type !== ALL && typeOf[i] !== type) continue;
        if (hv && multi[i] === 0) continue;
        picked[f++] = rank[i]!;
      }
      picked.sort();
      const out = new Int32Array(end - start);
      for (let k = start; k < end; k++) out[k - start] = order[picked[k]!]!;
      return out;
    }
    for (let k = 0; k < ids.length; k++) scratch[ids[k]!] = 1;
    try {
      return walk(orders[sort], prov, type, hv, scratch, start, end);
    } finally {
      for (let k = 0; k < ids.length; k++) scratch[ids[k]!] = 0;
    }
  }

  function run(query: ListQuery): ListResult {
    const prov = query.provider === null ? ALL : (providerIndex.get(query.provider) ?? UNKNOWN);
    const type = query.game_type === null ? ALL : typeIndex.get(query.game_type)!;
    const hv = query.has_variants;
    const found = query.q === null ? null : searchFor(query.q);
    const sort: ListSort = query.sort === 'relevance' && found === null ? 'name' : query.sort;
    const cube = found === null ? baseCube : found.cube;
    const filtered = filteredCount(cube, prov, type, hv);
    const end = Math.min(filtered, query.offset + query.limit);
    return { filtered, items: page(found, sort, prov, type, hv, query.offset, end, filtered), facets: facets(cube, prov, type, hv) };
  }

  return {
    dataVersion: compiled.dataVersion,
    frozenAt: compiled.frozenAt,
    total: n,
    run,
    recordJson: (i: number) => bytes.subarray(offsets[i]!, offsets[i + 1]!),
  };
}
