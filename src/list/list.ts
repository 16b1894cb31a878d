// GET /api/rtp/list: validates the query, asks the engine, shapes the response bytes, caches them.
import { CACHE_LIST } from '../routes.ts';
import type { ListQuery } from '../schemas/list.ts';
import type { ListEngine, ListResult } from './engine.ts';
import { invalidQuery, jsonOk, type HandlerResult } from './http.ts';
import { Lru } from './lru.ts';
import type { QueryInput } from './params.ts';
import { listQueryKey, parseListQuery } from './query.ts';

const ITEMS_OPEN = Buffer.from(',"items":[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/**
 * The response bytes for an evaluated query: exactly `JSON.stringify({meta, facets, items})` with
 * keys in schema order, assembled from the engine's pre-encoded records.
 */
export function listBody(engine: ListEngine, query: ListQuery, result: ListResult): Buffer {
  const count = result.items.length;
  const meta = {
    data_version: engine.dataVersion,
    frozen_at: engine.frozenAt,
    total: engine.total,
    filtered: result.filtered,
    has_more: query.offset + count < result.filtered,
    query,
  };
  const parts: Uint8Array[] = [Buffer.from(`{"meta":${JSON.stringify(meta)},"facets":${JSON.stringify(result.facets)}`), ITEMS_OPEN];
  for (let k = 0; k < count; k++) {
    if (k > 0) parts.push(COMMA);
    parts.push(engine.recordJson(result.items[k]!));
  }
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

export interface ListHandlerOptions {
  /** Whole responses kept, keyed by the normalised query (a query is cached when seen a second time). */
  cacheEntries?: number;
  /** Bound on the bytes of cached responses. */
  cacheBytes?: number;
}

/** Query keys remembered for cache admission before the set starts afresh. */
const DOORKEEPER_SIZE = 8192;

export type ListHandler = (input: QueryInput) => HandlerResult;

/** Creates the list route's handler over an engine, with a response cache (one data version per engine). */
export function createListHandler(engine: ListEngine, options: ListHandlerOptions = {}): ListHandler {
  const cache = new Lru<string, HandlerResult>({
    maxEntries: options.cacheEntries ?? 4096,
    maxWeight: options.cacheBytes ?? 64 * 1024 * 1024,
    weigh: (r) => r.body.length + 256,
  });
  // Admission on the second sighting: a stream of one-off queries (a crawler paging through)
  // then evicts nothing useful and leaves little for the garbage collector to promote.
  const seenOnce = new Set<string>();
  return (input) => {
    const parsed = parseListQuery(input);
    if (!parsed.ok) return invalidQuery(parsed.errors);
    const key = listQueryKey(parsed.query);
    let result = cache.get(key);
    if (result === undefined) {
      result = jsonOk(listBody(engine, parsed.query, engine.run(parsed.query)), CACHE_LIST);
      if (seenOnce.delete(key)) cache.set(key, result);
      else {
        if (seenOnce.size >= DOORKEEPER_SIZE) seenOnce.clear();
        seenOnce.add(key);
      }
    }
    return result;
  };
}
