// Renders every per-game and per-provider response, validates it against its public schema, and writes
// the files into the build output (paths from src/routes/routes.ts `files`):
//
//   dist/client/api/rtp/{slug}                 single-slot record (JSON, no extension)
//   dist/client/api/widget/rtp/{slug}          widget data (JSON, no extension)
//   dist/client/widget/rtp/{slug}.html         widget page (GET /widget/rtp/{slug})
//   dist/client/api/badge/rtp/{slug}.svg       RTP badge (src/emit/badge.ts)
//   dist/client/api/feeds/game/{slug}.atom     the game's Atom feed (src/emit/feeds.ts)
//   dist/client/api/feeds/provider/{p}.atom    the provider's Atom feed
//   dist/client/api/rtp/provider/{provider}    provider record (JSON, no extension)
//   dist/client/api/rtp/operator/{operator}    operator record (JSON, no extension)
//   dist/client/api/feeds/operator/{o}.atom    the operator's Atom feed (src/emit/operator-feed.ts)
//   dist/client/_headers                       CDN headers, page rules included (src/emit/headers.ts)
//   dist/client/_redirects                     CDN redirects of merged slugs (src/emit/redirects.ts)
//   dist/client/api/rtp/dump/*, api/rtp/removed  bulk downloads, release diffs, tombstones (src/emit/dumps.ts)
//   dist/server/registry-bundle.json           the Node server's data (src/registry/bundle.ts)
//   dist/server/build-info.json                site and counts of this build (dist-check reads it)
//   dist/edge/nginx.conf                       the edge's nginx configuration (src/emit/nginx.ts)
import { mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeBundle, type RegistryBundle } from '../registry/bundle.ts';
import type { Registry } from '../registry/load.ts';
import { type Problem, zodProblems } from '../registry/problems.ts';
import { makeContext, type ShapeContext, shapeProvider, shapeSlot, shapeWidgetData } from '../registry/shape.ts';
import { shapeOperator } from '../registry/shape-operator.ts';
import { mergedSlugs } from '../routes/moved.ts';
import { files } from '../routes/paths.ts';
import { servedFiles } from '../routes/served-files.ts';
import { BUILD_INFO_FILE, BUNDLE_FILE, type BuildInfo } from '../schemas/dist.ts';
import type { GameRecord } from '../schemas/game-record.ts';
import { OperatorRecordSchema } from '../schemas/operator.ts';
import { ProviderRecordSchema } from '../schemas/provider.ts';
import { SlotRecordSchema } from '../schemas/slot.ts';
import { WidgetDataSchema } from '../schemas/widget.ts';
import { renderBadge } from './badge.ts';
import { renderDumps } from './dumps.ts';
import { type FeedIndex, feedIndex, gameFeed, providerFeed } from './feeds.ts';
import { HEADERS_FILE, pageRules, renderHeadersFile } from './headers.ts';
import { listBundleBytes } from './list/list-bundle.ts';
import { EDGE_DIR, NGINX_CONF_FILE, renderNginxConf } from './nginx.ts';
import { operatorFeed } from './operator-feed.ts';
import { REDIRECTS_FILE, renderRedirectsFile } from './redirects.ts';
import { renderWidget } from './widget.ts';

/** The emitted file families checked by dist-check (each one directory under dist/client). */
export type EmitFamily = 'slot' | 'widget_data' | 'widget' | 'badge' | 'game_feed' | 'provider' | 'provider_feed' | 'operator' | 'operator_feed';

/** One file to write: its family and path under dist/client, and its exact text. */
export interface OutputFile {
  family: EmitFamily;
  file: string;
  text: string;
}

/** A registry made ready to render: the server bundle (public records), the shaping context and the merged slugs. */
export interface PreparedBuild {
  site: string;
  bundle: RegistryBundle;
  ctx: ShapeContext;
  /** Each merged slug's survivor, from the bundle's history as the server reads it (src/routes/moved.ts). */
  merged: ReadonlyMap<string, string>;
}

/** Derives the public records once and builds the shaping context. */
export function prepareBuild(registry: Registry, site: string): PreparedBuild {
  return prepareBundle(makeBundle(registry), site);
}

/** The same for a registry bundle already made (the staged writer's, read from its serialised form). */
export function prepareBundle(bundle: RegistryBundle, site: string): PreparedBuild {
  const slugs = new Set(bundle.records.map((r) => r.canonical_slug));
  return { site, bundle, ctx: makeContext(bundle, site), merged: mergedSlugs(bundle.history, (slug) => slugs.has(slug)) };
}

/** Compact JSON in the value's own key order, no trailing newline: the bytes of every static JSON file. */
export function serialise(value: unknown): string {
  return JSON.stringify(value);
}

/** The list bundle's bytes for a registry bundle held in memory, as the build writes them beside registry-bundle.json. */
export function listBundleOf(bundle: RegistryBundle): Uint8Array {
  return listBundleBytes(bundle, Buffer.from(serialise(bundle), 'utf8'));
}

/**
 * Shapes every response and validates it against its public schema; returns every problem, each
 * naming the response file (which carries the slug or provider key) and the field.
 */
export function validateBuild(prep: PreparedBuild): Problem[] {
  const problems: Problem[] = [];
  const { ctx } = prep;
  for (const record of prep.bundle.records) {
    const slug = record.canonical_slug;
    let slot: unknown;
    try {
      slot = shapeSlot(ctx, record);
    } catch (err) {
      problems.push({ file: files.slot(slug), field: '(response)', reason: (err as Error).message });
      continue;
    }
    const s = SlotRecordSchema.safeParse(slot);
    if (!s.success) problems.push(...zodProblems(files.slot(slug), s.error, '(response)'));
    const w = WidgetDataSchema.safeParse(shapeWidgetData(ctx, record));
    if (!w.success) problems.push(...zodProblems(files.widgetData(slug), w.error, '(response)'));
  }
  for (const p of prep.bundle.providers) {
    const r = ProviderRecordSchema.safeParse(shapeProvider(ctx, p.provider));
    if (!r.success) problems.push(...zodProblems(files.provider(p.provider), r.error, '(response)'));
  }
  for (const o of prep.bundle.operators) {
    const r = OperatorRecordSchema.safeParse(shapeOperator(ctx, o, prep.bundle.records));
    if (!r.success) problems.push(...zodProblems(files.operator(o.operator), r.error, '(response)'));
  }
  return problems;
}

/** Throws one error listing every problem of `validateBuild` (stable name `BuildOutputError`). */
export function assertValidBuild(prep: PreparedBuild): void {
  const problems = validateBuild(prep);
  if (problems.length === 0) return;
  const err = new Error(
    `Invalid build output (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
      problems.map((p) => `${p.file}: ${p.field}: ${p.reason}`).join('\n'),
  );
  err.name = 'BuildOutputError';
  throw err;
}

/** The five files of one game. */
export function renderGame(ctx: ShapeContext, feeds: FeedIndex, record: GameRecord): OutputFile[] {
  const slug = record.canonical_slug;
  const widget = shapeWidgetData(ctx, record);
  return [
    { family: 'slot', file: files.slot(slug), text: serialise(shapeSlot(ctx, record)) },
    { family: 'widget_data', file: files.widgetData(slug), text: serialise(widget) },
    { family: 'widget', file: files.widget(slug), text: renderWidget(widget) },
    { family: 'badge', file: files.badge(slug), text: renderBadge(record) },
    { family: 'game_feed', file: files.gameFeed(slug), text: gameFeed(feeds, record) },
  ];
}

/** Every emitted file of the families, games in slug order, then providers and operators in key order (lazily, to bound memory). */
export function* renderAll(prep: PreparedBuild): Generator<OutputFile> {
  const feeds = feedIndex(prep.bundle, prep.site);
  for (const record of prep.bundle.records) yield* renderGame(prep.ctx, feeds, record);
  for (const p of prep.bundle.providers) {
    yield { family: 'provider', file: files.provider(p.provider), text: serialise(shapeProvider(prep.ctx, p.provider)) };
    yield { family: 'provider_feed', file: files.providerFeed(p.provider), text: providerFeed(feeds, p) };
  }
  for (const o of prep.bundle.operators) {
    const record = shapeOperator(prep.ctx, o, prep.bundle.records);
    yield { family: 'operator', file: files.operator(o.operator), text: serialise(record) };
    yield { family: 'operator_feed', file: files.operatorFeed(o.operator), text: operatorFeed(record, prep.site, feeds.hub) };
  }
}

/** The directories under dist/client that hold the emitted families. */
export const FAMILY_DIRS: Record<EmitFamily, string> = {
  slot: path.posix.dirname(files.slot('x')),
  widget_data: path.posix.dirname(files.widgetData('x')),
  widget: path.posix.dirname(files.widget('x')),
  badge: path.posix.dirname(files.badge('x')),
  game_feed: path.posix.dirname(files.gameFeed('x')),
  provider_feed: path.posix.dirname(files.providerFeed('x')),
  provider: path.posix.dirname(files.provider('x')),
  operator: path.posix.dirname(files.operator('x')),
  operator_feed: path.posix.dirname(files.operatorFeed('x')),
};

/** The build's record of itself. */
export function buildInfo(prep: PreparedBuild): BuildInfo {
  const { meta, records, providers } = prep.bundle;
  return { format: 1, site: prep.site, data_version: meta.data_version, frozen_at: meta.frozen_at, games: records.length, providers: providers.length };
}

/**
 * Writes all of `items`, one after another (the directories must exist). Synchronous on purpose:
 * creating hundreds of thousands of small files is kernel work that concurrent writes only make
 * contend (several threads creating entries in one directory): at 50k games, up to 64 promise
 * writes in flight took two to four times the system time of this loop.
 */
export function writeAll(root: string, items: Iterable<{ file: string; text: string }>): number {
  let count = 0;
  for (const item of items) {
    writeFileSync(path.join(root, item.file), item.text);
    count++;
  }
  return count;
}

/** Writes every file of the families (the per-game and per-provider files) under `clientDir`; returns how many. */
export function writeFamiliesSync(prep: PreparedBuild, clientDir: string): number {
  for (const dir of Object.values(FAMILY_DIRS)) mkdirSync(path.join(clientDir, dir), { recursive: true });
  return writeAll(clientDir, renderAll(prep));
}

/** Writes the dumps, the registry bundle (`bundleText`: its serialised form, if already made) and build-info; returns how many files. */
export async function writeExtras(prep: PreparedBuild, clientDir: string, serverDir: string, bundleText: string = serialise(prep.bundle)): Promise<number> {
  mkdirSync(serverDir, { recursive: true });
  const dumps = renderDumps(prep.bundle, prep.site);
  for (const d of dumps) {
    mkdirSync(path.dirname(path.join(clientDir, d.file)), { recursive: true });
    await writeFile(path.join(clientDir, d.file), d.bytes);
  }
  await writeFile(path.join(serverDir, BUNDLE_FILE), bundleText);
  await writeFile(path.join(serverDir, BUILD_INFO_FILE), serialise(buildInfo(prep)));
  return 2 + dumps.length;
}

/**
 * Writes `_headers`, `_redirects` and the edge's nginx.conf (beside `serverDir`: dist/edge) for the
 * files in `clientDir`: call it once every page is written. Returns how many files (3).
 */
export async function writeRouteFiles(prep: PreparedBuild, clientDir: string, serverDir: string): Promise<number> {
  const served = servedFiles(clientDir);
  await writeFile(path.join(clientDir, HEADERS_FILE), renderHeadersFile(pageRules(served), new URL(prep.site).origin));
  await writeFile(path.join(clientDir, REDIRECTS_FILE), renderRedirectsFile(prep.merged));
  const edgeDir = path.join(path.dirname(serverDir), EDGE_DIR);
  mkdirSync(edgeDir, { recursive: true });
  await writeFile(path.join(edgeDir, NGINX_CONF_FILE), renderNginxConf(served, prep.site, prep.merged));
  return 3;
}

/** Writes every emitted file, `_headers`, `_redirects`, nginx.conf, the registry bundle and build-info; returns the number of files written. */
export async function writeBuild(prep: PreparedBuild, clientDir: string, serverDir: string, bundleText?: string): Promise<number> {
  const count = writeFamiliesSync(prep, clientDir) + (await writeExtras(prep, clientDir, serverDir, bundleText));
  return count + (await writeRouteFiles(prep, clientDir, serverDir));
}
