// GET /api/rtp/history: the bundle's change log, newest first, filtered by slug, provider and since.

import { byteLru, stringBytes } from '../lib/bounded.ts';
import { POLICIES } from '../routes/routes.ts';
import { type HistoryEntry, type RegistryFile, TimestampSchema } from '../schemas/authoring.ts';
import { HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX, HISTORY_LIMIT_MIN, HISTORY_OFFSET_MAX, type HistoryItem, type HistoryQuery } from '../schemas/history.ts';
import { type HandlerResult, invalidQuery, jsonOk } from './handler-result.ts';
import { collectParams, integer, type ParamError, type QueryInput, single, text } from './params.ts';
import type { ParseResult } from './query.ts';

export const HISTORY_PARAMS = ['slug', 'provider', 'since', 'limit', 'offset'] as const;
/** Bytes of history responses kept (bodies, keys and their result objects). */
export const HISTORY_CACHE_BYTES = 4 * 1024 * 1024;

export const MSG_SINCE = 'must be an ISO 8601 date (2026-01-31) or timestamp with a time zone (2026-01-31T12:00:00Z)';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `since` as epoch milliseconds: a calendar date means its midnight UTC. Null when malformed. */
export function parseSince(value: string): number | null {
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    // Date.parse accepts 2026-02-31 as March 3rd; require the date to round-trip.
    return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value ? null : ms;
  }
  if (!TimestampSchema.safeParse(value).success) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Reads slug, provider, since, limit and offset (others ignored) into the normalised history query. */
export function parseHistoryQuery(input: QueryInput): ParseResult<HistoryQuery> {
  const values = collectParams(input, HISTORY_PARAMS);
  const errors: ParamError[] = [];
  const slug = text(values, 'slug', errors);
  const provider = text(values, 'provider', errors);
  const sinceRaw = single(values, 'since', errors);
  let since: string | null = null;
  if (sinceRaw !== null) {
    const ms = parseSince(sinceRaw.trim());
    if (ms === null) errors.push({ param: 'since', message: MSG_SINCE });
    else since = new Date(ms).toISOString();
  }
  const limit = integer(values, 'limit', errors, { min: HISTORY_LIMIT_MIN, max: HISTORY_LIMIT_MAX, fallback: HISTORY_LIMIT_DEFAULT });
  const offset = integer(values, 'offset', errors, { min: 0, max: HISTORY_OFFSET_MAX, fallback: 0 });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, query: { slug, provider, since, limit, offset } };
}

export type HistoryHandler = (input: QueryInput) => HandlerResult;

/**
 * Creates the history handler over the bundle's log. Order: newest `frozen_at` first; entries of
 * one freeze keep the reverse of their file order (the log is append-only, so later lines first).
 */
export function createHistoryHandler(meta: RegistryFile, history: readonly HistoryEntry[]): HistoryHandler {
  const entries = history.map((e, line) => ({ line, at: Date.parse(e.frozen_at), entry: e }));
  entries.sort((a, b) => b.at - a.at || b.line - a.line);
  const items: HistoryItem[] = entries.map(({ entry: e }) => ({
    data_version: e.data_version,
    frozen_at: e.frozen_at,
    slug: e.slug,
    provider: e.provider,
    field: e.field,
    from: e.from,
    to: e.to,
    merged_into: e.merged_into ?? null,
  }));
  const at = Float64Array.from(entries, (e) => e.at);
  const encoded = items.map((item) => JSON.stringify(item));
  const cache = byteLru<HandlerResult>(HISTORY_CACHE_BYTES, 512, (r, key) => r.body.length + stringBytes(key) + 512);
  const cacheControl = POLICIES.history.cacheControl;

  return (input) => {
    const parsed = parseHistoryQuery(input);
    if (!parsed.ok) return invalidQuery(parsed.errors);
    const query = parsed.query;
    const key = JSON.stringify(query);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;

    const sinceMs = query.since === null ? null : Date.parse(query.since);
    const page: string[] = [];
    let filtered = 0;
    for (let k = 0; k < items.length; k++) {
      // Newest first, so the first entry older than `since` ends the matches.
      if (sinceMs !== null && at[k]! < sinceMs) break;
      const item = items[k]!;
      if (query.slug !== null && item.slug !== query.slug) continue;
      if (query.provider !== null && item.provider !== query.provider) continue;
      if (filtered >= query.offset && page.length < query.limit) page.push(encoded[k]!);
      filtered++;
    }
    const body = Buffer.from(
      `{"meta":${JSON.stringify({
        data_version: meta.data_version,
        frozen_at: meta.frozen_at,
        total: items.length,
        filtered,
        has_more: query.offset + page.length < filtered,
        query,
      })},"items":[${page.join(',')}]}`,
    );
    const result = jsonOk(body, cacheControl);
    cache.set(key, result);
    return result;
  };
}
