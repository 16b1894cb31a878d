// The search page's state <-> list-route query string (GET /api/rtp/list), shared by the page and its script.
import type { OperatorBuildKind } from '../schemas/game-record.ts';
import type { ListSort } from '../schemas/list.ts';

/**
 * A label for every sort the list route accepts but `relevance`, which is the default choice's order
 * when there is a search (type-only import: no schema code reaches the browser).
 */
const SORT_LABELS = {
  name: 'Name (A–Z)',
  provider: 'Provider',
  rtp_desc: 'Highest stated RTP',
  rtp_asc: 'Lowest stated RTP',
  variants_desc: 'Most RTP variants',
  recent: 'Newest release',
} as const satisfies Record<Exclude<ListSort, 'relevance'>, string>;

/**
 * The sort choices of the search form. The first, `''`, is the default: best match (the list route's
 * `relevance`) when there is a search, name order when there is none; the others are asked for as chosen.
 */
export const SORTS: ReadonlyArray<{ value: '' | ListSort; label: string }> = [
  { value: '', label: 'Best match (A–Z without a search)' },
  ...Object.entries(SORT_LABELS).map(([value, label]) => ({ value: value as ListSort, label })),
];

/**
 * The operator-build filter's choices (`operator_build`): how the build a casino's catalogue showed,
 * on the date its source was pinned, compares with the stated RTP.
 */
export const OPERATOR_BUILD_LABELS = {
  top: 'Top build (the stated RTP)',
  lower: 'A lower build',
  higher: 'Above the stated RTP',
} as const satisfies Record<OperatorBuildKind, string>;

const isBuild = (v: string): v is OperatorBuildKind => Object.hasOwn(OPERATOR_BUILD_LABELS, v);

export const PAGE_SIZE = 50;

/** The search page's state; empty strings mean "no filter". */
export interface SearchState {
  q: string;
  provider: string;
  game_type: string;
  /** An operator key: games its pinned catalogue lists. */
  operator: string;
  /** `top`, `lower` or `higher`: games observed at that build (by `operator` when given). */
  operator_build: string;
  has_variants: boolean;
  /** `''`: best match with a search, name without. */
  sort: string;
  offset: number;
}

export const DEFAULT_STATE: SearchState = { q: '', provider: '', game_type: '', operator: '', operator_build: '', has_variants: false, sort: '', offset: 0 };

/** Reads a state from a query string (the page's own URL); unknown or malformed values fall back to defaults. */
export function stateFromQuery(search: string): SearchState {
  const p = new URLSearchParams(search);
  const offset = Number(p.get('offset') ?? '0');
  const sort = p.get('sort') ?? '';
  const build = p.get('operator_build') ?? '';
  return {
    q: (p.get('q') ?? '').slice(0, 200),
    provider: p.get('provider') ?? '',
    game_type: p.get('game_type') ?? '',
    operator: p.get('operator') ?? '',
    operator_build: isBuild(build) ? build : '',
    has_variants: p.get('has_variants') === '1',
    // `relevance` (older links) is the default's order.
    sort: sort !== 'relevance' && SORTS.some((s) => s.value === sort) ? sort : '',
    offset: Number.isInteger(offset) && offset >= 0 ? offset : 0,
  };
}

/**
 * The query string for a state, without defaults (for the page URL); for the API with `limit`, and
 * the default sort made explicit: `relevance` whenever there is a search.
 */
export function queryFromState(s: SearchState, forApi: boolean): string {
  const p = new URLSearchParams();
  const q = s.q.trim();
  if (q !== '') p.set('q', q);
  if (s.provider !== '') p.set('provider', s.provider);
  if (s.game_type !== '') p.set('game_type', s.game_type);
  if (s.operator !== '') p.set('operator', s.operator);
  if (s.operator_build !== '') p.set('operator_build', s.operator_build);
  if (s.has_variants) p.set('has_variants', '1');
  if (s.sort !== '') p.set('sort', s.sort);
  else if (forApi && q !== '') p.set('sort', 'relevance');
  if (forApi) p.set('limit', String(PAGE_SIZE));
  if (s.offset > 0) p.set('offset', String(s.offset));
  return p.toString();
}

/** True when the state is the pre-rendered default query. */
export function isDefaultState(s: SearchState): boolean {
  return queryFromState(s, false) === '';
}
