// An independent, deliberately naive model of the list route (docs/api-list.md) for tests: filter
// every record, sort with plain comparators, count facets by brute force. Shares no code with src/list.
import { VOLATILITIES } from '../../src/schemas/authoring.ts';
import type { GameRecord } from '../../src/schemas/game-record.ts';

export interface RefQuery {
  q?: string | null;
  provider?: string | null;
  game_type?: string | null;
  has_variants?: boolean;
  badge?: string | null;
  confidence?: string | null;
  sort?: string;
  rtp_min?: number | null;
  rtp_max?: number | null;
  /** Levels, any of which matches. */
  volatility?: readonly string[] | null;
  max_win_min?: number | null;
  released_after?: number | null;
  released_before?: number | null;
  operator?: string | null;
  operator_build?: string | null;
}

export interface RefFacets {
  providers: Array<{ provider: string; display: string; count: number }>;
  game_types: Array<{ game_type: string; count: number }>;
  confidence: Array<{ confidence: string; count: number }>;
  volatilities: Array<{ volatility: string; count: number }>;
  operators: Array<{ operator: string; display: string; count: number }>;
  operator_builds: Array<{ operator_build: string; count: number }>;
}

/** Letters that compatibility decomposition keeps whole, spelled out (docs/api-list.md). */
const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

/** Case, accents, compatibility forms, apostrophes and trademark signs ignored. */
export function refFold(s: string): string {
  let out = '';
  for (const ch of s
    .replace(/[™®©℠´]/g, '')
    .normalize('NFKD')
    .toLowerCase()) {
    if (/\p{M}/u.test(ch) || "'`‘’ʼ′".includes(ch)) continue;
    out += SPELLED[ch] ?? ch;
  }
  return out;
}

export function refTokens(s: string): string[] {
  return refFold(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** A query word matches a record word by prefix, or within 0.2 × length edits when it has 5+ letters. */
export function wordMatches(term: string, token: string): boolean {
  if (token.startsWith(term)) return true;
  if (term.length < 5) return false;
  return levenshtein(term, token) <= Math.min(2, Math.round(term.length * 0.2));
}

/** A record, with the text of its provider's group and source labels where the caller knows them (the index searches it too). */
export type RefRecord = GameRecord & { also?: string };

function recordTokens(r: RefRecord): string[] {
  return [
    ...refTokens(r.canonical_name),
    ...refTokens(r.canonical_slug),
    ...refTokens(r.provider),
    ...refTokens(r.provider_display),
    ...refTokens(r.also ?? ''),
  ];
}

/** Whether a record matches every word of q as typed. */
export function refMatchesQ(r: GameRecord, q: string): boolean {
  const terms = [...new Set(refTokens(q))];
  if (terms.length === 0) return false;
  const tokens = recordTokens(r);
  return terms.every((t) => tokens.some((tok) => wordMatches(t, tok)));
}

// The forgiving reading (docs/api-list.md, Search), written out plainly.
const SMALL = new Set(['a', 'an', 'the', 'of', 'and', 'n', 'de', 'del', 'la', 'le', 'el', 'du', 'des', 'di', 'da', 'der', 'die', 'das', 'und', 'y', 'et', 'e']);
const ROMAN: Record<string, string> = {
  ii: '2',
  iii: '3',
  iv: '4',
  v: '5',
  vi: '6',
  vii: '7',
  viii: '8',
  ix: '9',
  x: '10',
  xi: '11',
  xii: '12',
  xiii: '13',
  xiv: '14',
  xv: '15',
  xvi: '16',
  xvii: '17',
  xviii: '18',
  xix: '19',
  xx: '20',
};
const ARABIC: Record<string, string> = Object.fromEntries(Object.entries(ROMAN).map(([r, a]) => [a, r]));

/** Edits a forgiving word tolerates: 0 up to 2 letters, 1 for 3-4, 2 from 5, and never less than as typed. */
function forgivingEdits(term: string): number {
  if (/^\d+$/.test(term)) return term.length >= 5 ? Math.min(2, Math.round(term.length * 0.2)) : 0;
  const typed = term.length >= 5 ? Math.min(2, Math.round(term.length * 0.2)) : 0;
  return Math.max(typed, term.length <= 2 ? 0 : term.length <= 4 ? 1 : 2);
}

/** All ways to cut `term` into vocabulary words (2+ letters, or a small word), fewest parts first. */
function cuts(term: string, vocab: Set<string>): string[][] {
  if (term === '') return [[]];
  const out: string[][] = [];
  for (let i = 1; i <= term.length; i++) {
    const head = term.slice(0, i);
    if (!((head.length >= 2 || SMALL.has(head)) && vocab.has(head))) continue;
    for (const rest of cuts(term.slice(i), vocab)) out.push([head, ...rest]);
  }
  return out.sort((a, b) => a.length - b.length);
}

function splitWord(term: string, vocab: Set<string>): string[] | null {
  const whole = cuts(term, vocab).filter((c) => c.length >= 2);
  if (whole.length > 0) return whole[0]!;
  for (let j = term.length - 3; j >= 2; j--) {
    const head = cuts(term.slice(0, j), vocab);
    if (head.length > 0) return [...head[0]!, term.slice(j)];
  }
  return null;
}

/**
 * The records q finds: those matching every word as typed, or when there are none, those matching
 * the forgiving reading: small words and lone letters optional, numerals both ways, run-together
 * words split, typos in words no record has.
 */
export function refSearch(records: readonly GameRecord[], q: string): GameRecord[] {
  const typed = records.filter((r) => refMatchesQ(r, q));
  const terms = [...new Set(refTokens(q))];
  if (terms.length === 0) return typed;
  const vocab = new Set(records.flatMap(recordTokens));
  // A word no record's word is or starts, cut wholly into vocabulary words, is read as them even
  // when records match it as typed through typos.
  const whole = (t: string) =>
    t.length >= 6 && t.length <= 40 && ![...vocab].some((v) => v.startsWith(t)) ? (cuts(t, vocab).find((c) => c.length >= 2) ?? null) : null;
  if (typed.length > 0 && !terms.some((t) => whole(t) !== null)) return typed;
  const words: string[] = [];
  for (const t of terms) {
    const known = [...vocab].some((v) => v.startsWith(t) || levenshtein(t, v) <= forgivingEdits(t));
    const parts = t.length >= 6 && t.length <= 40 ? (known ? whole(t) : splitWord(t, vocab)) : null;
    words.push(...(parts ?? [t]));
  }
  const required = words.filter((w) => !SMALL.has(w) && !(w.length === 1 && !/\d/.test(w)));
  const needed = required.length > 0 ? required : words;
  const forgiven = records.filter((r) => {
    const tokens = recordTokens(r);
    return needed.every((w) => {
      const forms = [w, ROMAN[w] ?? ARABIC[w]].filter((f): f is string => f !== undefined);
      // A word some record has is spelt right: it keeps its typed tolerance.
      const edits = (f: string) => (vocab.has(f) ? (f.length >= 5 ? Math.min(2, Math.round(f.length * 0.2)) : 0) : forgivingEdits(f));
      return forms.some((f) => tokens.some((tok) => tok.startsWith(f) || levenshtein(f, tok) <= edits(f)));
    });
  });
  return forgiven.length > 0 || typed.length === 0 ? forgiven : typed;
}

const str = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: GameRecord, b: GameRecord) => str(refFold(a.canonical_name), refFold(b.canonical_name)) || str(a.canonical_slug, b.canonical_slug);

export const REF_COMPARATORS: Record<string, (a: GameRecord, b: GameRecord) => number> = {
  name: byName,
  provider: (a, b) => str(refFold(a.provider_display), refFold(b.provider_display)) || byName(a, b),
  rtp_desc: (a, b) => b.stated_rtp - a.stated_rtp || byName(a, b),
  rtp_asc: (a, b) => a.stated_rtp - b.stated_rtp || byName(a, b),
  variants_desc: (a, b) => b.variants_count - a.variants_count || byName(a, b),
  recent: (a, b) => {
    const ya = a.release_year ?? -Infinity;
    const yb = b.release_year ?? -Infinity;
    if (ya !== yb) return yb > ya ? 1 : -1;
    return Date.parse(b.last_verified) - Date.parse(a.last_verified) || byName(a, b);
  },
};

/** Whether the record was observed by `operator` (any when null) at `build` (any when null). */
function observed(r: GameRecord, operator: string | null | undefined, build: string | null | undefined): boolean {
  return (r.operators ?? []).some((o) => (operator == null || o.operator === operator) && (build == null || o.build === build));
}

function passes(r: GameRecord, q: RefQuery, skip: 'provider' | 'game_type' | 'confidence' | 'volatility' | 'operator' | 'operator_build' | null): boolean {
  if (q.q != null && !refMatchesQ(r, q.q)) return false;
  if (skip !== 'provider' && q.provider != null && r.provider !== q.provider) return false;
  if (skip !== 'game_type' && q.game_type != null && r.game_type !== q.game_type) return false;
  if (q.has_variants === true && !(r.variants_count > 1)) return false;
  if (q.badge != null && !r.badges.includes(q.badge as (typeof r.badges)[number])) return false;
  if (skip !== 'confidence' && q.confidence != null && r.confidence !== q.confidence) return false;
  if (q.rtp_min != null && r.stated_rtp < q.rtp_min) return false;
  if (q.rtp_max != null && r.stated_rtp > q.rtp_max) return false;
  if (skip !== 'volatility' && q.volatility != null && (r.volatility === null || !q.volatility.includes(r.volatility))) return false;
  // An unknown max win or year never matches a filter on it.
  if (q.max_win_min != null && (r.max_win === null || r.max_win < q.max_win_min)) return false;
  if (q.released_after != null && (r.release_year === null || r.release_year < q.released_after)) return false;
  if (q.released_before != null && (r.release_year === null || r.release_year > q.released_before)) return false;
  if (
    (q.operator != null || q.operator_build != null) &&
    !observed(r, skip === 'operator' ? null : q.operator, skip === 'operator_build' ? null : q.operator_build)
  )
    return false;
  return true;
}

/** Matching records in the query's order (relevance: slug order, the caller compares as a set). */
export function refFilterSort(records: readonly GameRecord[], q: RefQuery): GameRecord[] {
  const sort = q.sort === undefined || q.sort === 'relevance' ? 'name' : q.sort;
  return records.filter((r) => passes(r, q, null)).sort(REF_COMPARATORS[sort]);
}

/** Facets: each counted over the records passing every other filter; zero counts only for the selected value. */
export function refFacets(
  records: readonly GameRecord[],
  providers: ReadonlyArray<{ provider: string; display: string }>,
  q: RefQuery,
  operators: ReadonlyArray<{ operator: string; display: string }> = [],
): RefFacets {
  const providerFacet = providers
    .map((p) => ({ provider: p.provider, display: p.display, count: records.filter((r) => r.provider === p.provider && passes(r, q, 'provider')).length }))
    .filter((f) => f.count > 0 || f.provider === q.provider)
    .sort((a, b) => b.count - a.count || str(a.provider, b.provider));
  const types = [...new Set(['slot', 'scratchcard', 'table', 'video_poker', 'instant', 'bingo', 'keno'])];
  const typeFacet = types
    .map((t) => ({ game_type: t, count: records.filter((r) => r.game_type === t && passes(r, q, 'game_type')).length }))
    .filter((f) => f.count > 0 || f.game_type === q.game_type)
    .sort((a, b) => b.count - a.count || str(a.game_type, b.game_type));
  const levels = ['verified', 'corroborated', 'single_source'];
  const confidenceFacet = levels
    .map((c) => ({ confidence: c, count: records.filter((r) => r.confidence === c && passes(r, q, 'confidence')).length }))
    .filter((f) => f.count > 0 || f.confidence === q.confidence)
    .sort((a, b) => b.count - a.count || levels.indexOf(a.confidence) - levels.indexOf(b.confidence));
  const levelFacet = VOLATILITIES.map((v) => ({ volatility: v, count: records.filter((r) => r.volatility === v && passes(r, q, 'volatility')).length }))
    .filter((f) => f.count > 0 || (q.volatility ?? []).includes(f.volatility))
    .sort((a, b) => b.count - a.count || str(a.volatility, b.volatility));
  // Every operator (key order) and every build (top, lower, higher), zeros included.
  const operatorFacet = [...operators]
    .sort((a, b) => str(a.operator, b.operator))
    .map((o) => ({
      operator: o.operator,
      display: o.display,
      count: records.filter((r) => observed(r, o.operator, q.operator_build) && passes(r, q, 'operator')).length,
    }));
  const buildFacet = ['top', 'lower', 'higher'].map((b) => ({
    operator_build: b,
    count: records.filter((r) => observed(r, q.operator, b) && passes(r, q, 'operator_build')).length,
  }));
  return {
    providers: providerFacet,
    game_types: typeFacet,
    confidence: confidenceFacet,
    volatilities: levelFacet,
    operators: operatorFacet,
    operator_builds: buildFacet,
  };
}
