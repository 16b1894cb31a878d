// The home page's figures from the registry: the first page of the list route's default query
// (sort name, no filter) with its facets, and the registry's counts. tests/unit/site-helpers.test.ts
// checks the first page equals GET /api/rtp/list's answer byte for byte.
import type { RegistryBundle } from '../registry/bundle.ts';
import { GAME_TYPES, VOLATILITIES } from '../schemas/authoring.ts';
import { CONFIDENCE_LEVELS, OPERATOR_BUILDS } from '../schemas/game-record.ts';
import { LIST_QUERY_DEFAULTS, type ListResponse, ListResponseSchema } from '../schemas/list.ts';
import { listItemOf } from '../schemas/list-item.ts';
import { compareStrings } from '../schemas/text.ts';
import { byName } from './registry.ts';

/** Facet order (docs/api-list.md): count descending, then key. */
function byCount<T extends { count: number }>(key: (f: T) => string): (a: T, b: T) => number {
  return (a, b) => b.count - a.count || compareStrings(key(a), key(b));
}

/**
 * What GET /api/rtp/list answers without parameters but `limit`: the registry in name order, the
 * first `limit` records, every provider and game type with its count. Validated against the public schema.
 */
export function firstPage(bundle: RegistryBundle, limit: number): ListResponse {
  const display = new Map(bundle.providers.map((p) => [p.provider, p.display]));
  const providers = new Map<string, { provider: string; display: string; count: number }>();
  const types = new Map<string, number>();
  const confidences = new Map<string, number>();
  const levels = new Map<string, number>();
  for (const r of bundle.records) {
    confidences.set(r.confidence, (confidences.get(r.confidence) ?? 0) + 1);
    if (r.volatility !== null) levels.set(r.volatility, (levels.get(r.volatility) ?? 0) + 1);
    const facet = providers.get(r.provider) ?? { provider: r.provider, display: display.get(r.provider) ?? r.provider_display, count: 0 };
    facet.count++;
    providers.set(r.provider, facet);
    types.set(r.game_type, (types.get(r.game_type) ?? 0) + 1);
  }
  const total = bundle.records.length;
  return ListResponseSchema.parse({
    meta: {
      data_version: bundle.meta.data_version,
      frozen_at: bundle.meta.frozen_at,
      total,
      filtered: total,
      has_more: total > limit,
      query: { ...LIST_QUERY_DEFAULTS, limit },
    },
    facets: {
      providers: [...providers.values()].sort(byCount((f) => f.provider)),
      game_types: GAME_TYPES.filter((t) => types.has(t))
        .map((game_type) => ({ game_type, count: types.get(game_type)! }))
        .sort(byCount((f) => f.game_type)),
      // Levels by count, then in their own order (verified, corroborated, single_source).
      confidence: CONFIDENCE_LEVELS.filter((c) => confidences.has(c))
        .map((confidence) => ({ confidence, count: confidences.get(confidence)! }))
        .sort((a, b) => b.count - a.count || CONFIDENCE_LEVELS.indexOf(a.confidence) - CONFIDENCE_LEVELS.indexOf(b.confidence)),
      volatilities: VOLATILITIES.filter((v) => levels.has(v))
        .map((volatility) => ({ volatility, count: levels.get(volatility)! }))
        .sort(byCount((f) => f.volatility)),
      // Every operator and every build, zeros included (docs/api-list.md).
      operators: [...bundle.operators]
        .sort((a, b) => compareStrings(a.operator, b.operator))
        .map((o) => ({
          operator: o.operator,
          display: o.display,
          count: bundle.records.filter((r) => r.operators.some((x) => x.operator === o.operator)).length,
        })),
      operator_builds: OPERATOR_BUILDS.map((b) => ({ operator_build: b, count: bundle.records.filter((r) => r.operators.some((x) => x.build === b)).length })),
    },
    items: [...bundle.records].sort(byName).slice(0, limit).map(listItemOf),
  });
}

/** What the registry holds, for the home page (the same figures as docs/DATA.md). */
export interface RegistryCounts {
  games: number;
  providers: number;
  /** Games per confidence level. */
  verified: number;
  corroborated: number;
  singleSource: number;
  /** Games whose sources state different figures. */
  disagree: number;
}

export function registryCounts(bundle: RegistryBundle): RegistryCounts {
  const records = bundle.records;
  return {
    games: records.length,
    providers: new Set(records.map((r) => r.provider)).size,
    verified: records.filter((r) => r.confidence === 'verified').length,
    corroborated: records.filter((r) => r.confidence === 'corroborated').length,
    singleSource: records.filter((r) => r.confidence === 'single_source').length,
    disagree: records.filter((r) => r.badges.includes('sources_disagree')).length,
  };
}
