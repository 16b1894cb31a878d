// Derives the public game record from an authoring game file and its provider (docs/data-model.md).
import type { GameFile, ProviderFile, SourceEntry } from '../schemas/authoring.ts';
import type { Badge, Confidence, GameRecord, SourceKind } from '../schemas/game-record.ts';
import { canonicalJson, sha256Hex } from './canonical.ts';
import { NO_OPERATORS, type OperatorIndex, operatorBuilds } from './operators.ts';
import { originOf } from './origin.ts';

/**
 * `provider_page` only where a provider page read here (a `provider` source) is the source URL; a
 * catalogue's citation of the provider's page, or a URL on the provider's website that this project
 * did not read, is `third_party` (the record's `sources` show the citation as "as cited by").
 */
export function sourceKind(sourceUrl: string, _providerWebsite: string | null, sources: readonly SourceEntry[] = []): SourceKind {
  return sources.some((s) => s.kind === 'provider' && s.url === sourceUrl) ? 'provider_page' : 'third_party';
}

/** Where a source's figures come from in the end (src/registry/origin.ts). */
export function sourceOrigin(s: SourceEntry): string {
  return originOf(s);
}

/** Which branch of the evidence rule a stated RTP meets (confidenceOf), with the origins that meet it. */
export interface ConfidenceBasis {
  level: Confidence;
  /** `provider_page`, `operator` (a licensed casino and another origin, none higher), `origins` (two or more), `one_origin`. */
  basis: 'provider_page' | 'operator' | 'origins' | 'one_origin';
  /** The origins of the sources that state the figure, the branch's own first (the provider page, the casino). */
  origins: string[];
}

/** A source as the evidence rule reads it: its tier, its origin and its figure (authoring and public sources both fit). */
export interface EvidenceSource {
  kind: string;
  origin: string;
  stated_rtp: number;
}

/**
 * How much evidence stands behind the stated RTP, and which branch of the rule gives it
 * (docs/data-model.md, "Evidence labels"):
 * - `verified`: a provider page read here states it; or a licensed operator states it, a source of
 *   another origin states the same figure, and no source states a higher figure for the game;
 * - `corroborated`: sources of two or more origins state it;
 * - `single_source`: otherwise.
 */
export function confidenceBasis(stated: number, sources: readonly EvidenceSource[]): ConfidenceBasis {
  const agreeing = sources.filter((s) => s.stated_rtp === stated);
  const origins = [...new Set(agreeing.map((s) => s.origin))];
  const first = (o: string) => [o, ...origins.filter((x) => x !== o)];
  const page = agreeing.find((s) => s.kind === 'provider');
  if (page !== undefined) return { level: 'verified', basis: 'provider_page', origins: first(page.origin) };
  const operator = agreeing.find((s) => s.kind === 'operator');
  if (operator !== undefined && origins.some((o) => o !== operator.origin) && sources.every((s) => s.stated_rtp <= stated))
    return { level: 'verified', basis: 'operator', origins: first(operator.origin) };
  return origins.length >= 2 ? { level: 'corroborated', basis: 'origins', origins } : { level: 'single_source', basis: 'one_origin', origins };
}

/** The evidence label of a stated RTP over authoring sources (confidenceBasis). */
export function confidenceOf(stated: number, sources: readonly SourceEntry[]): Confidence {
  return confidenceBasis(
    stated,
    sources.map((s) => ({ kind: s.kind, origin: sourceOrigin(s), stated_rtp: s.stated_rtp })),
  ).level;
}

/**
 * Badge rules, in this order:
 * - `verified_rtp`: the confidence is `verified` (confidenceOf).
 * - `variants_tracked`: more than one RTP variant is known.
 * - `sources_disagree`: a source states a figure for the game that is neither the stated RTP nor
 *   one of its published variants (a figure a configuration rule explains is a variant, no disagreement).
 */
export function badgesFor(stated: number, variants: readonly number[], sources: readonly SourceEntry[] = []): Badge[] {
  const badges: Badge[] = [];
  if (confidenceOf(stated, sources) === 'verified') badges.push('verified_rtp');
  if (variants.length > 1) badges.push('variants_tracked');
  if (sources.some((s) => s.stated_rtp !== stated && !variants.includes(s.stated_rtp))) badges.push('sources_disagree');
  return badges;
}

/**
 * `sha256:` + hex SHA-256 of the canonical JSON of the record without its `snapshot_id` and
 * `operators` (derived from `sources`, which it covers, so adding an operator file moves no game's id).
 */
export function snapshotId(record: Omit<GameRecord, 'snapshot_id' | 'operators'> & { operators?: unknown }): string {
  const { snapshot_id: _ignored, operators: _derived, ...facts } = record as GameRecord;
  return `sha256:${sha256Hex(canonicalJson(facts))}`;
}

/** Builds the public record (spec fields in spec order, then further fields) for one game; `operators` gives its operator builds. */
export function toGameRecord(game: GameFile, provider: ProviderFile, operators: OperatorIndex = NO_OPERATORS): GameRecord {
  const rtps = game.rtp_variants.map((v) => v.rtp);
  const kind = sourceKind(game.source_url, provider.website, game.sources);
  const base = {
    canonical_slug: game.canonical_slug,
    canonical_name: game.canonical_name,
    provider: game.provider,
    provider_display: provider.display,
    stated_rtp: game.stated_rtp,
    rtp_variants: rtps,
    rtp_min: rtps[0] ?? game.stated_rtp,
    rtp_max: rtps[rtps.length - 1] ?? game.stated_rtp,
    variants_count: rtps.length,
    volatility: game.volatility,
    max_win: game.max_win_x,
    release_year: game.release_year,
    game_type: game.game_type,
    last_verified: game.last_verified,
    snapshot_id: '',
    source_url: game.source_url,
    badges: badgesFor(game.stated_rtp, rtps, game.sources),
    variants: game.rtp_variants.map((v) => ({ rtp: v.rtp, kind: v.kind, jurisdiction: v.jurisdiction ?? null })),
    source_kind: kind,
    confidence: confidenceOf(game.stated_rtp, game.sources),
    studio: game.studio ?? null,
    evidence_url: game.evidence_url,
    notes: game.notes,
    sources: game.sources.map((s) => ({
      kind: s.kind,
      origin: originOf(s),
      via: s.via ?? null,
      url: s.url,
      checked_at: s.checked_at,
      stated_rtp: s.stated_rtp,
      rtp_variants: s.rtp_variants,
    })),
    operators: operatorBuilds(game, operators),
  } satisfies GameRecord;
  base.snapshot_id = snapshotId(base);
  return base;
}
