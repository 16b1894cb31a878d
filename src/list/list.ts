// GET /api/rtp/list: validates the query, asks the engine, shapes the response bytes, caches them.
import { createHash, hash } from 'node:crypto';
import { CACHE_LIST } from '../routes/routes.ts';
import type { ListQuery } from '../schemas/list.ts';
import type { ListEngine, ListResult } from './engine.ts';
import { invalidQuery, jsonOk, type HandlerResult } from './http.ts';
import { LRUCache } from 'lru-cache';
import { byteLru, ByteBoundedMap, stringBytes } from '../lib/bounded.ts';
import type { QueryInput } from './params.ts';
import { listQueryKey, parseListQuery } from './query.ts';

/**
 * Queries whose answers stand for how list bodies are written: meta, facets, records, a filtered
 * walk, a search in relevance order. Their bytes make the format id of an engine's bodies.
 */
const FORMAT_PROBES = ['limit=2', 'q=a&sort=relevance&limit=3', 'has_variants=1&sort=recent&offset=1&limit=2'];
const formats = new WeakMap<ListEngine, string>();

/**
 * The format id of `engine`'s list bodies: a hash of the answers to FORMAT_PROBES. Any change to
 * how bodies are written (listBody, the engine's facets, record encoding or orders) changes it,
 * with nothing to bump by hand; it is part of every list ETag, so a client holding a body of the
 * old format never gets a 304 for it.
 */
export function listFormat(engine: ListEngine): string {
  let id = formats.get(engine);
  if (id === undefined) {
    const h = createHash('sha256');
    for (const probe of FORMAT_PROBES) {
      const parsed = parseListQuery(probe);
      if (!parsed.ok) throw new Error(`list format probe "${probe}" is not a valid query`);
      h.update(listBody(engine, parsed.query, engine.run(parsed.query))).update('\n');
    }
    id = h.digest('hex').slice(0, 16);
    formats.set(engine, id);
  }
  return id;
}

/**
 * The list route's strong ETag: the first 128 bits of the SHA-256 of the format, the engine's
 * content id and the normalised query key. The body is a function of exactly these, so equal tags
 * mean equal bytes (RFC 9110 §8.8.3), at a fraction of hashing the body itself.
 */
export function listEtag(engine: ListEngine, key: string): string {
  return `"${hash('sha256', `${listFormat(engine)}\n${engine.contentId}\n${key}`, 'hex').slice(0, 32)}"`;
}

const COMMA = 0x2c;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const ITEMS_OPEN = Buffer.from(',"items":[');
let headScratch = Buffer.allocUnsafeSlow(64 * 1024);


/** The start of every body of `engine`: `{"meta":{` and the fields that never change, up to `"filtered":`. */
export function metaPrefix(engine: ListEngine): string {
  return `{"meta":{"data_version":${JSON.stringify(engine.dataVersion)},"frozen_at":${JSON.stringify(engine.frozenAt)},"total":${engine.total},"filtered":`;
}

/**
 * The response bytes for an evaluated query: exactly `JSON.stringify({meta, facets, items})` with
 * keys in schema order, assembled in one buffer from the engine's pre-encoded facets and records.
 * `prefix` is `metaPrefix(engine)` (callers answering many queries compute it once).
 */
export function listBody(engine: ListEngine, query: ListQuery, result: ListResult, prefix: string = metaPrefix(engine)): Buffer {
  const { items, filtered } = result;
  const count = items.length;
  const metaText = `${prefix}${filtered},"has_more":${query.offset + count < filtered},"query":${JSON.stringify(query)}},"facets":`;
  // The head (meta, facets, the items' opening) is written into a scratch buffer first, which
  // gives its length; the body is then allocated once at its exact size.
  const need = metaText.length * 3 + result.maxFacetsBytes + ITEMS_OPEN.length;
  if (need > headScratch.length) headScratch = Buffer.allocUnsafeSlow(need);
  let at = headScratch.write(metaText, 0, 'utf8');
  at = result.writeFacets(headScratch, at);
  at += ITEMS_OPEN.copy(headScratch, at);
  const headBytes = at;
  let size = headBytes + 2 + Math.max(0, count - 1);
  for (let k = 0; k < count; k++) size += engine.recordLength(items[k]!);
  const out = Buffer.allocUnsafe(size);
  at = headScratch.copy(out, 0, 0, headBytes);
  for (let k = 0; k < count; k++) {
    if (k > 0) out[at++] = COMMA;
    at = engine.copyRecord(items[k]!, out, at);
  }
  out[at++] = CLOSE_ARRAY;
  out[at] = CLOSE_OBJECT;
  return out;
}

export interface ListHandlerOptions {
  /** Whole responses kept (see createListHandler). */
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

export type ListHandler = (input: QueryInput) => HandlerResult;

/** A query answered once: enough to write its body again without the engine. */
interface CachedPage {
  /** Requests answered from this page or its whole response: the query's popularity. */
  hits: number;
  query: ListQuery;
  filtered: number;
  items: Int32Array;
  facets: Uint8Array;
  etag: string;
}

/** An evaluated result as a page: the record indexes copied, the facets' JSON written once. */
function toPage(query: ListQuery, result: ListResult, etag: string): CachedPage {
  const scratch = Buffer.allocUnsafe(result.maxFacetsBytes);
  const end = result.writeFacets(scratch, 0);
  return { hits: 0, query, filtered: result.filtered, items: Int32Array.from(result.items), facets: Uint8Array.prototype.slice.call(scratch, 0, end), etag };
}

/** A cached page as the engine's result, for listBody. */
function pageResult(page: CachedPage): ListResult {
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
 * Creates the list route's handler over an engine (one data version per engine), with two caches
 * that only ever save work, whatever the traffic:
 * - evaluated pages (record indexes and facets, a few KB each), kept from a query's second request
 *   on, so a one-off query costs no cache churn; a hit writes the body from the pre-encoded records
 *   without asking the engine;
 * - whole responses, admitted while there is room, or in place of the least recently used one only
 *   when the newcomer has been asked more often (frequency-based admission, as in TinyLFU): a cycle
 *   of more queries than fit is answered from the pages instead of thrashing, while a query asked
 *   again and again gets in at once. Each leaves after `cacheTtlMs`, so popularity is recent.
 */
export function createListHandler(engine: ListEngine, options: ListHandlerOptions = {}): ListHandler {
  const bodies = new LRUCache<string, CachedBody>({
    max: options.cacheEntries ?? 4096,
    maxSize: Math.max(1, options.cacheBytes ?? 64 * 1024 * 1024),
    sizeCalculation: (b, key) => b.result.body.length + stringBytes(key) + RESULT_OVERHEAD,
    ttl: options.cacheTtlMs ?? 60_000,
    // Read the clock on each access instead of caching it behind a timer per access.
    ttlResolution: 0,
  });
  const bodyRoom = bodies.maxSize;
  const hasRoom = (size: number) => bodies.size < bodies.max && bodies.calculatedSize + size <= bodyRoom;
  let purgedAt = 0;
  /**
   * Makes room for a body of `size` bytes from a page asked `hits` times: expired entries go first
   * (purged at most once a second), then least recently used ones asked less often, at most four.
   */
  const makeRoom = (size: number, hits: number): boolean => {
    if (hasRoom(size)) return true;
    const now = performance.now();
    if (now - purgedAt >= 1000) {
      purgedAt = now;
      bodies.purgeStale();
      if (hasRoom(size)) return true;
    }
    for (let k = 0; k < 4; k++) {
      const victim = bodies.rkeys().next();
      if (victim.done === true) return false;
      const entry = bodies.peek(victim.value);
      if (entry !== undefined && entry.page.hits >= hits) return false;
      bodies.delete(victim.value);
      if (hasRoom(size)) return true;
    }
    return false;
  };
  // At most as many entries as the smallest pages could fill (lru-cache allocates its arrays by entry count).
  const pages = byteLru<CachedPage>(options.pageCacheBytes ?? PAGE_CACHE_BYTES, 1 << 14, (pg, key) => pg.items.byteLength + pg.facets.byteLength + stringBytes(key) + RESULT_OVERHEAD);
  // Admission on the second sighting: a stream of one-off queries (a crawler paging through)
  // then evicts nothing useful and leaves little for the garbage collector to promote.
  // Keys seen once (a map with empty values: the same byte bound as the raw-key memo).
  const seenOnce = new ByteBoundedMap(DOORKEEPER_BYTES);
  const prefix = metaPrefix(engine);
  listFormat(engine); // made once, before the first request
  // Query strings exactly as received, for cached pages: a repeated request skips the parsing.
  // Bounded by bytes; starts afresh when full (entries whose page left are misses).
  const keyOfRaw = new ByteBoundedMap(RAW_KEYS_BYTES);
  /** The response of a cached page, kept whole when there is room. */
  const answer = (key: string, page: CachedPage): HandlerResult => {
    page.hits++;
    const result = jsonOk(listBody(engine, page.query, pageResult(page), prefix), CACHE_LIST, page.etag);
    if (makeRoom(result.body.length + stringBytes(key) + RESULT_OVERHEAD, page.hits)) bodies.set(key, { result, page });
    return result;
  };
  return (input) => {
    const raw = typeof input === 'string' ? input : null;
    if (raw !== null) {
      const known = keyOfRaw.get(raw);
      if (known !== undefined) {
        const hit = bodies.get(known);
        if (hit !== undefined) {
          hit.page.hits++;
          return hit.result;
        }
        const page = pages.get(known);
        if (page !== undefined) return answer(known, page);
      }
    }
    const parsed = parseListQuery(input);
    if (!parsed.ok) return invalidQuery(parsed.errors);
    const key = listQueryKey(parsed.query);
    const hit = bodies.get(key);
    if (hit !== undefined) {
      hit.page.hits++;
      if (raw !== null) keyOfRaw.set(raw, key);
      return hit.result;
    }
    let page = pages.get(key);
    if (page === undefined) {
      const result = engine.run(parsed.query);
      const etag = listEtag(engine, key);
      if (!seenOnce.delete(key)) {
        seenOnce.set(key, '');
        return jsonOk(listBody(engine, parsed.query, result, prefix), CACHE_LIST, etag);
      }
      page = toPage(parsed.query, result, etag);
      pages.set(key, page);
    }
    if (raw !== null) keyOfRaw.set(raw, key);
    return answer(key, page);
  };
}
