// Pure shaping of the operator record (GET /api/rtp/operator/{operator}) from the public records.
import type { OperatorFile } from '../schemas/authoring.ts';
import type { GameRecord, OperatorBuildKind } from '../schemas/game-record.ts';
import { type BuildCounts, OBSERVATION_NOTE, type OperatorRecord } from '../schemas/operator.ts';
import { round2, type ShapeContext } from './shape.ts';

/** Counts of `games` by the builds observed (the summary's, the feed's per pinned date). */
export function buildCounts(games: ReadonlyArray<{ builds: ReadonlyArray<{ build: OperatorBuildKind }> }>): BuildCounts {
  const has = (g: (typeof games)[number], b: OperatorBuildKind) => g.builds.some((x) => x.build === b);
  return {
    games_observed: games.length,
    at_top: games.filter((g) => has(g, 'top')).length,
    at_lower: games.filter((g) => has(g, 'lower')).length,
    at_higher: games.filter((g) => has(g, 'higher')).length,
  };
}

/** How far a build at `rtp` runs under the stated RTP, in points (2 decimals). */
export function gapPoints(stated: number, rtp: number): number {
  return round2(stated - rtp);
}

/** How far under the stated RTP each lower build of `games` runs (gapPoints), in the games' order. */
export function lowerGaps(games: OperatorRecord['games']): number[] {
  return games.flatMap((g) => g.builds.filter((b) => b.build === 'lower').map((b) => gapPoints(g.stated_rtp, b.rtp)));
}

/** The mean and the largest of `gaps` (2 decimals), null without one: the summary's `gap_mean` and `gap_max`. */
export function gapStats(gaps: readonly number[]): { gap_mean: number | null; gap_max: number | null } {
  if (gaps.length === 0) return { gap_mean: null, gap_max: null };
  return { gap_mean: round2(gaps.reduce((a, b) => a + b, 0) / gaps.length), gap_max: Math.max(...gaps) };
}

/** The operator record: its meta, a summary of the builds observed (by provider too) and its games with their builds, by slug. */
export function shapeOperator(ctx: ShapeContext, operator: OperatorFile, records: readonly GameRecord[]): OperatorRecord {
  const games: OperatorRecord['games'] = [];
  for (const r of records) {
    const builds = r.operators.filter((o) => o.operator === operator.operator).map(({ operator: _o, display: _d, market: _m, ...build }) => build);
    if (builds.length > 0) games.push({ slug: r.canonical_slug, name: r.canonical_name, provider: r.provider, stated_rtp: r.stated_rtp, builds });
  }
  const providerKeys = [...new Set(games.map((g) => g.provider))].sort();
  return {
    meta: {
      operator: operator.operator,
      display: operator.display,
      market: operator.market,
      licence: operator.licence,
      licensing_authority: operator.licensing_authority,
      website: operator.website,
      sources: operator.sources.map((s) => ({ file: s.file, pinned_at: s.pinned_at })),
    },
    note: OBSERVATION_NOTE,
    data_version: ctx.meta.data_version,
    frozen_at: ctx.meta.frozen_at,
    summary: {
      ...buildCounts(games),
      observations: games.reduce((n, g) => n + g.builds.length, 0),
      ...gapStats(lowerGaps(games)),
      by_provider: providerKeys.map((p) => ({
        provider: p,
        display: ctx.providers.get(p)?.display ?? p,
        ...buildCounts(games.filter((g) => g.provider === p)),
      })),
    },
    games,
    license: ctx.license,
  };
}
