// Text of one search result, shared by the pre-rendered home page and the browser search script.
import { paths } from '../routes/paths.ts';
import { formatBadge, formatConfidence, formatGameType, formatRange, formatRtp } from './format.ts';

/** The record fields a search result shows (a subset of the public game record). */
export interface ListItemFields {
  canonical_slug: string;
  canonical_name: string;
  provider_display: string;
  game_type: string;
  stated_rtp: number;
  rtp_min: number;
  rtp_max: number;
  variants_count: number;
  badges: string[];
  confidence: string;
}

/** The fields of ListItemFields, each once: the search page asks the list route for these only (`fields=`). */
export const LIST_ITEM_SHOWN = [
  'canonical_slug',
  'canonical_name',
  'provider_display',
  'game_type',
  'stated_rtp',
  'rtp_min',
  'rtp_max',
  'variants_count',
  'badges',
  'confidence',
] as const satisfies ReadonlyArray<keyof ListItemFields>;
// Every field of ListItemFields is in LIST_ITEM_SHOWN (a compile-time check).
const shownAll: Record<keyof ListItemFields, true> = Object.fromEntries(LIST_ITEM_SHOWN.map((f) => [f, true])) as Record<
  (typeof LIST_ITEM_SHOWN)[number],
  true
>;
void shownAll;

/** Display texts of a search result. */
export interface ListItemText {
  href: string;
  name: string;
  /** e.g. `Play'n GO · Slot · 5 variants 84.18% – 96.21% · Verified · Variants tracked` */
  meta: string;
  rtp: string;
}

/** Formats one search result. */
export function listItemText(r: ListItemFields): ListItemText {
  const parts = [r.provider_display, formatGameType(r.game_type)];
  parts.push(r.variants_count > 1 ? `${r.variants_count} variants ${formatRange(r.rtp_min, r.rtp_max)}` : '1 variant');
  // The confidence in words; `verified_rtp` says the same as `Verified`, so it is not repeated.
  parts.push(formatConfidence(r.confidence));
  for (const b of r.badges) if (b !== 'verified_rtp') parts.push(formatBadge(b));
  return { href: paths.gamePage(r.canonical_slug), name: r.canonical_name, meta: parts.join(' · '), rtp: formatRtp(r.stated_rtp) };
}

/** The status line above the results, e.g. `Showing 1–50 of 133 games (133 in the registry)`. */
export function statusText(offset: number, shown: number, filtered: number, total: number): string {
  if (filtered === 0) return `No games match (${total} in the registry).`;
  return `Showing ${offset + 1}–${offset + shown} of ${filtered} game${filtered === 1 ? '' : 's'} (${total} in the registry).`;
}
