// The registry as the pages see it: loaded once per build process and indexed for page rendering.

import { makeBundle, type RegistryBundle } from '../registry/bundle.ts';
import { dataDir, loadRegistryOrThrow } from '../registry/load.ts';
import { makeContext, median, round2, type ShapeContext, shapeProvider } from '../registry/shape.ts';
import { shapeOperator } from '../registry/shape-operator.ts';
import { siteUrl } from '../routes/urls.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import type { OperatorRecord } from '../schemas/operator.ts';
import type { ProviderRecord } from '../schemas/provider.ts';
import type { SlotHistoryEntry } from '../schemas/slot.ts';
import { compareStrings, fold } from '../schemas/text.ts';

/** A provider page's content: the provider record (as GET /api/rtp/provider/{provider}) and its games by name. */
export interface ProviderSummary {
  record: ProviderRecord;
  /** The provider's public records, in name order. */
  games: GameRecord[];
}

/** Everything the registry pages render from. */
export interface SiteData {
  bundle: RegistryBundle;
  /** Base URL for absolute links (RTP_SITE). */
  site: string;
  /** History entries per slug, newest first (as in GET /api/rtp/{slug}). */
  historyBySlug: Map<string, SlotHistoryEntry[]>;
  providers: ProviderSummary[];
  /** Each operator's record, as GET /api/rtp/operator/{operator} answers it, in key order. */
  operators: OperatorRecord[];
  /** Median stated RTP of every game in the registry, rounded as a provider's `rtp_stats.median` (the provider pages compare the two). */
  statedMedian: number;
}

/** Name order, as the list route's `sort=name`: folded name (case and accents ignored), ties by slug. */
export function byName(a: GameRecord, b: GameRecord): number {
  const an = fold(a.canonical_name);
  const bn = fold(b.canonical_name);
  return compareStrings(an, bn) || compareStrings(a.canonical_slug, b.canonical_slug);
}

/** Indexes a bundle for the pages (`ctx`: the build's shaping context for the same bundle, when at hand). */
export function indexBundle(bundle: RegistryBundle, site: string, ctx: ShapeContext = makeContext(bundle, site)): SiteData {
  const providers = bundle.providers.map((p) => ({
    record: shapeProvider(ctx, p.provider),
    games: (ctx.gamesByProvider.get(p.provider) ?? []).slice().sort(byName),
  }));
  return {
    bundle,
    site,
    historyBySlug: ctx.historyBySlug,
    providers,
    operators: bundle.operators.map((o) => shapeOperator(ctx, o, bundle.records)),
    statedMedian: round2(median(bundle.records.map((r) => r.stated_rtp).sort((a, b) => a - b))),
  };
}

// One load per build process, shared by the Astro pages (bundled by Vite), the pages integration
// and the rtp-registry integration (each a separate module instance), so it lives on globalThis.
const CACHE = Symbol.for('rtp-registry.site-data');
type Cache = Map<string, Promise<SiteData>>;

function cache(): Cache {
  const g = globalThis as unknown as Record<symbol, Cache | undefined>;
  return (g[CACHE] ??= new Map());
}

const keyOf = (dir: string, site: string) => `${dir}\u0000${site}`;

/**
 * Hands the registry the build already loaded and validated (src/emit/integration.ts) to the pages,
 * so a 50k-game registry is read once per build.
 */
export function sharePreparedBuild(dir: string, prepared: { site: string; bundle: RegistryBundle; ctx: ShapeContext }): void {
  cache().set(keyOf(dir, prepared.site), Promise.resolve(indexBundle(prepared.bundle, prepared.site, prepared.ctx)));
}

/** The registry in `dir` (default: `RTP_DATA_DIR` or data/) for the pages: shared by the build, or loaded once per process. */
export function siteData(dir: string = dataDir()): Promise<SiteData> {
  const site = siteUrl();
  const key = keyOf(dir, site);
  let entry = cache().get(key);
  if (!entry) {
    entry = loadRegistryOrThrow(dir).then((registry) => indexBundle(makeBundle(registry), site));
    cache().set(key, entry);
  }
  return entry;
}
