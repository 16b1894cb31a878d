// Display formatting shared by the registry pages (Astro pages and the string-rendered game pages).

import { percent } from '../lib/percent.ts';
import type { ConfidenceBasis } from '../registry/derive.ts';
import type { VariantKind, Volatility } from '../schemas/authoring.ts';

/** An RTP percentage as stated, with at least two decimals, e.g. `96.30%` (padded, never rounded: the figure is the provider's). */
export function formatRtp(rtp: number): string {
  return percent(rtp);
}

/** The date part of an ISO 8601 timestamp, e.g. `2026-11-21`. */
export function formatDate(iso: string): string {
  return iso.slice(0, 10);
}

/** House edge at an RTP, in percentage points, to two decimals (e.g. 96.21 -> `3.79%`). */
export function formatHouseEdge(rtp: number): string {
  return `${(Math.round((100 - rtp) * 100) / 100).toFixed(2)}%`;
}

const VOLATILITY_LABELS: Record<Volatility, string> = { low: 'Low', medium: 'Medium', high: 'High', 'very-high': 'Very high' };

/** Volatility as words; null is shown as "Not published". */
export function formatVolatility(v: Volatility | null): string {
  return v === null ? 'Not published' : VOLATILITY_LABELS[v];
}

/** Max win as a multiple of the stake (`5,000× stake`); null is shown as "Not published". */
export function formatMaxWin(x: number | null): string {
  return x === null ? 'Not published' : `${x.toLocaleString('en-US')}× stake`;
}

/** Release year, or "Unknown". */
export function formatYear(y: number | null): string {
  return y === null ? 'Unknown' : String(y);
}

const KIND_LABELS: Record<VariantKind, string> = {
  standard: 'Standard',
  operator_ladder: 'Operator ladder',
  operator: "A licensed casino's build",
  bonus_buy: 'Bonus buy',
  ante_bet: 'Ante bet',
  player_config: 'Player setting',
  feature: 'Feature',
  jurisdiction: 'Jurisdiction',
  unknown: 'Unknown',
};

/** A variant's kind in words; jurisdiction builds carry their country code (`Jurisdiction (DE)`). */
export function formatVariantKind(kind: VariantKind, jurisdiction: string | null): string {
  return kind === 'jurisdiction' && jurisdiction !== null ? `${KIND_LABELS[kind]} (${jurisdiction})` : KIND_LABELS[kind];
}

const BADGE_LABELS: Record<string, string> = { verified_rtp: 'Verified RTP', variants_tracked: 'Variants tracked', sources_disagree: 'Sources disagree' };

const CONFIDENCE_LABELS: Record<string, string> = { verified: 'Verified', corroborated: 'Corroborated by 2+ sources', single_source: 'Single source' };
/** A confidence level in words (`Corroborated by 2+ sources`). */
export function formatConfidence(level: string): string {
  return CONFIDENCE_LABELS[level] ?? level;
}

/** The origins in words: `a`, `a and b`, `a, b and c`. */
function originList(origins: readonly string[]): string {
  return origins.length <= 1 ? (origins[0] ?? '') : `${origins.slice(0, -1).join(', ')} and ${origins[origins.length - 1]}`;
}

/** What the evidence label means for this record: the branch of the rule it meets, naming the origins (the game page's wording). */
export function explainConfidence(b: ConfidenceBasis): string {
  const [own = '', ...others] = b.origins;
  const why =
    b.basis === 'provider_page'
      ? `a provider page read here (${own}) states this figure`
      : b.basis === 'operator'
        ? `the catalogue of ${own} and ${others.length === 1 ? 'a source of another origin' : 'sources of other origins'} (${originList(others)}) state this figure, and no source states a higher one`
        : b.basis === 'origins'
          ? `sources of ${b.origins.length} independent origins state this figure: ${originList(b.origins)}`
          : `only ${own || 'one source'} states this figure; no source of another origin confirms it`;
  return `${formatConfidence(b.level)}: ${why}`;
}

/** A badge value in words. */
export function formatBadge(badge: string): string {
  return BADGE_LABELS[badge] ?? badge;
}

const GAME_TYPE_LABELS: Record<string, string> = {
  slot: 'Slot',
  scratchcard: 'Scratchcard',
  table: 'Table game',
  video_poker: 'Video poker',
  instant: 'Instant win',
  bingo: 'Bingo',
  keno: 'Keno',
};

/** A game type in words. */
export function formatGameType(t: string): string {
  return GAME_TYPE_LABELS[t] ?? t;
}

/** The RTP range of a record: `96.21%` for one variant, `84.18% – 96.21%` for a ladder. */
export function formatRange(min: number, max: number): string {
  return min === max ? formatRtp(min) : `${formatRtp(min)} – ${formatRtp(max)}`;
}

const SOURCE_KIND_LABELS: Record<string, string> = {
  provider: "Provider's page",
  operator: "Licensed casino's catalogue",
  hand_checked: 'Hand-checked',
  catalogue: 'Catalogue',
  aggregator: 'Aggregator',
};

/** A source's tier in words (the order of trust: provider's page, hand-checked, catalogue, aggregator). */
export function formatSourceKind(kind: string): string {
  return SOURCE_KIND_LABELS[kind] ?? kind;
}

/** The host of a URL (`www.playngo.com`), or the text itself when it is not a URL: a link's short text. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
