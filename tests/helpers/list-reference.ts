// An independent, deliberately naive model of the list route (docs/api-list.md) for tests: filter
// every record, sort with plain comparators, count facets by brute force. Shares no code with src/list.
import type { GameRecord } from '../../src/schemas/game-record.ts';

export interface RefQuery {
  q?: string | null;
  provider?: string | null;
  game_type?: string | null;
  has_variants?: boolean;
  badge?: string | null;
  sort?: string;
}

export interface RefFacets {
  providers: Array<{ provider: string; display: string; count: number }>;
  game_types: Array<{ game_type: string; count: number }>;
}

export function refFold(s: string): string {
  return s.normalize('NFKD').toLowerCase().replace(/\p{M}/gu, '');
}

export function refTokens(s: string): string[] {
  return refFold(s).replace(/['\u2019\u02bc]/g, '').split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
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
  return levenshtein(term, token) <= Math.min(6, Math.round(term.length * 0.2));
}

export function refMatchesQ(r: GameRecord, q: string): boolean {
  const terms = [...new Set(refTokens(q))];
  if (terms.length === 0) return false;
  const tokens = [...refTokens(r.canonical_name), ...refTokens(r.canonical_slug), ...refTokens(r.provider), ...refTokens(r.provider_display)];
  return terms.every((t) => tokens.some((tok) => wordMatches(t, tok)));
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

function passes(r: GameRecord, q: RefQuery, skip: 'provider' | 'game_type' | null): boolean {
  if (q.q != null && !refMatchesQ(r, q.q)) return false;
  if (skip !== 'provider' && q.provider != null && r.provider !== q.provider) return false;
  if (skip !== 'game_type' && q.game_type != null && r.game_type !== q.game_type) return false;
  if (q.has_variants === true && !(r.variants_count > 1)) return false;
  if (q.badge != null && !r.badges.includes(q.badge as (typeof r.badges)[number])) return false;
  return true;
}

/** Matching records in the query's order (relevance: slug order, the caller compares as a set). */
export function refFilterSort(records: readonly GameRecord[], q: RefQuery): GameRecord[] {
  const sort = q.sort === undefined || q.sort === 'relevance' ? 'name' : q.sort;
  return records.filter((r) => passes(r, q, null)).sort(REF_COMPARATORS[sort]);
}

/** Facets: each counted over the records passing every other filter; zero counts only for the selected value. */
export function refFacets(records: readonly GameRecord[], providers: ReadonlyArray<{ provider: string; display: string }>, q: RefQuery): RefFacets {
  const providerFacet = providers
    .map((p) => ({ provider: p.provider, display: p.display, count: records.filter((r) => r.provider === p.provider && passes(r, q, 'provider')).length }))
    .filter((f) => f.count > 0 || f.provider === q.provider)
    .sort((a, b) => b.count - a.count || str(a.provider, b.provider));
  const types = [...new Set(['slot', 'scratchcard', 'table', 'instant', 'bingo', 'keno'])];
  const typeFacet = types
    .map((t) => ({ game_type: t, count: records.filter((r) => r.game_type === t && passes(r, q, 'game_type')).length }))
    .filter((f) => f.count > 0 || f.game_type === q.game_type)
    .sort((a, b) => b.count - a.count || str(a.game_type, b.game_type));
  return { providers: providerFacet, game_types: typeFacet };
}
