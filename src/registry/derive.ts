// Derives the public game record from an authoring game file and its provider (docs/data-model.md).
import type { GameFile, ProviderFile } from '../schemas/authoring.ts';
import type { Badge, GameRecord, SourceKind } from '../schemas/game-record.ts';
import { canonicalJson, sha256Hex } from './canonical.ts';

function bareHost(url: string): string {
  const host = new URL(url).hostname.toLowerCase();
  return host.startsWith('www.') ? host.slice(4) : host;
}

/**
 * `provider_page` when the source URL is on the provider's own website (same host or a subdomain,
 * ignoring `www.`), otherwise `third_party`.
 */
export function sourceKind(sourceUrl: string, providerWebsite: string): SourceKind {
  const source = bareHost(sourceUrl);
  const site = bareHost(providerWebsite);
  return source === site || source.endsWith(`.${site}`) ? 'provider_page' : 'third_party';
}

/**
 * Badge rules, in this order:
 * - `verified_rtp`: the stated RTP was checked (`last_verified`) against evidence that cites the
 *   provider's own game page, i.e. `source_kind` is `provider_page`.
 * - `variants_tracked`: more than one RTP variant is known.
 */
export function badgesFor(kind: SourceKind, variantsCount: number): Badge[] {
  const badges: Badge[] = [];
  if (kind === 'provider_page') badges.push('verified_rtp');
  if (variantsCount > 1) badges.push('variants_tracked');
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
  const kind = sourceKind(game.source_url, provider.website);
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
    badges: badgesFor(kind, rtps.length),
    variants: game.rtp_variants.map((v) => ({ rtp: v.rtp, kind: v.kind, jurisdiction: v.jurisdiction ?? null })),
    source_kind: kind,
    evidence_url: game.evidence_url,
    notes: game.notes,
  } satisfies GameRecord;
  base.snapshot_id = snapshotId(base);
  return base;
}
