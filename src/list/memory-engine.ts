// The in-memory list engine: loads a list bundle (src/schemas/list-bundle.ts) and answers each query from the
// sort permutations, filter columns, a facet count table and a cache of search results, never sorting
// per request: an unfiltered page is a slice of a precomputed order; a filtered one walks that order
// testing columns until the page is full (up to one pass over the registry when few records match).
import { hash } from 'node:crypto';
import { ByteBoundedMap, byteLru, stringBytes } from '../lib/bounded.ts';
import { GAME_TYPES } from '../schemas/authoring.ts';
import type { ListQuery, ListSort } from '../schemas/list.ts';
import { badgeBit, confidenceIndex, type ListBundle, STATIC_SORTS, type StaticSort } from '../schemas/list-bundle.ts';
import type { SearchMatch } from '../schemas/search-index.ts';
import { queryTerms } from '../schemas/text.ts';
import { rangeTester, slugIndex } from './columns.ts';
import { EvaluatedList, type ListEngine, type ListResult } from './engine.ts';
import { tableBytes } from './facet-table.ts';
import { ALL, ALL_LEVELS, type CountTable, Facets, levelMask, UNKNOWN } from './facets.ts';
import { OperatorFacets } from './operator-facets.ts';
import { PostingSearch } from './search.ts';

export interface MemoryEngineOptions {
  /** Search results kept (per distinct set of query words). */
  searchCacheEntries?: number;
  /** Bound on the memory of the search cache in bytes (its typed arrays, summed over entries); default defaultSearchCacheBytes. */
  searchCacheBytes?: number;
}

/** The search cache's default bound per 50,000 games, and its least: at 50k games it holds the results of some 2,000 distinct q. */
export const SEARCH_CACHE_BYTES_PER_50K = 16 * 1024 * 1024;

/**
 * Default bound of the search cache for a registry of `games`: a search result holds arrays of its
 * matches, which grow with the registry, so the bound does too (16 MiB per 50,000 games, at least
 * 16 MiB). At 250k games a fixed 16 MiB held so few results that the benchmark's uncached stream
 * fell from 12,000 to 2,300 req/s (docs/server.md).
 */
export function defaultSearchCacheBytes(games: number): number {
  return Math.max(SEARCH_CACHE_BYTES_PER_50K, Math.ceil((games / 50_000) * SEARCH_CACHE_BYTES_PER_50K));
}

interface CachedSearch {
  /** The words, as the cache key. */
  key: string;
  match: SearchMatch;
  /** Matching records counted by provider × game type × multi-variant × confidence × volatility (facet-table.ts). */
  table: CountTable;
  /** The matching records in each static sort's order, made on first use. */
  sorted: Partial<Record<StaticSort, Int32Array>>;
  /** Like `table`, over the matches carrying one badge (by badge bit), made on first use. */
  badgeTables: Map<number, CountTable>;
}

/** Bytes of `q` strings (and their word keys) remembered so a repeated q is not tokenised again. */
export const Q_KEYS_BYTES = 1024 * 1024;

/** Bytes a cached search holds: its ids, the relevance order (made on first use), counts and orders. */
function weighSearch(v: CachedSearch): number {
  let bytes = v.match.ids.byteLength * 2 + v.match.heldBytes + tableBytes(v.table) + 256;
  for (const order of Object.values(v.sorted)) bytes += order.byteLength;
  for (const table of v.badgeTables.values()) bytes += tableBytes(table);
  return bytes;
}

/**
 * Loads the engine from a list bundle (src/schemas/list-bundle.ts); facets as in facets.ts.
 * Relevance order (only with q): search score descending, then slug.
 */
export function createMemoryEngine(compiled: ListBundle, options: MemoryEngineOptions = {}): ListEngine {
  const {
    total: n,
    recordBytes,
    offsets,
    itemBytes,
    itemOffsets,
    providerKeys,
    providerDisplay,
    providerOf,
    typeOf,
    multi,
    badges,
    confidence,
    volatilityOf,
    orders,
  } = compiled;
  const providerIndex = new Map(providerKeys.map((k, i) => [k, i]));
  const typeIndex = new Map<string, number>(GAME_TYPES.map((t, i) => [t, i]));
  const recordBuffer = recordBytes.buffer;
  const recordBase = recordBytes.byteOffset;
  const itemBuffer = itemBytes.buffer;
  const itemBase = itemBytes.byteOffset;

  const ranks = {} as Record<StaticSort, Int32Array>;
  for (const s of STATIC_SORTS) {
    const rank = new Int32Array(n);
    const order = orders[s];
    for (let k = 0; k < n; k++) rank[order[k]!] = k;
    ranks[s] = rank;
  }

  const facets = new Facets(compiled);
  const baseTable = facets.count(null);
  const operatorFacets = new OperatorFacets(compiled);

  const postings = new PostingSearch(compiled.searchIndex);
  const searches = byteLru<CachedSearch>(
    options.searchCacheBytes ?? defaultSearchCacheBytes(n),
    options.searchCacheEntries ?? 4096,
    (v, key) => weighSearch(v) + stringBytes(key),
  );
  // q as given -> its words' key, so a repeated q is not tokenised again (bounded by bytes; starts
  // afresh when full). It is also the search cache's doorkeeper: a search is kept from the second
  // request of its q on, so a stream of one-off searches (a crawler's, a flood's) leaves the kept
  // ones in place, as the list cache's pages are admitted (list-cache.ts).
  const keyOfQ = new ByteBoundedMap(Q_KEYS_BYTES);
  const searchFor = (q: string): CachedSearch => {
    let key = keyOfQ.get(q);
    const seenBefore = key !== undefined;
    let terms: string[] | null = null;
    if (key === undefined) {
      terms = queryTerms(q);
      key = terms.join(' ');
      keyOfQ.set(q, key);
    }
    let hit = searches.get(key);
    if (hit === undefined) {
      const match = postings.match(terms ?? queryTerms(q));
      hit = { key, match, table: facets.count(match.ids), sorted: {}, badgeTables: new Map() };
      if (seenBefore) searches.set(key, hit);
    }
    return hit;
  };
  /** Weighs a kept search again after an order or count table was added to it (a search not kept stays out). */
  const reweigh = (found: CachedSearch): void => {
    if (searches.peek(found.key) === found) searches.set(found.key, found);
  };

  const scratch = new Uint8Array(n);

  /**
   * Positions [start, end) of `order` among the records passing the filters (`bit`: a badge's bit,
   * or 0; `conf`: a confidence index, or ALL; `mask`: the volatility cells asked for, levelMask;
   * `pass`: the range filters, rangeTest).
   */
  function walk(order: Int32Array, f: Filters, start: number, end: number): ArrayLike<number> {
    const { prov, type, hv, bit, conf, mask, pass } = f;
    if (prov === ALL && type === ALL && !hv && bit === 0 && conf === ALL && mask === ALL_LEVELS && pass === null) return order.subarray(start, end);
    const out: number[] = [];
    let seen = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (prov !== ALL && providerOf[i] !== prov) continue;
      if (type !== ALL && typeOf[i] !== type) continue;
      if (hv && multi[i] === 0) continue;
      if (bit !== 0 && (badges[i]! & bit) === 0) continue;
      if (conf !== ALL && confidence[i] !== conf) continue;
      if (mask !== ALL_LEVELS && (mask & (1 << volatilityOf[i]!)) === 0) continue;
      if (pass !== null && !pass(i)) continue;
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
    reweigh(found);
    return out;
  }

  function page(found: CachedSearch | null, sort: ListSort, f: Filters, start: number, end: number): ArrayLike<number> {
    if (start >= end) return [];
    if (sort === 'relevance') return walk(found!.match.byRelevance, f, start, end);
    return walk(found === null ? orders[sort] : sortedMatches(found, sort), f, start, end);
  }

  const rangeTest = rangeTester(compiled);

  // The whole registry counted per badge, made on first use (a badge filter's facets and counts).
  const baseBadgeTables = new Map<number, CountTable>();
  /** The count table for a query: its search's (or the registry's), restricted to a badge when one is asked for. */
  function tableFor(found: CachedSearch | null, bit: number): CountTable {
    if (bit === 0) return found === null ? baseTable : found.table;
    const cache = found === null ? baseBadgeTables : found.badgeTables;
    let table = cache.get(bit);
    if (table === undefined) {
      table = facets.count(found === null ? null : found.match.ids, bit);
      cache.set(bit, table);
      if (found !== null) reweigh(found);
    }
    return table;
  }

  function run(query: ListQuery): ListResult {
    const prov = query.provider === null ? ALL : (providerIndex.get(query.provider) ?? UNKNOWN);
    const type = query.game_type === null ? ALL : typeIndex.get(query.game_type)!;
    const hv = query.has_variants;
    const bit = query.badge === null ? 0 : badgeBit(query.badge);
    const conf = query.confidence === null ? ALL : confidenceIndex(query.confidence);
    const mask = levelMask(query.volatility);
    const ranged = rangeTest(query);
    const byOperator = operatorFacets.test(query);
    // The operator filters test like the range filters (counted afresh, not kept).
    const pass = byOperator === null ? ranged : ranged === null ? byOperator : (i: number) => ranged(i) && byOperator(i);
    const found = query.q === null ? null : searchFor(query.q);
    const sort: ListSort = query.sort === 'relevance' && found === null ? 'name' : query.sort;
    // Range filters: counted afresh over the search's matches (or the registry), not kept (the list
    // cache keeps the pages of repeated queries).
    const table = pass === null ? tableFor(found, bit) : facets.count(found === null ? null : found.match.ids, bit, pass);
    const filtered = facets.filtered(table, prov, type, hv, mask, conf);
    const end = Math.min(filtered, query.offset + query.limit);
    const items = page(found, sort, { prov, type, hv, bit, conf, mask, pass }, query.offset, end);
    // The operator facets count what passes every filter but theirs; they follow the others, whose closing brace they replace.
    const others =
      prov === ALL && type === ALL && !hv && bit === 0 && conf === ALL && mask === ALL_LEVELS && ranged === null
        ? null
        : (i: number) =>
            (prov === ALL || providerOf[i] === prov) &&
            (type === ALL || typeOf[i] === type) &&
            (!hv || multi[i] !== 0) &&
            (bit === 0 || (badges[i]! & bit) !== 0) &&
            (conf === ALL || confidence[i] === conf) &&
            (mask === ALL_LEVELS || (mask & (1 << volatilityOf[i]!)) !== 0) &&
            (ranged === null || ranged(i));
    const writeFacets = (target: Uint8Array, at: number) =>
      operatorFacets.write(query, found === null ? null : found.match.ids, others, target, facets.write(table, prov, type, hv, target, at, mask, conf) - 1);
    return new EvaluatedList(filtered, items, writeFacets, facets.maxBytes + operatorFacets.maxBytes);
  }

  const contentId = hash('sha256', JSON.stringify([compiled.recordsDigest, compiled.dataVersion, compiled.frozenAt, providerKeys, providerDisplay]), 'hex');

  return {
    dataVersion: compiled.dataVersion,
    frozenAt: compiled.frozenAt,
    total: n,
    contentId,
    run,
    recordLength: (i: number) => offsets[i + 1]! - offsets[i]!,
    indexOfSlug: (slug: string) => slugIndex(recordBytes, offsets, n, slug),
    copyRecord: (i: number, target: Uint8Array, at: number) => {
      const start = offsets[i]!;
      const length = offsets[i + 1]! - start;
      target.set(new Uint8Array(recordBuffer, recordBase + start, length), at);
      return at + length;
    },
    itemLength: (i: number) => itemOffsets[i + 1]! - itemOffsets[i]!,
    copyItem: (i: number, target: Uint8Array, at: number) => {
      const start = itemOffsets[i]!;
      const length = itemOffsets[i + 1]! - start;
      target.set(new Uint8Array(itemBuffer, itemBase + start, length), at);
      return at + length;
    },
  };
}

/** A query's filters as the walk over an order applies them. */
interface Filters {
  prov: number;
  type: number;
  hv: boolean;
  bit: number;
  conf: number;
  mask: number;
  pass: ((i: number) => boolean) | null;
}
