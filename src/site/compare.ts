// The compare page's state (/compare?slugs=a,b,c) and what it shows of each game, shared by the page
// and its browser script (no Node imports).
//
//   /compare?slugs={slug},{slug}   this page (up to COMPARE_MAX games)
//   /api/rtp/list?slugs=…          the one request that fetches them (batch lookup)
//   /api/rtp/list?q=…&sort=relevance&limit=…   the "add a game" suggestions
import { paths } from '../routes/paths.ts';
import { formatDate, formatGameType, formatHouseEdge, formatMaxWin, formatRange, formatRtp, formatVolatility, formatYear } from './format.ts';

/** Most games compared side by side (four columns still fit a laptop screen). */
export const COMPARE_MAX = 4;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The games a compare URL names: valid slugs in the order given (repeats dropped), at most COMPARE_MAX. */
export interface CompareState {
  slugs: string[];
  /** Valid slugs past the limit, left out. */
  dropped: number;
  /** Values that are not slugs, left out. */
  invalid: number;
}

/** Reads `slugs` from a query string (comma-separated; several `slugs` parameters are joined). */
export function compareState(search: string): CompareState {
  const raw = new URLSearchParams(search)
    .getAll('slugs')
    .join(',')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  const valid = [...new Set(raw.filter((s) => s.length <= 200 && SLUG.test(s)))];
  return {
    slugs: valid.slice(0, COMPARE_MAX),
    dropped: Math.max(0, valid.length - COMPARE_MAX),
    invalid: raw.filter((s) => !(s.length <= 200 && SLUG.test(s))).length,
  };
}

/** The page URL for a list of slugs. */
export function compareUrl(slugs: readonly string[]): string {
  return paths.pages.compare(slugs);
}

/** The record fields the compare page shows (a subset of the public game record). */
export interface CompareRecord {
  canonical_slug: string;
  canonical_name: string;
  provider: string;
  provider_display: string;
  game_type: string;
  stated_rtp: number;
  rtp_min: number;
  rtp_max: number;
  variants_count: number;
  variants: Array<{ rtp: number; kind: string; jurisdiction: string | null }>;
  volatility: string | null;
  max_win: number | null;
  release_year: number | null;
  last_verified: string;
  sources: Array<{ kind: string; via: string | null; url: string; stated_rtp: number }>;
}

/** The rows of plain text, in order (the ladder and the sources are rendered apart); `highest` marks the game with the highest value. */
export const COMPARE_ROWS: ReadonlyArray<{ label: string; text: (r: CompareRecord) => string; highest?: (r: CompareRecord) => number }> = [
  { label: 'Stated RTP', text: (r) => formatRtp(r.stated_rtp), highest: (r) => r.stated_rtp },
  { label: 'House edge', text: (r) => formatHouseEdge(r.stated_rtp) },
  { label: 'RTP range', text: (r) => `${formatRange(r.rtp_min, r.rtp_max)} (${r.variants_count} variant${r.variants_count === 1 ? '' : 's'})` },
  { label: 'Volatility', text: (r) => formatVolatility(r.volatility as never) },
  { label: 'Max win', text: (r) => formatMaxWin(r.max_win) },
  { label: 'Game type', text: (r) => formatGameType(r.game_type) },
  { label: 'Release year', text: (r) => formatYear(r.release_year) },
  { label: 'Last verified', text: (r) => formatDate(r.last_verified) },
];
