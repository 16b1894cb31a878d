// The in-memory list engine: loads a list bundle (src/schemas/list-bundle.ts) and answers each query from the
// sort permutations, filter columns, a facet count table and a cache of search results, without
// sorting or scanning the registry per request.
import { hash } from 'node:crypto';
import { GAME_TYPES } from '../schemas/authoring.ts';
import type { ListQuery, ListSort } from '../schemas/list.ts';
import { badgeBit, STATIC_SORTS, type ListBundle, type StaticSort } from '../schemas/list-bundle.ts';
import { compareStrings, queryTerms } from '../schemas/text.ts';
import { EvaluatedList, type ListEngine, type ListResult } from './engine.ts';
import { byteLru, ByteBoundedMap, stringBytes } from '../lib/bounded.ts';
import { PostingSearch, unpackSearchIndex } from './search.ts';
import type { SearchMatch } from '../schemas/search-index.ts';

const ALL = -1;
const UNKNOWN = -2;
const T = GAME_TYPES.length;

export interface MemoryEngineOptions {
  /** Search results kept (per distinct set of query words). */
  searchCacheEntries?: number;
  /** Bound on the memory of the search cache in bytes (its typed arrays, summed over entries). */
  searchCacheBytes?: number;
}

/** Default bound of the search cache: at 50k games it holds the results of some 2,000 distinct q. */
export const DEFAULT_SEARCH_CACHE_BYTES = 16 * 1024 * 1024;

interface CachedSearch {
  /** The words, as the cache key. */
  key: string;
  match: SearchMatch;
  /** Matching records counted by provider × game type × multi-variant (see `cell`). */
  cube: Int32Array;
  /** The matching records in each static sort's order, made on first use. */
  sorted: Partial<Record<StaticSort, Int32Array>>;
  /** Like `cube`, over the matches carrying one badge (by badge bit), made on first use. */
  badgeCubes: Map<number, Int32Array>;
}

/** Bytes of `q` strings (and their word keys) remembered so a repeated q is not tokenised again. */
export const Q_KEYS_BYTES = 1024 * 1024;

/** Bytes a cached search holds: its ids, the relevance order (made on first use), counts and orders. */
function weighSearch(v: CachedSearch): number {
  let bytes = v.match.ids.byteLength * 2 + v.cube.byteLength + 256;
  for (const order of Object.values(v.sorted)) bytes += order.byteLength;
  for (const cube of v.badgeCubes.values()) bytes += cube.byteLength;
  return bytes;
}

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const PROVIDERS_OPEN = new Uint8Array(Buffer.from('{"providers":['));
const TYPES_OPEN = new Uint8Array(Buffer.from('],"game_types":['));
const FACETS_CLOSE = new Uint8Array(Buffer.from(']}'));

/** Strings encoded once, each its own view (so copying one allocates nothing). */
type Fragments = Uint8Array[];

function fragments(texts: readonly string[]): Fragments {
  return texts.map((t) => new Uint8Array(Buffer.from(t)));
}

/** Writes a non-negative integer below 2^31 in decimal at `at`. */
function writeUint(value: number, target: Uint8Array, at: number): number {
  let digits = 1;
  for (let v = value; v >= 10; v = (v / 10) | 0) digits++;
  for (let k = at + digits - 1, v = value; k >= at; k--, v = (v / 10) | 0) target[k] = 0x30 + (v % 10);
  return at + digits;
}

/**
 * Loads the engine from a list bundle (src/schemas/list-bundle.ts). Facets count the records matching every filter except their own, sorted by
 * count descending then key; zero counts are left out except for the selected provider or type.
 * Relevance order (only with q): search score descending, then slug.
 */
export function createMemoryEngine(compiled: ListBundle, options: MemoryEngineOptions = {}): ListEngine {
  const { total: n, recordBytes, offsets, providerKeys, providerDisplay, providerOf, typeOf, multi, badges, orders } = compiled;
  const p = providerKeys.length;
  const providerIndex = new Map(providerKeys.map((k, i) => [k, i]));
  const typeIndex = new Map<string, number>(GAME_TYPES.map((t, i) => [t, i]));
  const recordBuffer = recordBytes.buffer;
  const recordBase = recordBytes.byteOffset;

  const ranks = {} as Record<StaticSort, Int32Array>;
  for (const s of STATIC_SORTS) {
    const rank = new Int32Array(n);
    const order = orders[s];
    for (let k = 0; k < n; k++) rank[order[k]!] = k;
    ranks[s] = rank;
  }

  const cell = (prov: number, type: number, m: number) => (prov * T + type) * 2 + m;
  /** Counts of the records `ids` (all when null), only those with badge bit `bit` when it is not 0. */
  const cubeOf = (ids: ArrayLike<number> | null, bit = 0): Int32Array => {
    const cube = new Int32Array(p * T * 2);
    const count = ids === null ? n : ids.length;
    for (let k = 0; k < count; k++) {
      const i = ids === null ? k : ids[k]!;
      if (bit !== 0 && (badges[i]! & bit) === 0) continue;
      cube[cell(providerOf[i]!, typeOf[i]!, multi[i]!)]!++;
    }
    return cube;
  };
  const baseCube = cubeOf(null);

  const postings = new PostingSearch(unpackSearchIndex(compiled.searchIndex), compiled.searchIndex);
  const searches = byteLru<CachedSearch>(options.searchCacheBytes ?? DEFAULT_SEARCH_CACHE_BYTES, options.searchCacheEntries ?? 4096, (v, key) => weighSearch(v) + stringBytes(key));
  // q as given -> its words' key, so a repeated q is not tokenised again (bounded by bytes; starts afresh when full).
  const keyOfQ = new ByteBoundedMap(Q_KEYS_BYTES);
  const searchFor = (q: string): CachedSearch => {
    let key = keyOfQ.get(q);
    let terms: string[] | null = null;
    if (key === undefined) {
      terms = queryTerms(q);
      key = terms.join(' ');
      keyOfQ.set(q, key);
    }
    let hit = searches.get(key);
    if (hit === undefined) {
      const match = postings.match(terms ?? queryTerms(q));
      hit = { key, match, cube: cubeOf(match.ids), sorted: {}, badgeCubes: new Map() };
      searches.set(key, hit);
    }
    return hit;
  };

  const scratch = new Uint8Array(n);

  // Facets are written as JSON bytes directly: each provider's and game type's fixed part is
  // encoded once, and entries are ordered by count descending, then key (compareStrings).
  const providerHead = fragments(providerKeys.map((k, i) => `{"provider":${JSON.stringify(k)},"display":${JSON.stringify(providerDisplay[i])},"count":`));
  const typeHead = fragments(GAME_TYPES.map((t) => `{"game_type":${JSON.stringify(t)},"count":`));
  /** Each key's position in compareStrings order, and the key index at each position. */
  const rankOf = (keys: readonly string[]): { rank: Int32Array; atRank: Int32Array } => {
    const atRank = Int32Array.from([...keys.keys()].sort((a, b) => compareStrings(keys[a]!, keys[b]!)));
    const rank = new Int32Array(keys.length);
    atRank.forEach((k, r) => (rank[k] = r));
    return { rank, atRank };
  };
  const providerOrder = rankOf(providerKeys);
  const typeOrder = rankOf(GAME_TYPES);
  const providerCounts = new Int32Array(p);
  const typeCounts = new Int32Array(T);
  const sortKeys = new Float64Array(Math.max(p, T));
  // Longest facets text: every entry listed with a count of n digits.
  const fragmentBytes = (f: Fragments) => f.reduce((sum, b) => sum + b.length, 0);
  const maxFacetsBytes = PROVIDERS_OPEN.length + TYPES_OPEN.length + FACETS_CLOSE.length + fragmentBytes(providerHead) + fragmentBytes(typeHead) + (p + T) * (String(n).length + 2);

  /**
   * Writes the listed entries (indexes into heads/counts) as JSON array items, by count
   * descending, then key: each entry becomes one number, (n - count) * entries + rank, so a
   * numeric typed-array sort orders them (exact: below 2^53 for any registry).
   */
  function writeFacetList(target: Uint8Array, at: number, listed: Int32Array, m: number, counts: Int32Array, order: { rank: Int32Array; atRank: Int32Array }, heads: Fragments): number {
    const size = heads.length;
    for (let k = 0; k < m; k++) sortKeys[k] = (n - counts[listed[k]!]!) * size + order.rank[listed[k]!]!;
    const keys = sortKeys.subarray(0, m).sort();
    for (let k = 0; k < m; k++) {
      const entry = order.atRank[keys[k]! % size]!;
      if (k > 0) target[at++] = COMMA;
      const head = heads[entry]!;
      target.set(head, at);
      at += head.length;
      at = writeUint(counts[entry]!, target, at);
      target[at++] = CLOSE_BRACE;
    }
    return at;
  }

  const listedProviders = new Int32Array(p);
  const listedTypes = new Int32Array(T);
  /** Per count table: totals by provider and by game type over all the others, without and with has_variants. */
  interface Totals {
    byProvider: [Int32Array, Int32Array];
    byType: [Int32Array, Int32Array];
  }
  const totalsOf = new WeakMap<Int32Array, Totals>();
  function totals(cube: Int32Array): Totals {
    let t = totalsOf.get(cube);
    if (t === undefined) {
      const [provAll, provMulti, typeAll, typeMulti] = [new Int32Array(p), new Int32Array(p), new Int32Array(T), new Int32Array(T)];
      for (let pp = 0; pp < p; pp++) {
        for (let tt = 0; tt < T; tt++) {
          const multiOnly = cube[cell(pp, tt, 1)]!;
          const all = cube[cell(pp, tt, 0)]! + multiOnly;
          provAll[pp]! += all;
          provMulti[pp]! += multiOnly;
          typeAll[tt]! += all;
          typeMulti[tt]! += multiOnly;
        }
      }
      t = { byProvider: [provAll, provMulti], byType: [typeAll, typeMulti] };
      totalsOf.set(cube, t);
    }
    return t;
  }

  /** Writes `{"providers":[…],"game_types":[…]}` for a count table and filters at `at`; returns the end. */
  function writeFacets(cube: Int32Array, prov: number, type: number, hv: boolean, target: Uint8Array, at: number): number {
    const mFrom = hv ? 1 : 0;
    const sums = totals(cube);
    let providers = 0;
    for (let pp = 0; pp < p; pp++) {
      let count = 0;
      if (type === ALL) count = sums.byProvider[mFrom]![pp]!;
      else for (let m = mFrom; m < 2; m++) count += cube[cell(pp, type, m)]!;
      providerCounts[pp] = count;
      if (count > 0 || pp === prov) listedProviders[providers++] = pp;
    }
    let types = 0;
    for (let tt = 0; tt < T; tt++) {
      let count = 0;
      if (prov === ALL) count = sums.byType[mFrom]![tt]!;
      else if (prov !== UNKNOWN) for (let m = mFrom; m < 2; m++) count += cube[cell(prov, tt, m)]!; // an unknown provider matches nothing
      typeCounts[tt] = count;
      if (count > 0 || tt === type) listedTypes[types++] = tt;
    }
    target.set(PROVIDERS_OPEN, at);
    at = writeFacetList(target, at + PROVIDERS_OPEN.length, listedProviders, providers, providerCounts, providerOrder, providerHead);
    target.set(TYPES_OPEN, at);
    at = writeFacetList(target, at + TYPES_OPEN.length, listedTypes, types, typeCounts, typeOrder, typeHead);
    target.set(FACETS_CLOSE, at);
    return at + FACETS_CLOSE.length;
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

  /** Positions [start, end) of `order` among the records passing the filters (`bit`: a badge's bit, or 0). */
  function walk(order: Int32Array, prov: number, type: number, hv: boolean, bit: number, start: number, end: number): ArrayLike<number> {
    if (prov === ALL && type === ALL && !hv && bit === 0) return order.subarray(start, end);
    const out: number[] = [];
    let seen = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (prov !== ALL && providerOf[i] !== prov) continue;
      if (type !== ALL && typeOf[i] !== type) continue;
      if (hv && multi[i] === 0) continue;
      if (bit !== 0 && (badges[i]! & bit) === 0) continue;
      if (seen >= start) out.push(i);
      if (++seen >= end) break;
    }
    return out;
  }

  /** The records `found` matches, in `sort`'s order (kept with the search once made). */
  function sortedMatches(found: CachedSearch, sort: StaticSort): Int32Array {
    const cached = found.sorted[sort];
    if (cached !== undefined) return cached;
    const ids = found.match.ids;
    const order = orders[sort];
    const out = new Int32Array(ids.length);
    if (ids.length * 16 <= n) {
      // Few matches: order them by rank rather than scanning the whole permutation.
      const rank = ranks[sort];
      for (let k = 0; k < ids.length; k++) out[k] = rank[ids[k]!]!;
      out.sort();
      for (let k = 0; k < out.length; k++) out[k] = order[out[k]!]!;
    } else {
      for (let k = 0; k < ids.length; k++) scratch[ids[k]!] = 1;
      let f = 0;
      for (let k = 0; k < n && f < ids.length; k++) {
        const i = order[k]!;
        if (scratch[i] === 1) out[f++] = i;
      }
      for (let k = 0; k < ids.length; k++) scratch[ids[k]!] = 0;
    }
    found.sorted[sort] = out;
    searches.set(found.key, found); // weighed again with the new order
    return out;
  }

  function page(found: CachedSearch | null, sort: ListSort, prov: number, type: number, hv: boolean, bit: number, start: number, end: number): ArrayLike<number> {
    if (start >= end) return [];
    if (sort === 'relevance') return walk(found!.match.byRelevance, prov, type, hv, bit, start, end);
    return walk(found === null ? orders[sort] : sortedMatches(found, sort), prov, type, hv, bit, start, end);
  }

  // The whole registry counted per badge, made on first use (a badge filter's facets and counts).
  const baseBadgeCubes = new Map<number, Int32Array>();
  /** The count table for a query: its search's (or the registry's), restricted to a badge when one is asked for. */
  function cubeFor(found: CachedSearch | null, bit: number): Int32Array {
    if (bit === 0) return found === null ? baseCube : found.cube;
    const cache = found === null ? baseBadgeCubes : found.badgeCubes;
    let cube = cache.get(bit);
    if (cube === undefined) {
      cube = cubeOf(found === null ? null : found.match.ids, bit);
      cache.set(bit, cube);
      if (found !== null) searches.set(found.key, found); // weighed again with the new table
    }
    return cube;
  }

  function run(query: ListQuery): ListResult {
    const prov = query.provider === null ? ALL : (providerIndex.get(query.provider) ?? UNKNOWN);
    const type = query.game_type === null ? ALL : typeIndex.get(query.game_type)!;
    const hv = query.has_variants;
    const bit = query.badge === null ? 0 : badgeBit(query.badge);
    const found = query.q === null ? null : searchFor(query.q);
    const sort: ListSort = query.sort === 'relevance' && found === null ? 'name' : query.sort;
    const cube = cubeFor(found, bit);
    const filtered = filteredCount(cube, prov, type, hv);
    const end = Math.min(filtered, query.offset + query.limit);
    const items = page(found, sort, prov, type, hv, bit, query.offset, end);
    return new EvaluatedList(filtered, items, (target, at) => writeFacets(cube, prov, type, hv, target, at), maxFacetsBytes);
  }

  const contentId = hash('sha256', JSON.stringify([compiled.recordsDigest, compiled.dataVersion, compiled.frozenAt, providerKeys, providerDisplay]), 'hex');

  return {
    dataVersion: compiled.dataVersion,
    frozenAt: compiled.frozenAt,
    total: n,
    contentId,
    run,
    recordLength: (i: number) => offsets[i + 1]! - offsets[i]!,
    copyRecord: (i: number, target: Uint8Array, at: number) => {
      const start = offsets[i]!;
      const length = offsets[i + 1]! - start;
      target.set(new Uint8Array(recordBuffer, recordBase + start, length), at);
      return at + length;
    },
  };
}
