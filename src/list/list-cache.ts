// The list route's caches, which only ever save work whatever the traffic: evaluated pages (record
// indexes, and facets shared by the pages of the same filters) from a query's second request on,
// and whole responses by frequency-based admission. Every map is bounded by bytes (docs/security.md).
import { LRUCache } from 'lru-cache';
import { byteLru, ByteBoundedMap, stringBytes } from '../lib/bounded.ts';
import type { ListQuery } from '../schemas/list.ts';
import { listFilterKey } from './query.ts';
import type { ListResult } from './engine.ts';
import type { HandlerResult } from './http.ts';

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

/** The page cache holds pages and, apart, the facets' JSON of their filters. */
type PageEntry = CachedPage | Uint8Array;

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

  get facetsJson(): string {
    return Buffer.from(this.facetsBytes).toString('utf8');
  }

  get facets(): ListResult['facets'] {
    return JSON.parse(this.facetsJson) as ListResult['facets'];
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
 * The caches of one engine's list responses:
 * - pages are admitted on a query's second sighting, so a stream of one-off queries (a crawler
 *   paging through) costs no cache churn and leaves little for the garbage collector to promote;
 * - whole responses are admitted while there is room, or in place of the least recently used one
 *   only when the newcomer has been asked more often (as in TinyLFU): a cycle of more queries than
 *   fit is answered from the pages instead of thrashing, while a query asked again and again gets
 *   in at once. Each leaves after `cacheTtlMs`, so popularity is recent.
 */
export class ListCache {
  private readonly bodies: LRUCache<string, CachedBody>;
  private readonly pages: ReturnType<typeof byteLru<PageEntry>>;
  /** Keys seen once (a map with empty values: the same byte bound as the raw-key memo). */
  private readonly seenOnce = new ByteBoundedMap(DOORKEEPER_BYTES);
  /** Query strings exactly as received, for cached pages: a repeated request skips the parsing (starts afresh when full). */
  private readonly keyOfRaw = new ByteBoundedMap(RAW_KEYS_BYTES);
  private purgedAt = 0;

  constructor(options: ListCacheOptions = {}) {
    this.bodies = new LRUCache<string, CachedBody>({
      max: options.cacheEntries ?? 4096,
      maxSize: Math.max(1, options.cacheBytes ?? 64 * 1024 * 1024),
      sizeCalculation: (b, key) => b.result.body.length + stringBytes(key) + RESULT_OVERHEAD,
      ttl: options.cacheTtlMs ?? 60_000,
      // Read the clock on each access instead of caching it behind a timer per access.
      ttlResolution: 0,
    });
    // One bound for pages and facets: whichever the traffic needs more of gets the room. At most as
    // many entries as the smallest pages could fill (lru-cache allocates its arrays by entry count).
    this.pages = byteLru<PageEntry>(options.pageCacheBytes ?? PAGE_CACHE_BYTES, 1 << 14, (entry, key) =>
      entry instanceof Uint8Array
        ? entry.byteLength + stringBytes(key) + FACETS_OVERHEAD
        : entry.items.byteLength + stringBytes(key) + stringBytes(entry.facetsKey) + RESULT_OVERHEAD,
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
    return entry instanceof Uint8Array ? undefined : entry;
  }

  /** The facets' JSON of a kept page, unless they have left the cache (then the page is evaluated again). */
  facetsOf(page: CachedPage): Uint8Array | undefined {
    const entry = this.pages.get(page.facetsKey);
    return entry instanceof Uint8Array ? entry : undefined;
  }

  /** Whether `key` is seen for the second time (its page is then worth keeping); remembers a first sighting. */
  secondSighting(key: string): boolean {
    if (this.seenOnce.delete(key)) return true;
    this.seenOnce.set(key, '');
    return false;
  }

  /**
   * Keeps the page of `key` evaluated as `result`, and its facets' JSON unless the page of another
   * query with the same filters left them; returns both.
   */
  addPage(key: string, query: ListQuery, result: ListResult, etag: string): { page: CachedPage; facets: Uint8Array } {
    const facetsKey = FACETS_KEY + listFilterKey(query);
    let facets = this.pages.get(facetsKey);
    if (!(facets instanceof Uint8Array)) {
      facets = facetsOfResult(result);
      this.pages.set(facetsKey, facets);
    }
    const page: CachedPage = { hits: 0, query, filtered: result.filtered, items: Int32Array.from(result.items), facetsKey, etag };
    this.pages.set(key, page);
    return { page, facets };
  }

  /**
   * Offers the whole response written from `page` (its hit already counted). When admitted, it is
   * kept with its body as `keep` returns it (a copy, when the offered body is only lent), and the
   * kept response is returned.
   */
  offer(key: string, result: HandlerResult, page: CachedPage, keep: (body: Buffer) => Buffer): HandlerResult | undefined {
    if (!this.makeRoom(result.body.length + stringBytes(key) + RESULT_OVERHEAD, page.hits)) return undefined;
    const kept = { ...result, body: keep(result.body) };
    this.bodies.set(key, { result: kept, page });
    return kept;
  }

  private hasRoom(size: number): boolean {
    return this.bodies.size < this.bodies.max && this.bodies.calculatedSize + size <= this.bodies.maxSize;
  }

  /**
   * Makes room for a body of `size` bytes from a page asked `hits` times: expired entries go first
   * (purged at most once a second), then least recently used ones asked less often, at most four.
   */
  private makeRoom(size: number, hits: number): boolean {
    if (this.hasRoom(size)) return true;
    const now = performance.now();
    if (now - this.purgedAt >= 1000) {
      this.purgedAt = now;
      this.bodies.purgeStale();
      if (this.hasRoom(size)) return true;
    }
    for (let k = 0; k < 4; k++) {
      const victim = this.bodies.rkeys().next();
      if (victim.done === true) return false;
      const entry = this.bodies.peek(victim.value);
      if (entry !== undefined && entry.page.hits >= hits) return false;
      this.bodies.delete(victim.value);
      if (this.hasRoom(size)) return true;
    }
    return false;
  }
}
