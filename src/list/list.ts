// GET /api/rtp/list: validates the query, asks the engine, shapes the response bytes, caches them.
import { createHash, hash } from 'node:crypto';
import { BodyPool } from '../lib/body-pool.ts';
import { CACHE_LIST } from '../routes/response-headers.ts';
import type { HistoryEntry } from '../schemas/authoring.ts';
import type { ListFormat, ListQuery } from '../schemas/list.ts';
import { answerBatch, batchIndexes, mayBeBatch, parseBatch } from './batch.ts';
import { csvAnswer, csvColumns, mayNameFormat, parseFormat } from './csv.ts';
import type { ListEngine, ListResult } from './engine.ts';
import { type HandlerResult, invalidQuery, jsonOk } from './handler-result.ts';
import { type CachedPage, ListCache, type ListCacheOptions, pageResult } from './list-cache.ts';
import type { ParamError, QueryInput } from './params.ts';
import { listQueryKey, parseListQuery } from './query.ts';
import { itemWriter } from './shape.ts';
import { createSyncAnswer, createSyncPages } from './sync.ts';

/**
 * Queries whose answers stand for how list bodies are written: meta, facets, records, a filtered
 * walk, a search in relevance order. Their bytes make the format id of an engine's bodies.
 */
const FORMAT_PROBES = [
  'limit=2',
  'q=a&sort=relevance&limit=3',
  'has_variants=1&sort=recent&offset=1&limit=2',
  'limit=2&include=sources',
  'limit=1&include=all',
  'limit=2&fields=canonical_slug,stated_rtp',
];
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

/** The start of every body of `engine`: `{"meta":{` and the fields that never change, up to `"filtered":`. */
export function metaPrefix(engine: ListEngine): string {
  return `{"meta":{"data_version":${JSON.stringify(engine.dataVersion)},"frozen_at":${JSON.stringify(engine.frozenAt)},"total":${engine.total},"filtered":`;
}

/** Free list-answer bodies kept for reuse, at most (docs/security.md). */
export const LIST_BODY_POOL_BYTES = 4 * 1024 * 1024;

/**
 * The bodies of list answers, shared by every list handler of the process: the server gives each
 * back (`give`) once its socket has written it (src/lib/body-pool.ts says why).
 */
export const listBodies = new BodyPool(LIST_BODY_POOL_BYTES);

const allocate = (size: number): Buffer => Buffer.allocUnsafe(size);
const fromPool = (size: number): Buffer => listBodies.take(size);

/**
 * The response bytes for an evaluated query: exactly `JSON.stringify({meta, facets, items})` with
 * keys in schema order, assembled in one buffer from the engine's pre-encoded facets and items (or
 * records cut to the query's `include=` / `fields=`, shape.ts).
 * `prefix` is `metaPrefix(engine)` (callers answering many queries compute it once); `alloc` makes
 * the buffer, of which the body is a view.
 */
export function listBody(
  engine: ListEngine,
  query: ListQuery,
  result: ListResult,
  prefix: string = metaPrefix(engine),
  alloc: (size: number) => Buffer = allocate,
): Buffer {
  const { items, filtered } = result;
  const count = items.length;
  const metaText = `${prefix}${filtered},"has_more":${query.offset + count < filtered},"query":${JSON.stringify(query)}},"facets":`;
  // One buffer at a bound of the body's size (the head's text at 3 bytes a code unit, the facets'
  // bound, the records); the body is the part written. Writing the head into a scratch buffer
  // first, to allocate the exact size, cost a copy and saved nothing (docs/architecture.md).
  const writer = itemWriter(engine, query, items);
  let size = metaText.length * 3 + result.maxFacetsBytes + ITEMS_OPEN.length + 2 + Math.max(0, count - 1);
  for (let k = 0; k < count; k++) size += writer.length(k);
  const out = alloc(size);
  let at = out.write(metaText, 0, 'utf8');
  at = result.writeFacets(out, at);
  at += ITEMS_OPEN.copy(out, at);
  for (let k = 0; k < count; k++) {
    if (k > 0) out[at++] = COMMA;
    at = writer.copy(k, out, at);
  }
  out[at++] = CLOSE_ARRAY;
  out[at++] = CLOSE_OBJECT;
  return out.subarray(0, at);
}

export type ListHandlerOptions = ListCacheOptions;

export type ListHandler = (input: QueryInput) => HandlerResult;

/**
 * Creates the list route's handler over an engine (one data version per engine), with its caches
 * (list-cache.ts); `survivors`: the surviving slug of each merged slug, which a batch lookup follows.
 */
export function createListHandler(
  engine: ListEngine,
  options: ListHandlerOptions = {},
  history?: readonly HistoryEntry[],
  survivors?: ReadonlyMap<string, string>,
): ListHandler {
  const cache = new ListCache(options);
  // Delta sync (updated_since) needs the history log; without it the parameter is ignored.
  const sync = history === undefined ? undefined : createSyncAnswer(engine, history);
  const syncPages = history === undefined ? undefined : createSyncPages(engine, history);
  /**
   * A query with `format=csv`, or a `format` that is not one: the same records as its JSON answer
   * (a list page, a batch lookup or a delta sync page) as CSV, or every rejected parameter.
   */
  const answerFormat = (input: QueryInput, format: ListFormat, formatErrors: ParamError[]): HandlerResult => {
    let items: ArrayLike<number> = [];
    let errors: ParamError[] = [];
    // With CSV, `fields` names columns; else (a bad `format`) the query's own fields are checked.
    const columnErrors: ParamError[] = [];
    const columns = format === 'csv' ? csvColumns(input, columnErrors) : undefined;
    const batch = mayBeBatch(input) ? parseBatch(input) : null;
    const synced = batch === null ? (syncPages?.(input) ?? null) : null;
    if (batch !== null) {
      if (batch.ok) items = batchIndexes(engine, batch.slugs, survivors).found;
      else errors = batch.errors;
    } else if (synced !== null) {
      if (synced.ok) items = synced.items;
      else errors = synced.errors;
    } else {
      const parsed = parseListQuery(input, { fields: format !== 'csv' });
      if (parsed.ok) items = engine.run(parsed.query).items;
      else errors = parsed.errors;
    }
    errors = errors.concat(columnErrors, formatErrors);
    return errors.length > 0 ? invalidQuery(errors) : csvAnswer(engine, items, columns);
  };
  const prefix = metaPrefix(engine);
  listFormat(engine); // made once, before the first request
  /** The response of a cached page, offered to the cache whole. */
  const answer = (key: string, page: CachedPage, facets: Uint8Array): HandlerResult => {
    page.hits++;
    const result = jsonOk(listBody(engine, page.query, pageResult(page, facets), prefix, fromPool), CACHE_LIST, page.etag);
    // A kept response outlives this request: it gets its own copy, and the pooled body goes back.
    const kept = cache.offer(key, result, page, (body) => Buffer.from(body));
    if (kept === undefined) return result;
    listBodies.give(result.body);
    return kept;
  };
  /** The answer kept for `key`: its whole response, else written from its page and facets. */
  const cached = (key: string): HandlerResult | undefined => {
    const hit = cache.body(key);
    if (hit !== undefined) return hit;
    const page = cache.page(key);
    if (page === undefined) return undefined;
    const facets = cache.facetsOf(page);
    return facets === undefined ? undefined : answer(key, page, facets);
  };
  return (input) => {
    const raw = typeof input === 'string' ? input : null;
    // A query string remembered by the cache is an ordinary list query: the fast path comes first.
    const known = raw === null ? undefined : cache.keyOf(raw);
    if (known !== undefined) {
      const hit = cached(known);
      if (hit !== undefined) return hit;
    }
    if (mayNameFormat(input)) {
      const { format, errors } = parseFormat(input);
      if (format === 'csv' || errors.length > 0) return answerFormat(input, format, errors);
    }
    const batch = answerBatch(engine, input, survivors);
    if (batch !== null) return batch;
    const synced = sync?.(input) ?? null;
    if (synced !== null) return synced;
    const parsed = parseListQuery(input);
    if (!parsed.ok) return invalidQuery(parsed.errors);
    const key = listQueryKey(parsed.query);
    const hit = cached(key);
    if (hit !== undefined) {
      cache.remember(raw, key);
      return hit;
    }
    const result = engine.run(parsed.query);
    const etag = listEtag(engine, key);
    // Kept from a query's second request on, when the cache makes room for it.
    const asked = cache.sighted(key);
    const kept = asked < 2 ? undefined : cache.addPage(key, parsed.query, result, etag, asked);
    if (kept === undefined) return jsonOk(listBody(engine, parsed.query, result, prefix, fromPool), CACHE_LIST, etag);
    cache.remember(raw, key);
    return answer(key, kept.page, kept.facets);
  };
}
