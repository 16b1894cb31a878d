// Parses and validates the list route's query string into the normalised ListQuery (docs/api-list.md).
import { GAME_TYPES, SLUG_PATTERN, VOLATILITIES } from '../schemas/authoring.ts';
import { BADGES, CONFIDENCE_LEVELS, OPERATOR_BUILDS } from '../schemas/game-record.ts';
import {
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LIST_LIMIT_MIN,
  LIST_OFFSET_MAX,
  LIST_SORTS,
  type ListQuery,
  MAX_WIN_PARAM_MAX,
  YEAR_PARAM_MAX,
  YEAR_PARAM_MIN,
} from '../schemas/list.ts';
import { queryTerms } from '../schemas/text.ts';
import { collectParams, decimal, integer, oneOf, type ParamError, type QueryInput, single, someOf, text } from './params.ts';
import { shapeParams } from './shape.ts';

/** The parameters the list route reads, in the order errors are reported. */
export const LIST_PARAMS = [
  'q',
  'provider',
  'game_type',
  'has_variants',
  'badge',
  'confidence',
  'sort',
  'limit',
  'offset',
  'rtp_min',
  'rtp_max',
  'volatility',
  'max_win_min',
  'released_after',
  'released_before',
  'operator',
  'operator_build',
  'include',
  'fields',
] as const;

/** Most distinct words a `q` may hold (each word is a prefix search over the whole index). */
export const MAX_QUERY_TERMS = 10;

export const MSG_HAS_VARIANTS = 'must be 1 (or left out)';
export const MSG_TOO_MANY_TERMS = `must contain at most ${MAX_QUERY_TERMS} words`;
export const MSG_RTP = 'must be a percentage from 0 to 100 with at most two decimals (96.5)';
export const MSG_RTP_ORDER = 'must not be below rtp_min';
export const MSG_MAX_WIN = `must be a multiple of the stake from 0 to ${MAX_WIN_PARAM_MAX} with at most two decimals (5000)`;
export const MSG_YEAR = `must be a year from ${YEAR_PARAM_MIN} to ${YEAR_PARAM_MAX}`;
export const MSG_YEAR_ORDER = 'must not be before released_after';
export const MSG_OPERATOR = 'must be an operator key: lowercase letters and digits joined by single hyphens (711nl)';

export type ParseResult<Q> = { ok: true; query: Q } | { ok: false; errors: ParamError[] };

/** A four-digit year, or null when absent. */
function year(values: Map<string, string[]>, name: string, errors: ParamError[]): number | null {
  const raw = single(values, name, errors);
  if (raw === null) return null;
  if (!/^[0-9]{4}$/.test(raw) || Number(raw) < YEAR_PARAM_MIN) {
    errors.push({ param: name, message: MSG_YEAR });
    return null;
  }
  return Number(raw);
}

/**
 * Reads the LIST_PARAMS; ignores other parameters (and `fields` when `options.fields` is false:
 * the CSV answer reads it as column names, csv.ts).
 * Returns the normalised query (defaults filled in, `relevance` without `q` turned into `name`) or
 * every problem found, one per bad parameter.
 */
export function parseListQuery(input: QueryInput, options: { fields?: boolean } = {}): ParseResult<ListQuery> {
  const values = collectParams(input, LIST_PARAMS);
  if (options.fields === false) values.delete('fields');
  const errors: ParamError[] = [];

  let q = text(values, 'q', errors);
  // More than MAX_QUERY_TERMS distinct words need at least 2 * MAX_QUERY_TERMS + 1 characters.
  if (q !== null && q.length > 2 * MAX_QUERY_TERMS && queryTerms(q).length > MAX_QUERY_TERMS) {
    errors.push({ param: 'q', message: MSG_TOO_MANY_TERMS });
    q = null;
  }
  const provider = text(values, 'provider', errors);
  const gameType = oneOf(values, 'game_type', errors, GAME_TYPES);
  const hasVariantsRaw = single(values, 'has_variants', errors);
  if (hasVariantsRaw !== null && hasVariantsRaw !== '1') errors.push({ param: 'has_variants', message: MSG_HAS_VARIANTS });
  const badge = oneOf(values, 'badge', errors, BADGES);
  const confidence = oneOf(values, 'confidence', errors, CONFIDENCE_LEVELS);
  const sort = oneOf(values, 'sort', errors, LIST_SORTS) ?? 'name';
  const limit = integer(values, 'limit', errors, { min: LIST_LIMIT_MIN, max: LIST_LIMIT_MAX, fallback: LIST_LIMIT_DEFAULT });
  const offset = integer(values, 'offset', errors, { min: 0, max: LIST_OFFSET_MAX, fallback: 0 });
  const rtpMin = decimal(values, 'rtp_min', errors, 100, MSG_RTP);
  const rtpMax = decimal(values, 'rtp_max', errors, 100, MSG_RTP);
  if (rtpMin !== null && rtpMax !== null && rtpMax < rtpMin) errors.push({ param: 'rtp_max', message: MSG_RTP_ORDER });
  const volatility = someOf(values, 'volatility', errors, VOLATILITIES);
  const maxWinMin = decimal(values, 'max_win_min', errors, MAX_WIN_PARAM_MAX, MSG_MAX_WIN);
  const releasedAfter = year(values, 'released_after', errors);
  const releasedBefore = year(values, 'released_before', errors);
  if (releasedAfter !== null && releasedBefore !== null && releasedBefore < releasedAfter) errors.push({ param: 'released_before', message: MSG_YEAR_ORDER });
  let operator = text(values, 'operator', errors);
  if (operator !== null && !SLUG_PATTERN.test(operator)) {
    errors.push({ param: 'operator', message: MSG_OPERATOR });
    operator = null;
  }
  const operatorBuild = oneOf(values, 'operator_build', errors, OPERATOR_BUILDS);
  const { include, fields } = shapeParams(values, errors);

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    query: {
      q,
      provider,
      game_type: gameType,
      has_variants: hasVariantsRaw === '1',
      badge,
      confidence,
      sort: sort === 'relevance' && q === null ? 'name' : sort,
      limit,
      offset,
      rtp_min: rtpMin,
      rtp_max: rtpMax,
      volatility,
      max_win_min: maxWinMin,
      released_after: releasedAfter,
      released_before: releasedBefore,
      operator,
      operator_build: operatorBuild,
      include,
      fields,
    },
  };
}

/** Free text in a key: its length first, so no text can pass for a separator and the next field. */
const keyText = (value: string | null) => (value === null ? '-' : `${value.length}:${value}`);

/** A string that identifies a normalised query's filters: what its facets depend on (not the order or the page). */
export function listFilterKey(query: ListQuery): string {
  const base = `${keyText(query.q)}|${keyText(query.provider)}|${query.game_type ?? ''}|${query.has_variants ? 1 : 0}|${query.badge ?? ''}|${query.confidence ?? ''}`;
  const ranged = hasRangeOrLevel(query)
    ? `${base}|${query.rtp_min ?? ''}:${query.rtp_max ?? ''}|${query.volatility?.join(',') ?? ''}|${query.max_win_min ?? ''}|${query.released_after ?? ''}:${query.released_before ?? ''}`
    : base;
  // Operator keys match SLUG_PATTERN, so no separator can hide in them.
  return query.operator === null && query.operator_build === null ? ranged : `${ranged}|o:${query.operator ?? ''}:${query.operator_build ?? ''}`;
}

/** Whether a query filters by stated RTP, volatility, max win or release year. */
export function hasRangeOrLevel(query: ListQuery): boolean {
  return (
    query.rtp_min !== null ||
    query.rtp_max !== null ||
    query.volatility !== null ||
    query.max_win_min !== null ||
    query.released_after !== null ||
    query.released_before !== null
  );
}

/** A string that identifies a normalised query: the response-cache key, and part of the list ETag. */
export function listQueryKey(query: ListQuery): string {
  const key = `${listFilterKey(query)}|${query.sort}|${query.limit}|${query.offset}`;
  // The item's shape (names from fixed sets, so no separator can hide in them).
  return query.include === null && query.fields === null ? key : `${key}|i:${query.include?.join(',') ?? ''}|f:${query.fields?.join(',') ?? ''}`;
}
