// The list item's shape on GET /api/rtp/list: reading `include=` and `fields=`, and writing each
// page item as the query asks (the default item copied, or the full record cut to its fields).
import type { GameRecord } from '../schemas/game-record.ts';
import { type ListQuery, NAMES_PARAM_MAX } from '../schemas/list.ts';
import { INCLUDE_ALL, itemFields, LIST_INCLUDES, type ListInclude, pickFields, RECORD_FIELDS, type RecordField } from '../schemas/list-item.ts';
import type { ListEngine } from './engine.ts';
import { type ParamError, single } from './params.ts';

/** Unknown names a 400 names, at most; a name is repeated only when it looks like one (a short snake_case word). */
export const UNKNOWN_NAMES_SHOWN = 5;
const NAME_LIKE = /^[a-z][a-z0-9_]{0,39}$/;

export const MSG_NAMES_TOO_LONG = `must be at most ${NAMES_PARAM_MAX} characters`;
export const MSG_INCLUDE_WITH_FIELDS = 'must not be given with fields (fields names every field of the item)';

/**
 * A comma-separated list of names from `allowed` (`all` standing for every one when `all` is
 * true): each once, in `allowed`'s order; null when absent or empty. Unknown names make one error
 * that names them (those that look like a name, at most UNKNOWN_NAMES_SHOWN) and lists `allowed`.
 */
export function namesParam<T extends string>(
  values: Map<string, string[]>,
  name: string,
  errors: ParamError[],
  allowed: readonly T[],
  all = false,
): T[] | null {
  const raw = single(values, name, errors);
  if (raw === null) return null;
  if (raw.length > NAMES_PARAM_MAX) {
    errors.push({ param: name, message: MSG_NAMES_TOO_LONG });
    return null;
  }
  const given = raw.split(',').filter((v) => v !== '');
  if (given.length === 0) return null;
  const unknown = [...new Set(given.filter((v) => !(allowed as readonly string[]).includes(v) && !(all && v === INCLUDE_ALL)))];
  if (unknown.length > 0) {
    const shown = unknown.filter((v) => NAME_LIKE.test(v)).slice(0, UNKNOWN_NAMES_SHOWN);
    const more = unknown.length - shown.length;
    const named = [...shown, ...(more > 0 ? [`${more} other${more === 1 ? '' : 's'}`] : [])].join(', ');
    errors.push({
      param: name,
      message: `unknown name${unknown.length === 1 ? '' : 's'}: ${named}; must be one or more of: ${[...allowed, ...(all ? [INCLUDE_ALL] : [])].join(', ')} (separated by commas)`,
    });
    return null;
  }
  if (all && given.includes(INCLUDE_ALL)) return [...allowed];
  return allowed.filter((v) => given.includes(v));
}

/** `include=` and `fields=` of a list query (record fields), with the rule that they do not go together. */
export function shapeParams(values: Map<string, string[]>, errors: ParamError[]): { include: ListInclude[] | null; fields: RecordField[] | null } {
  const include = namesParam(values, 'include', errors, LIST_INCLUDES, true);
  const fields = namesParam(values, 'fields', errors, RECORD_FIELDS);
  if (include !== null && fields !== null) errors.push({ param: 'include', message: MSG_INCLUDE_WITH_FIELDS });
  return { include, fields };
}

/** Reads record `i` of `engine` as an object (the full record's JSON, parsed). */
export function readRecord(engine: ListEngine, i: number, scratch: { buffer: Buffer }): GameRecord {
  const length = engine.recordLength(i);
  if (length > scratch.buffer.length) scratch.buffer = Buffer.allocUnsafe(length);
  engine.copyRecord(i, scratch.buffer, 0);
  return JSON.parse(scratch.buffer.toString('utf8', 0, length)) as GameRecord;
}

/** How a page's items are written: each item's length, and its copy into the body. */
export interface ItemWriter {
  length(k: number): number;
  copy(k: number, target: Uint8Array, at: number): number;
}

/**
 * The writer of the page `items` under `query`'s shape: the default item or the full record copied
 * from the bundle's bytes (no include, or every part), else each record parsed and cut to the
 * fields asked for (at most LIST_LIMIT_MAX records a page).
 */
export function itemWriter(engine: ListEngine, query: Pick<ListQuery, 'include' | 'fields'>, items: ArrayLike<number>): ItemWriter {
  const fields = itemFields(query);
  if (fields === null) return { length: (k) => engine.itemLength(items[k]!), copy: (k, target, at) => engine.copyItem(items[k]!, target, at) };
  if (fields.length === RECORD_FIELDS.length)
    return { length: (k) => engine.recordLength(items[k]!), copy: (k, target, at) => engine.copyRecord(items[k]!, target, at) };
  const scratch = { buffer: Buffer.allocUnsafe(4096) };
  const parts: Buffer[] = [];
  for (let k = 0; k < items.length; k++) parts.push(Buffer.from(JSON.stringify(pickFields(readRecord(engine, items[k]!, scratch), fields))));
  return { length: (k) => parts[k]!.length, copy: (k, target, at) => at + parts[k]!.copy(target, at) };
}
