// GET /api/rtp/list?slugs=a,b,c: the records of up to 200 named games in the order given, the
// unknown ones named in meta.missing, a slug merged into another record answered with the survivor's
// and named in meta.moved; `slugs` cannot be combined with the list's other parameters.

import { CACHE_LIST } from '../routes/response-headers.ts';
import { BATCH_MAX } from '../schemas/batch.ts';
import type { ListEngine } from './engine.ts';
import { type HandlerResult, invalidQuery, jsonOk } from './handler-result.ts';
import { collectParams, type ParamError, type QueryInput, single } from './params.ts';
import { LIST_PARAMS } from './query.ts';
import { recordsBody } from './records-body.ts';

/** The list route's parameters that a batch cannot take (updated_since: the delta sync, sync.ts). */
const EXCLUDED = [...LIST_PARAMS, 'updated_since'];
export const MSG_SLUGS_COMBINED = `cannot be combined with ${EXCLUDED.join(', ')}`;
export const MSG_SLUGS_FORMAT = `must be 1 to ${BATCH_MAX} slugs separated by commas (lowercase letters, digits and hyphens)`;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const NAMES = ['slugs', ...EXCLUDED];

/** Whether a query string may name `slugs` (a cheap test before parsing). */
export function mayBeBatch(input: QueryInput): boolean {
  return typeof input !== 'string' || input.includes('slugs');
}

/**
 * The slugs of a batch lookup, in the order given (repeats dropped), or the errors; null when the
 * query names no slugs (an empty `slugs=` counts as absent, like every other parameter).
 */
export function parseBatch(input: QueryInput): { ok: true; slugs: string[] } | { ok: false; errors: ParamError[] } | null {
  const values = collectParams(input, NAMES);
  const errors: ParamError[] = [];
  const raw = single(values, 'slugs', errors);
  if (raw === null && errors.length === 0) return null;
  if (EXCLUDED.some((p) => (values.get(p) ?? []).some((v) => v !== ''))) errors.push({ param: 'slugs', message: MSG_SLUGS_COMBINED });
  if (raw !== null) {
    const slugs = [...new Set(raw.split(','))];
    if (slugs.length > BATCH_MAX || slugs.some((s) => !SLUG.test(s) || s.length > 200)) errors.push({ param: 'slugs', message: MSG_SLUGS_FORMAT });
    if (errors.length === 0) return { ok: true, slugs };
  }
  return { ok: false, errors };
}

/** A named slug merged into another record, and the survivor whose record answers it. */
export interface MovedSlug {
  slug: string;
  merged_into: string;
}

/**
 * The record indexes of the named slugs, in the order given, each record once: a slug merged into
 * another record (`survivors`, src/routes/moved.ts `mergedSlugs`) stands for the survivor's and is
 * named in `moved`; the slugs the registry does not have are in `missing`.
 */
export function batchIndexes(
  engine: ListEngine,
  slugs: readonly string[],
  survivors: ReadonlyMap<string, string> = new Map(),
): { found: number[]; missing: string[]; moved: MovedSlug[] } {
  const found: number[] = [];
  const missing: string[] = [];
  const moved: MovedSlug[] = [];
  const seen = new Set<number>();
  for (const slug of slugs) {
    const into = survivors.get(slug);
    const i = engine.indexOfSlug(into ?? slug);
    if (i < 0) {
      missing.push(slug);
      continue;
    }
    if (into !== undefined) moved.push({ slug, merged_into: into });
    if (seen.has(i)) continue;
    seen.add(i);
    found.push(i);
  }
  return { found, missing, moved };
}

/** The batch response's bytes: meta, then the found records copied from the engine. */
export function batchAnswer(engine: ListEngine, slugs: readonly string[], survivors?: ReadonlyMap<string, string>): HandlerResult {
  const { found, missing, moved } = batchIndexes(engine, slugs, survivors);
  const meta = { data_version: engine.dataVersion, frozen_at: engine.frozenAt, total: engine.total, found: found.length, missing, moved, query: { slugs } };
  return jsonOk(recordsBody(engine, meta, found), CACHE_LIST);
}

/** Answers a batch lookup, or null when the query is not one (the list handler answers it then). */
export function answerBatch(engine: ListEngine, input: QueryInput, survivors?: ReadonlyMap<string, string>): HandlerResult | null {
  if (!mayBeBatch(input)) return null;
  const parsed = parseBatch(input);
  if (parsed === null) return null;
  return parsed.ok ? batchAnswer(engine, parsed.slugs, survivors) : invalidQuery(parsed.errors);
}
