// Parses and validates the list route's query string into the normalised ListQuery (docs/api-list.md).
import { GAME_TYPES } from '../schemas/authoring.ts';
import {
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LIST_LIMIT_MIN,
  LIST_OFFSET_MAX,
  LIST_SORTS,
  type ListQuery,
} from '../schemas/list.ts';
import { BADGES, CONFIDENCE_LEVELS } from '../schemas/game-record.ts';
import { collectParams, integer, oneOf, single, text, type ParamError, type QueryInput } from './params.ts';
import { queryTerms } from '../schemas/text.ts';

/** The parameters the list route reads, in the order errors are reported. */
export const LIST_PARAMS = ['q', 'provider', 'game_type', 'has_variants', 'badge', 'confidence', 'sort', 'limit', 'offset'] as const;

/** Most distinct words a `q` may hold (each word is a prefix search over the whole index). */
export const MAX_QUERY_TERMS = 10;

export const MSG_HAS_VARIANTS = 'must be 1 (or left out)';
export const MSG_TOO_MANY_TERMS = `must contain at most ${MAX_QUERY_TERMS} words`;

export type ParseResult<Q> = { ok: true; query: Q } | { ok: false; errors: ParamError[] };

/**
 * Reads q, provider, game_type, has_variants, badge, confidence, sort, limit and offset; ignores other parameters.
 * Returns the normalised query (defaults filled in, `relevance` without `q` turned into `name`) or
 * every problem found, one per bad parameter.
 */
export function parseListQuery(input: QueryInput): ParseResult<ListQuery> {
  const values = collectParams(input, LIST_PARAMS);
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
    },
  };
}

/** Free text in a key: its length first, so no text can pass for a separator and the next field. */
const keyText = (value: string | null) => (value === null ? '-' : `${value.length}:${value}`);

/** A string that identifies a normalised query's filters: what its facets depend on (not the order or the page). */
export function listFilterKey(query: ListQuery): string {
  return `${keyText(query.q)}|${keyText(query.provider)}|${query.game_type ?? ''}|${query.has_variants ? 1 : 0}|${query.badge ?? ''}|${query.confidence ?? ''}`;
}

/** A string that identifies a normalised query: the response-cache key, and part of the list ETag. */
export function listQueryKey(query: ListQuery): string {
  return `${listFilterKey(query)}|${query.sort}|${query.limit}|${query.offset}`;
}
