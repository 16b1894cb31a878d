// Derives the public game record from an authoring game file and its provider (docs/data-model.md).
import type { GameFile, ProviderFile, SourceEntry } from '../schemas/authoring.ts';
import type { Badge, Confidence, GameRecord, SourceKind } from '../schemas/game-record.ts';
import { canonicalJson, sha256Hex } from './canonical.ts';

function bareHost(url: string): string {
  const host = new URL(url).hostname.toLowerCase();
  return host.startsWith('www.') ? host.slice(4) : host;
}

/**
 * `provider_page` when the source URL is on the provider's own website (same host or a subdomain,
 * ignoring `www.`), otherwise `third_party`. Without a known website, `provider_page` only when a
 * source of the provider tier cites that very URL.
 */
export function sourceKind(sourceUrl: string, providerWebsite: string | null, sources: readonly SourceEntry[] = []): SourceKind {
  if (sources.some((s) => s.kind === 'provider' && s.url === sourceUrl)) return 'provider_page';
  if (providerWebsite === null) return 'third_party';
  const source = bareHost(sourceUrl);
  const site = bareHost(providerWebsite);
  return source === site || source.endsWith(`.${site}`) ? 'provider_page' : 'third_party';
}

/**
 * Where a source's figures come from, for telling independent sources apart: its pinned file,
 * except that a hand-checked row whose evidence is the Slotfolio catalogue is that catalogue.
 */
export function sourceOrigin(s: SourceEntry): string {
  if (s.kind === 'hand_checked' && /github\.com\/Pr0ject2\/slotfolio\//i.test(s.url)) return 'sources/slotfolio.jsonl';
  return s.file;
}

/**
 * How much evidence stands behind the stated RTP:
 * - `verified`: a provider page read here (a `provider` source) or the hand-checked seed states it;
 * - `corroborated`: two or more independent sources (different origins, see sourceOrigin) state it;
 * - `single_source`: one source line states it.
 */
export function confidenceOf(stated: number, sources: readonly SourceEntry[]): Confidence {
  const agreeing = sources.filter((s) => s.stated_rtp === stated);
  if (agreeing.some((s) => s.kind === 'provider' || s.kind === 'hand_checked')) return 'verified';
  return new Set(agreeing.map(sourceOrigin)).size >= 2 ? 'corroborated' : 'single_source';
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

/** `sha256:` + hex SHA-256 of the canonical JSON of the record without its `snapshot_id`. */
export function snapshotId(record: Omit<GameRecord, 'snapshot_id'>): string {
  const { snapshot_id: _ignored, ...facts } = record as GameRecord;
  return `sha256:${sha256Hex(canonicalJson(facts))}`;
}

/** Builds the public record (spec fields in spec order, then further fields) for one game. */
export function toGameRecord(game: GameFile, provider: ProviderFile): GameRecord {
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
    sources: game.sources.map((s) => ({ kind: s.kind, via: s.via ?? null, url: s.url, checked_at: s.checked_at, stated_rtp: s.stated_rtp, rtp_variants: s.rtp_variants })),
  } satisfies GameRecord;
  base.snapshot_id = snapshotId(base);
  return base;
}
