// The list route's caches, which only ever save work whatever the traffic: evaluated pages (record
// indexes, and facets shared by the pages of the same filters) and whole responses, both by
// frequency-based admission. Every map is bounded by bytes (docs/security.md).
import { LRUCache } from 'lru-cache';
import { ByteBoundedMap, byteLru, stringBytes } from '../lib/bounded.ts';
import type { ListQuery } from '../schemas/list.ts';
import type { ListResult } from './engine.ts';
import type { HandlerResult } from './handler-result.ts';
import { listFilterKey } from './query.ts';

export interface ListCacheOptions {
  /** Whole responses kept (see ListCache). */
  cacheEntries?: number;
  /** Bound on the bytes of whole responses kept. */
  cacheBytes?: number;
  /** Bound on the bytes of evaluated pages kept (their record indexes and their filters' facets, not the records). */
  pageCacheBytes?: number;
  /** How long a whole response stays in the cache, ms (then its room goes to the next query asked twice). */
  cacheTtlMs?: number;
}

/** Bytes of query keys remembered for cache admission before the set starts afresh. */
export const DOORKEEPER_BYTES = 1024 * 1024;
/** Bytes of raw query strings (and their keys) remembered for cached pages. */
export const RAW_KEYS_BYTES = 2 * 1024 * 1024;
/**
 * Default bound of the evaluated-page cache: at 50k games the 3,000 pages of the bench's cycled mix
 * (about 2 MB) with the facets of their 1,900 filters (about 5 MB).
 */
export const PAGE_CACHE_BYTES = 8 * 1024 * 1024;
/** Per cached response or page, beyond its bytes and key: the objects and their header arrays. */
const RESULT_OVERHEAD = 512;
/** Per cached facets entry, beyond its bytes and key: the typed array and the cache's slot. */
const FACETS_OVERHEAD = 128;
/** Starts the key of a facets entry; a page's key starts with `-` or a digit (listQueryKey). */
const FACETS_KEY = 'F';

/** A query answered once: enough to write its body again without the engine. */
export interface CachedPage {
  /** Requests answered from this page or its whole response: the query's popularity. */
  hits: number;
  query: ListQuery;
  filtered: number;
  items: Int32Array;
  /** The page cache's key of its facets' JSON, which the pages of the same filters share. */
  facetsKey: string;
  etag: string;
}

/** The facets' JSON of one set of filters, shared by the kept pages of those filters. */
class CachedFacets {
  /** Requests answered with these facets: the sum of their pages' popularity. */
  hits = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

/** The page cache holds pages and, apart, the facets' JSON of their filters. */
type PageEntry = CachedPage | CachedFacets;

/** Bytes a kept page weighs with its keys and objects. */
const pageWeight = (items: number, key: string, facetsKey: string): number => 4 * items + stringBytes(key) + stringBytes(facetsKey) + RESULT_OVERHEAD;
/** Bytes a kept facets entry weighs with its key and objects. */
const facetsWeight = (bytes: number, key: string): number => bytes + stringBytes(key) + FACETS_OVERHEAD;

/**
 * Makes room for `entries` new entries of `size` bytes in all for a newcomer asked `asked` times:
 * expired entries go first (purged at most once a second, `clock` holds when), then least recently
 * used ones asked less often, at most four. False when the room is not to be had: the least
 * recently used entry is asked at least as often, so the newcomer stays out. In a cycle of equally
 * asked queries the kept ones are reached first in a pass, so a newcomer never passes them.
 */
function makeRoom<V extends {}>(
  cache: LRUCache<string, V>,
  size: number,
  entries: number,
  asked: number,
  popularity: (entry: V) => number,
  clock: { purgedAt: number },
): boolean {
  const hasRoom = () => cache.size + entries <= cache.max && cache.calculatedSize + size <= cache.maxSize;
  if (hasRoom()) return true;
  const now = performance.now();
  if (now - clock.purgedAt >= 1000) {
    clock.purgedAt = now;
    cache.purgeStale();
    if (hasRoom()) return true;
  }
  for (let k = 0; k < 4; k++) {
    const victim = cache.rkeys().next();
    if (victim.done === true) return false;
    const entry = cache.peek(victim.value);
    if (entry !== undefined && popularity(entry) >= asked) return false;
    cache.delete(victim.value);
    if (hasRoom()) return true;
  }
  return false;
}

/** A cached page and its facets' JSON as the engine's result, for listBody (one object, no closures: it is made per hit). */
class PageResult implements ListResult {
  private readonly page: CachedPage;
  private readonly facetsBytes: Uint8Array;

  constructor(page: CachedPage, facetsBytes: Uint8Array) {
    this.page = page;
    this.facetsBytes = facetsBytes;
  }

  get filtered(): number {
    return this.page.filtered;
  }

  get items(): Int32Array {
    return this.page.items;
  }

  get maxFacetsBytes(): number {
    return this.facetsBytes.length;
  }

  writeFacets(target: Uint8Array, at: number): number {
    target.set(this.facetsBytes, at);
    return at + this.facetsBytes.length;
  }
}

/** A cached page and its facets' JSON as the engine's result, for listBody. */
export function pageResult(page: CachedPage, facets: Uint8Array): ListResult {
  return new PageResult(page, facets);
}

/** The facets' JSON of an evaluated result, in a buffer of its own. */
function facetsOfResult(result: ListResult): Uint8Array {
  const scratch = Buffer.allocUnsafe(result.maxFacetsBytes);
  const end = result.writeFacets(scratch, 0);
  return Uint8Array.prototype.slice.call(scratch, 0, end);
}

/** A whole response kept, and the page it was written from (whose hits count its popularity). */
interface CachedBody {
  result: HandlerResult;
  page: CachedPage;
}

/**
 * The caches of one engine's list responses, both by frequency-based admission (as in TinyLFU), so
 * that a cycle of more queries than fit keeps the ones that got in instead of thrashing:
 * - pages are admitted from a query's second sighting on, while there is room or in place of least
 *   recently used ones asked less often; a stream of one-off queries (a crawler paging through)
 *   costs no cache churn and leaves little for the garbage collector to promote;
 * - whole responses likewise, counting each request answered from the page.
 * Both leave after `cacheTtlMs`, so popularity is recent.
 */
export class ListCache {
  private readonly bodies: LRUCache<string, CachedBody>;
  private readonly pages: LRUCache<string, PageEntry>;
  /** Keys asked but not kept, with how many times (the admission's counts; starts afresh when full). */
  private readonly sightings = new ByteBoundedMap<number>(DOORKEEPER_BYTES);
  /** Query strings exactly as received, for cached pages: a repeated request skips the parsing (starts afresh when full). */
  private readonly keyOfRaw = new ByteBoundedMap(RAW_KEYS_BYTES);
  private readonly bodiesClock = { purgedAt: 0 };
  private readonly pagesClock = { purgedAt: 0 };

  constructor(options: ListCacheOptions = {}) {
    const ttl = options.cacheTtlMs ?? 60_000;
    this.bodies = new LRUCache<string, CachedBody>({
      max: options.cacheEntries ?? 4096,
      maxSize: Math.max(1, options.cacheBytes ?? 64 * 1024 * 1024),
      sizeCalculation: (b, key) => b.result.body.length + stringBytes(key) + RESULT_OVERHEAD,
      ttl,
      // Read the clock on each access instead of caching it behind a timer per access.
      ttlResolution: 0,
    });
    // One bound for pages and facets: whichever the traffic needs more of gets the room. At most as
    // many entries as the smallest pages could fill (lru-cache allocates its arrays by entry count).
    this.pages = byteLru<PageEntry>(
      options.pageCacheBytes ?? PAGE_CACHE_BYTES,
      1 << 14,
      (entry, key) => (entry instanceof CachedFacets ? facetsWeight(entry.bytes.byteLength, key) : pageWeight(entry.items.length, key, entry.facetsKey)),
      ttl,
    );
  }

  /** The normalised key a raw query string had when its page was cached, if remembered. */
  keyOf(raw: string): string | undefined {
    return this.keyOfRaw.get(raw);
  }

  /** Remembers the key of a raw query string whose page or response is cached. */
  remember(raw: string | null, key: string): void {
    if (raw !== null) this.keyOfRaw.set(raw, key);
  }

  /** The whole response kept for `key` (counted as a hit of its page). */
  body(key: string): HandlerResult | undefined {
    const hit = this.bodies.get(key);
    if (hit === undefined) return undefined;
    hit.page.hits++;
    return hit.result;
  }

  /** The page kept for `key` (see facetsOf). */
  page(key: string): CachedPage | undefined {
    const entry = this.pages.get(key);
    return entry instanceof CachedFacets ? undefined : entry;
  }

  /** The facets' JSON of a kept page (counted as their hit), unless they have left the cache (then the page is evaluated again). */
  facetsOf(page: CachedPage): Uint8Array | undefined {
    const entry = this.pages.get(page.facetsKey);
    if (!(entry instanceof CachedFacets)) return undefined;
    entry.hits++;
    return entry.bytes;
  }

  /** Counts a request for `key`, which is not kept; returns how many it has had (this one included) since it was last kept. */
  sighted(key: string): number {
    const asked = (this.sightings.get(key) ?? 0) + 1;
    this.sightings.set(key, asked);
    return asked;
  }

  /**
   * Keeps the page of `key` evaluated as `result`, asked `asked` times (sighted), and its facets'
   * JSON unless the page of another query with the same filters left them, when there is room for
   * them (makeRoom); returns both, or undefined when they are not kept.
   */
  addPage(key: string, query: ListQuery, result: ListResult, etag: string, asked: number): { page: CachedPage; facets: Uint8Array } | undefined {
    const facetsKey = FACETS_KEY + listFilterKey(query);
    const known = this.pages.get(facetsKey);
    const shared = known instanceof CachedFacets ? known : undefined;
    // The facets' bound stands for their size until they are written: written only when kept.
    const size = pageWeight(result.items.length, key, facetsKey) + (shared === undefined ? facetsWeight(result.maxFacetsBytes, facetsKey) : 0);
    if (!makeRoom(this.pages, size, shared === undefined ? 2 : 1, asked, popularity, this.pagesClock)) return undefined;
    const facets = shared ?? new CachedFacets(facetsOfResult(result));
    facets.hits += asked;
    if (shared === undefined) this.pages.set(facetsKey, facets);
    // The request answering now is counted as the page's hit when it is answered.
    const page: CachedPage = { hits: asked - 1, query, filtered: result.filtered, items: Int32Array.from(result.items), facetsKey, etag };
    this.pages.set(key, page);
    this.sightings.delete(key);
    return { page, facets: facets.bytes };
  }

  /**
   * Offers the whole response written from `page` (its hit already counted). When admitted, it is
   * kept with its body as `keep` returns it (a copy, when the offered body is only lent), and the
   * kept response is returned.
   */
  offer(key: string, result: HandlerResult, page: CachedPage, keep: (body: Buffer) => Buffer): HandlerResult | undefined {
    if (!makeRoom(this.bodies, result.body.length + stringBytes(key) + RESULT_OVERHEAD, 1, page.hits, bodyPopularity, this.bodiesClock)) return undefined;
    const kept = { ...result, body: keep(result.body) };
    this.bodies.set(key, { result: kept, page });
    return kept;
  }
}

const popularity = (entry: PageEntry): number => entry.hits;
const bodyPopularity = (entry: CachedBody): number => entry.page.hits;
