// The list route's caches, which only ever save work whatever the traffic: evaluated pages (record
// indexes and facets, a few KB each) from a query's second request on, and whole responses by
// frequency-based admission. Every map is bounded by bytes (docs/security.md).
import { LRUCache } from 'lru-cache';
import { byteLru, ByteBoundedMap, stringBytes } from '../lib/bounded.ts';
import type { ListQuery } from '../schemas/list.ts';
import type { ListResult } from './engine.ts';
import type { HandlerResult } from './http.ts';

export interface ListCacheOptions {
  /** Whole responses kept (see ListCache). */
  cacheEntries?: number;
  /** Bound on the bytes of whole responses kept. */
  cacheBytes?: number;
  /** Bound on the bytes of evaluated pages kept (their record indexes and facets, not the records). */
  pageCacheBytes?: number;
  /** How long a whole response stays in the cache, ms (then its room goes to the next query asked twice). */
  cacheTtlMs?: number;
}

/** Bytes of query keys remembered for cache admission before the set starts afresh. */
export const DOORKEEPER_BYTES = 1024 * 1024;
/** Bytes of raw query strings (and their keys) remembered for cached pages. */
export const RAW_KEYS_BYTES = 2 * 1024 * 1024;
/** Default bound of the evaluated-page cache: at 50k games some 3,000 pages of 50 with their facets. */
export const PAGE_CACHE_BYTES = 8 * 1024 * 1024;
/** Per cached response or page, beyond its bytes and key: the objects and their header arrays. */
const RESULT_OVERHEAD = 512;

/** A query answered once: enough to write its body again without the engine. */
export interface CachedPage {
  /** Requests answered from this page or its whole response: the query's popularity. */
  hits: number;
  query: ListQuery;
  filtered: number;
  items: Int32Array;
  facets: Uint8Array;
  etag: string;
}

/** An evaluated result as a page: the record indexes copied, the facets' JSON written once. */
export function toPage(query: ListQuery, result: ListResult, etag: string): CachedPage {
  const scratch = Buffer.allocUnsafe(result.maxFacetsBytes);
  const end = result.writeFacets(scratch, 0);
  return { hits: 0, query, filtered: result.filtered, items: Int32Array.from(result.items), facets: Uint8Array.prototype.slice.call(scratch, 0, end), etag };
}

/** A cached page as the engine's result, for listBody. */
export function pageResult(page: CachedPage): ListResult {
  return {
    filtered: page.filtered,
    items: page.items,
    maxFacetsBytes: page.facets.length,
    writeFacets: (target, at) => {
      target.set(page.facets, at);
      return at + page.facets.length;
    },
    get facetsJson() {
      return Buffer.from(page.facets).toString('utf8');
    },
    get facets() {
      return JSON.parse(Buffer.from(page.facets).toString('utf8')) as ListResult['facets'];
    },
  };
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
  private readonly pages: ReturnType<typeof byteLru<CachedPage>>;
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
    // At most as many entries as the smallest pages could fill (lru-cache allocates its arrays by entry count).
    this.pages = byteLru<CachedPage>(options.pageCacheBytes ?? PAGE_CACHE_BYTES, 1 << 14, (pg, key) => pg.items.byteLength + pg.facets.byteLength + stringBytes(key) + RESULT_OVERHEAD);
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

  /** The page kept for `key`. */
  page(key: string): CachedPage | undefined {
    return this.pages.get(key);
  }

  /** Whether `key` is seen for the second time (its page is then worth keeping); remembers a first sighting. */
  secondSighting(key: string): boolean {
    if (this.seenOnce.delete(key)) return true;
    this.seenOnce.set(key, '');
    return false;
  }

  /** Keeps the page of `key`. */
  addPage(key: string, page: CachedPage): void {
    this.pages.set(key, page);
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
