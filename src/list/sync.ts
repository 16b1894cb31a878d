// GET /api/rtp/list?updated_since=<ISO 8601>: the records whose published figures changed after that
// moment (a freeze after it recorded a change), oldest change first, each with `updated_at`; paged
// by limit and offset. With GET /api/rtp/removed (the tombstones) a mirror stays exact.
import { CACHE_LIST } from '../routes/response-headers.ts';
import type { HistoryEntry } from '../schemas/authoring.ts';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_LIMIT_MIN, LIST_OFFSET_MAX } from '../schemas/list.ts';
import type { ListEngine } from './engine.ts';
import { type HandlerResult, invalidQuery, jsonOk } from './handler-result.ts';
import { MSG_SINCE, parseSince } from './history.ts';
import { collectParams, integer, type ParamError, type QueryInput, single } from './params.ts';
import { LIST_PARAMS } from './query.ts';
import { recordsBody } from './records-body.ts';

const OTHERS = LIST_PARAMS.filter((p) => p !== 'limit' && p !== 'offset');
export const MSG_SYNC_COMBINED = `cannot be combined with ${[...OTHERS, 'slugs'].join(', ')}`;

/**
 * Per record index, when its published figures last changed (epoch ms): the last freeze that
 * recorded a change of the game, or the registry's own freeze for a game the log does not name yet.
 */
export function updatedAtOf(engine: ListEngine, history: readonly HistoryEntry[]): Float64Array {
  const out = new Float64Array(engine.total).fill(Number.NaN);
  for (const e of history) {
    const i = engine.indexOfSlug(e.slug);
    if (i >= 0) out[i] = Math.max(Number.isNaN(out[i]!) ? -Infinity : out[i]!, Date.parse(e.frozen_at));
  }
  const frozen = Date.parse(engine.frozenAt);
  for (let i = 0; i < out.length; i++) if (Number.isNaN(out[i]!)) out[i] = frozen;
  return out;
}

/** A delta sync page: its meta, record indexes and each one's `updated_at` field; or the rejected parameters. */
export type SyncPage = { ok: true; meta: unknown; items: number[]; stamp: (index: number) => string } | { ok: false; errors: ParamError[] };

/** Creates the sync answerer; it returns null for queries without `updated_since` (the list answers those). */
export function createSyncAnswer(engine: ListEngine, history: readonly HistoryEntry[]): (input: QueryInput) => HandlerResult | null {
  const pages = createSyncPages(engine, history);
  return (input) => {
    const page = pages(input);
    if (page === null) return null;
    return page.ok ? jsonOk(recordsBody(engine, page.meta, page.items, page.stamp), CACHE_LIST) : invalidQuery(page.errors);
  };
}

/** Creates the sync pager (the records of a query, before they are written as JSON or CSV); null for queries without `updated_since`. */
export function createSyncPages(engine: ListEngine, history: readonly HistoryEntry[]): (input: QueryInput) => SyncPage | null {
  let updated: Float64Array | undefined;
  /** Record indexes by last change, then index (the records are in slug order): the answers' order. */
  let order: Int32Array | undefined;
  const prepare = () => {
    updated = updatedAtOf(engine, history);
    const idx = Array.from({ length: engine.total }, (_, i) => i);
    idx.sort((a, b) => updated![a]! - updated![b]! || a - b);
    order = Int32Array.from(idx);
  };
  return (input) => {
    if (typeof input === 'string' && !input.includes('updated_since')) return null;
    const values = collectParams(input, ['updated_since', 'slugs', ...LIST_PARAMS]);
    const errors: ParamError[] = [];
    const raw = single(values, 'updated_since', errors);
    if (raw === null && errors.length === 0) return null;
    if ([...OTHERS, 'slugs'].some((p) => (values.get(p) ?? []).some((v) => v !== ''))) errors.push({ param: 'updated_since', message: MSG_SYNC_COMBINED });
    const sinceMs = raw === null ? null : parseSince(raw.trim());
    if (raw !== null && sinceMs === null) errors.push({ param: 'updated_since', message: MSG_SINCE });
    const limit = integer(values, 'limit', errors, { min: LIST_LIMIT_MIN, max: LIST_LIMIT_MAX, fallback: LIST_LIMIT_DEFAULT });
    const offset = integer(values, 'offset', errors, { min: 0, max: LIST_OFFSET_MAX, fallback: 0 });
    if (errors.length > 0 || sinceMs === null) return { ok: false, errors };
    if (order === undefined) prepare();
    // First record changed strictly after the moment (binary search over the ordered times).
    let lo = 0;
    let hi = order!.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (updated![order![mid]!]! > sinceMs) hi = mid;
      else lo = mid + 1;
    }
    const filtered = order!.length - lo;
    const from = lo + Math.min(offset, filtered);
    const to = Math.min(order!.length, from + limit);
    const query = { updated_since: new Date(sinceMs).toISOString(), limit, offset };
    const meta = {
      data_version: engine.dataVersion,
      frozen_at: engine.frozenAt,
      total: engine.total,
      filtered,
      has_more: offset + (to - from) < filtered,
      query,
    };
    const items = Array.from(order!.subarray(from, to));
    const stamp = (i: number) => `,"updated_at":"${new Date(updated![i]!).toISOString().replace('.000Z', 'Z')}"`;
    return { ok: true, meta, items, stamp };
  };
}
