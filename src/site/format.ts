// Display formatting shared by the registry pages (Astro pages and the string-rendered game pages).

import { percent } from '../lib/percent.ts';
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
const CONFIDENCE_WHY: Record<string, string> = {
  verified:
    "a provider page read here states this figure, or a licensed casino's catalogue and a source of another origin both state it and no source states a higher one",
  corroborated: 'sources of two or more independent origins state this figure',
  single_source: 'one source line states this figure, and no other source confirms it',
};

/** A confidence level in words (`Corroborated by 2+ sources`). */
export function formatConfidence(level: string): string {
  return CONFIDENCE_LABELS[level] ?? level;
}

/** A confidence level with what it means (the game page's wording). */
export function explainConfidence(level: string): string {
  return `${formatConfidence(level)}: ${CONFIDENCE_WHY[level] ?? ''}`;
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
