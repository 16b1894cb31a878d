// GET /api/rtp/list: validates the query, asks the engine, shapes the response bytes, caches them.
import { createHash, hash } from 'node:crypto';
import { CACHE_LIST } from '../routes/routes.ts';
import type { ListQuery } from '../schemas/list.ts';
import type { ListEngine, ListResult } from './engine.ts';
import { invalidQuery, jsonOk, type HandlerResult } from './http.ts';
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
  /** Whole responses kept, keyed by the normalised query (a query is cached when seen a second time). */
  cacheEntries?: number;
  /** Bound on the bytes of cached responses. */
  cacheBytes?: number;
}

/** Bytes of query keys remembered for cache admission before the set starts afresh. */
export const DOORKEEPER_BYTES = 1024 * 1024;
/** Bytes of raw query strings (and their keys) remembered for cached responses. */
export const RAW_KEYS_BYTES = 2 * 1024 * 1024;
/** Per cached response, beyond its body and key: the result object and its header arrays. */
const RESULT_OVERHEAD = 512;

export type ListHandler = (input: QueryInput) => HandlerResult;

/** Creates the list route's handler over an engine, with a response cache (one data version per engine). */
export function createListHandler(engine: ListEngine, options: ListHandlerOptions = {}): ListHandler {
  const cache = byteLru<HandlerResult>(options.cacheBytes ?? 64 * 1024 * 1024, options.cacheEntries ?? 4096, (r, key) => r.body.length + stringBytes(key) + RESULT_OVERHEAD);
  // Admission on the second sighting: a stream of one-off queries (a crawler paging through)
  // then evicts nothing useful and leaves little for the garbage collector to promote.
  // Keys seen once (a map with empty values: the same byte bound as the raw-key memo).
  const seenOnce = new ByteBoundedMap(DOORKEEPER_BYTES);
  const prefix = metaPrefix(engine);
  listFormat(engine); // made once, before the first request
  // Query strings exactly as received, for responses in the cache: a repeated request skips the
  // parsing. Bounded by bytes; starts afresh when full (entries whose response left are misses).
  const keyOfRaw = new ByteBoundedMap(RAW_KEYS_BYTES);
  const remember = (raw: string | null, key: string) => {
    if (raw !== null) keyOfRaw.set(raw, key);
  };
  return (input) => {
    const raw = typeof input === 'string' ? input : null;
    if (raw !== null) {
      const known = keyOfRaw.get(raw);
      const hit = known === undefined ? undefined : cache.get(known);
      if (hit !== undefined) return hit;
    }
    const parsed = parseListQuery(input);
    if (!parsed.ok) return invalidQuery(parsed.errors);
    const key = listQueryKey(parsed.query);
    let result = cache.get(key);
    if (result !== undefined) {
      remember(raw, key);
      return result;
    }
    result = jsonOk(listBody(engine, parsed.query, engine.run(parsed.query), prefix), CACHE_LIST, listEtag(engine, key));
    if (seenOnce.delete(key)) {
      cache.set(key, result);
      remember(raw, key);
    } else {
      seenOnce.set(key, '');
    }
    return result;
  };
}
