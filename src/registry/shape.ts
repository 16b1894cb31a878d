// Pure shaping of the static JSON responses: single-slot record, widget data, provider record.
// Emits no files; src/emit/emit.ts renders and writes what these functions return.

import { escapeHtml } from '../lib/html.ts';
import { pageUrl, REGISTRY_NAME, widgetUrl } from '../routes/urls.ts';
import { GAME_TYPES, type HistoryEntry, type ProviderFile, type RegistryFile } from '../schemas/authoring.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import type { ProviderRecord } from '../schemas/provider.ts';
import type { License, ProviderMeta, SlotHistoryEntry, SlotRecord } from '../schemas/slot.ts';
import type { WidgetData } from '../schemas/widget.ts';

/** Everything the shaping functions need besides one record; built once per build by `makeContext`. */
export interface ShapeContext {
  site: string;
  meta: RegistryFile;
  license: License;
  providers: Map<string, ProviderFile>;
  providerMeta: Map<string, ProviderMeta>;
  /** Public records per provider key, in slug order. */
  gamesByProvider: Map<string, GameRecord[]>;
  /** History entries per slug, newest first. */
  historyBySlug: Map<string, SlotHistoryEntry[]>;
}

/** What `makeContext` reads: the registry bundle has exactly these fields (src/registry/bundle.ts). */
export interface ShapeInput {
  meta: RegistryFile;
  providers: ProviderFile[];
  /** Public records sorted by slug. */
  records: GameRecord[];
  /** The history log in file order (oldest first). */
  history: HistoryEntry[];
}

/** Rounds to 2 decimals, absorbing binary noise first (100 - 96.21 = 3.79, not 3.7900000000000063). */
export function round2(x: number): number {
  const r = Math.round(Number((x * 100).toPrecision(12))) / 100;
  return r === 0 ? 0 : r; // no -0 in JSON output
}

function parseVersion(v: string): number[] {
  return v.split('.').map(Number);
}

/** Orders dotted three-part versions numerically (1.10.0 after 1.9.0). */
export function compareVersion(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Groups the history log by slug, newest data_version first; entries of one version keep
 * their log order (stated_rtp before rtp_variants, as written by data:freeze).
 */
export function historyBySlug(history: readonly HistoryEntry[]): Map<string, SlotHistoryEntry[]> {
  const out = new Map<string, SlotHistoryEntry[]>();
  for (const e of history) {
    let list = out.get(e.slug);
    if (list === undefined) out.set(e.slug, (list = []));
    list.push({ data_version: e.data_version, frozen_at: e.frozen_at, field: e.field, from: e.from, to: e.to });
  }
  for (const list of out.values()) list.sort((a, b) => compareVersion(b.data_version, a.data_version)); // stable sort
  return out;
}

/** The licence block of every static JSON response. */
export function licenseOf(meta: RegistryFile): License {
  return { id: meta.license, url: meta.license_url, attribution: meta.attribution };
}

/** Builds the shaping context once: provider figures, per-provider game lists and per-slug history. */
export function makeContext(input: ShapeInput, site: string): ShapeContext {
  const providers = new Map(input.providers.map((p) => [p.provider, p]));
  const gamesByProvider = new Map<string, GameRecord[]>();
  for (const r of input.records) {
    let list = gamesByProvider.get(r.provider);
    if (list === undefined) gamesByProvider.set(r.provider, (list = []));
    list.push(r);
  }
  const providerMeta = new Map<string, ProviderMeta>();
  for (const p of input.providers) {
    const games = gamesByProvider.get(p.provider) ?? [];
    let min = Infinity;
    let max = -Infinity;
    for (const g of games) {
      if (g.stated_rtp < min) min = g.stated_rtp;
      if (g.stated_rtp > max) max = g.stated_rtp;
    }
    if (games.length > 0) {
      providerMeta.set(p.provider, { provider: p.provider, display: p.display, website: p.website, games_count: games.length, rtp_min: min, rtp_max: max });
    }
  }
  return { site, meta: input.meta, license: licenseOf(input.meta), providers, providerMeta, gamesByProvider, historyBySlug: historyBySlug(input.history) };
}

/** The short attribution text shown under embeds and in the widget. */
export const ATTRIBUTION_TEXT = `${REGISTRY_NAME} · CC BY 4.0`;

/**
 * The ready embed snippet: the widget iframe (width 100%, height 220, frameborder 0, loading lazy,
 * a title; `v` carries the data version to bust caches) and the attribution link to the game's page.
 */
export function embedHtml(record: Pick<GameRecord, 'canonical_slug' | 'canonical_name'>, site: string, dataVersion: string): string {
  const name = escapeHtml(record.canonical_name);
  const src = escapeHtml(`${widgetUrl(site, record.canonical_slug)}?v=${dataVersion}`);
  const href = escapeHtml(pageUrl(site, record.canonical_slug));
  return (
    `<iframe src="${src}" width="100%" height="220" frameborder="0" loading="lazy" title="${name} RTP · ${escapeHtml(REGISTRY_NAME)}"></iframe>` +
    `<p><a href="${href}">${name} RTP · ${escapeHtml(ATTRIBUTION_TEXT)}</a></p>`
  );
}

/** One citation line: game, provider, stated RTP, source URL, registry name and page, data version, licence. */
export function citation(record: GameRecord, site: string, dataVersion: string): string {
  return (
    `${record.canonical_name} (${record.provider_display}): stated RTP ${record.stated_rtp}%. ` +
    `Source: ${record.source_url}. ${REGISTRY_NAME}, data version ${dataVersion}, ${pageUrl(site, record.canonical_slug)}, CC BY 4.0.`
  );
}

function providerMetaOf(ctx: ShapeContext, key: string): ProviderMeta {
  const meta = ctx.providerMeta.get(key);
  if (meta === undefined) throw new Error(`unknown provider "${key}"`);
  return meta;
}

/** The single-slot record (GET /api/rtp/{slug}): the public record, then provider meta and derived fields. */
export function shapeSlot(ctx: ShapeContext, record: GameRecord): SlotRecord {
  const { site, meta } = ctx;
  return {
    ...record,
    provider_meta: providerMetaOf(ctx, record.provider),
    house_edge: round2(100 - record.stated_rtp),
    rtp_spread: round2(record.rtp_max - record.rtp_min),
    history: ctx.historyBySlug.get(record.canonical_slug) ?? [],
    widget_url: widgetUrl(site, record.canonical_slug),
    embed_html: embedHtml(record, site, meta.data_version),
    page_url: pageUrl(site, record.canonical_slug),
    citation: citation(record, site, meta.data_version),
    license: ctx.license,
    data_version: meta.data_version,
    frozen_at: meta.frozen_at,
  };
}

/** The widget data (GET /api/widget/rtp/{slug}): exactly what the widget page shows. */
export function shapeWidgetData(ctx: ShapeContext, record: GameRecord): WidgetData {
  const page = pageUrl(ctx.site, record.canonical_slug);
  return {
    slug: record.canonical_slug,
    name: record.canonical_name,
    provider: record.provider,
    provider_display: record.provider_display,
    stated_rtp: record.stated_rtp,
    rtp_min: record.rtp_min,
    rtp_max: record.rtp_max,
    rtp_variants: record.rtp_variants,
    confidence: record.confidence,
    operators: record.operators.map((o) => ({ operator: o.operator, display: o.display, rtp: o.rtp, build: o.build, pinned_at: o.source.pinned_at })),
    last_verified: record.last_verified,
    source_url: record.source_url,
    page_url: page,
    widget_url: widgetUrl(ctx.site, record.canonical_slug),
    attribution: { text: ATTRIBUTION_TEXT, url: page, license: ctx.meta.license, license_url: ctx.meta.license_url },
    data_version: ctx.meta.data_version,
  };
}

/** Median of numbers sorted ascending (the mean of the middle two for an even count). */
export function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The provider record (GET /api/rtp/provider/{provider}); a provider without games has zero counts and null statistics. */
export function shapeProvider(ctx: ShapeContext, key: string): ProviderRecord {
  const provider = ctx.providers.get(key);
  if (provider === undefined) throw new Error(`unknown provider "${key}"`);
  const games = ctx.gamesByProvider.get(key) ?? [];
  const byType = new Map<string, number>(GAME_TYPES.map((t) => [t, 0]));
  const rtps: number[] = [];
  let sum = 0;
  let multi = 0;
  for (const g of games) {
    byType.set(g.game_type, byType.get(g.game_type)! + 1);
    rtps.push(g.stated_rtp);
    sum += g.stated_rtp;
    if (g.variants_count > 1) multi++;
  }
  rtps.sort((a, b) => a - b);
  return {
    meta: { provider: provider.provider, display: provider.display, website: provider.website },
    data_version: ctx.meta.data_version,
    frozen_at: ctx.meta.frozen_at,
    games_count: games.length,
    game_types: GAME_TYPES.map((t) => ({ game_type: t, count: byType.get(t)! })),
    rtp_stats: games.length === 0 ? null : { min: rtps[0]!, max: rtps[rtps.length - 1]!, mean: round2(sum / games.length), median: round2(median(rtps)) },
    multi_variant_count: multi,
    games: games.map((g) => ({ slug: g.canonical_slug, name: g.canonical_name, stated_rtp: g.stated_rtp })),
    license: ctx.license,
  };
}
