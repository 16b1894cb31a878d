// Loads the dynamic routes (list, history and identify) from a list bundle: the one way the list engine
// starts, in the server (from dist/server) and in tests and `astro dev` (from bytes the build's
// compiler made in process).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readBuildInfo } from '../routes/build-info.ts';
import { mergedSlugs } from '../routes/moved.ts';
import { siteUrl } from '../routes/urls.ts';
import { BUILD_INFO_FILE, BUNDLE_FILE, type BuildInfo, LIST_BUNDLE_FILE } from '../schemas/dist.ts';
import type { ListBundle } from '../schemas/list-bundle.ts';
import { decodeListBundle } from '../schemas/list-bundle-file.ts';
import type { ListEngine } from './engine.ts';
import { createHistoryHandler, type HistoryHandler } from './history.ts';
import { createIdentifyHandler, type IdentifyHandler } from './identify.ts';
import { createListHandler, type ListHandler, type ListHandlerOptions } from './list.ts';
import { createMemoryEngine, type MemoryEngineOptions } from './memory-engine.ts';
import { createMovedLookup, type MovedLookup } from './moved.ts';
import { createOembedHandler, type OembedHandler } from './oembed.ts';

/** The dynamic routes over one list bundle. */
export interface RegistryServices {
  /** The registry's meta: data version, freeze time, licence and attribution. */
  meta: ListBundle['meta'];
  dataVersion: string;
  frozenAt: string;
  games: number;
  engine: ListEngine;
  list: ListHandler;
  history: HistoryHandler;
  identify: IdentifyHandler;
  /** GET /api/oembed (src/list/oembed.ts). */
  oembed: OembedHandler;
  /** The redirect of a URL naming a slug merged into another record, or null (src/list/moved.ts). */
  moved: MovedLookup;
  /** The surviving slug of each slug merged into another record (src/routes/moved.ts `mergedSlugs`). */
  survivors: ReadonlyMap<string, string>;
}

/** `site`: the registry's base URL the build was made for (build-info.json; default RTP_SITE), which oEmbed answers for. */
export type ServiceOptions = MemoryEngineOptions & ListHandlerOptions & { site?: string };

/** The engine and both handlers over a list bundle's bytes (views into `bytes`, no copies). */
export function openServices(bytes: Uint8Array, options: ServiceOptions = {}): RegistryServices {
  const bundle: ListBundle = decodeListBundle(bytes);
  const engine = createMemoryEngine(bundle, options);
  const survivors = mergedSlugs(bundle.history, (slug) => engine.indexOfSlug(slug) >= 0);
  return {
    meta: bundle.meta,
    dataVersion: bundle.dataVersion,
    frozenAt: bundle.frozenAt,
    games: engine.total,
    engine,
    list: createListHandler(engine, options, bundle.history, survivors),
    history: createHistoryHandler(bundle.meta, bundle.history),
    identify: createIdentifyHandler(engine, survivors),
    oembed: createOembedHandler(engine, options.site ?? siteUrl(), survivors),
    moved: createMovedLookup(survivors),
    survivors,
  };
}

function rebuild(file: string, why: string): Error {
  return new Error(`The list bundle ${file} ${why}: rebuild with \`npm run build\`.`);
}

/**
 * Loads the services of the build in `serverDir` (dist/server or a release's server/): reads
 * list-bundle.bin and checks it belongs to this build: its data version, freeze time and game count
 * must equal build-info.json's, and registry-bundle.json must have the size it was compiled from
 * (the full hash is dist-check's job). Throws a one-line error naming `npm run build` otherwise
 * (a BuildInfoError when build-info.json itself is missing or invalid).
 * `buildInfo`: the build record (routes/build-info.ts `readBuildInfo`) when the caller reads it anyway.
 */
export async function loadServices(
  serverDir: string,
  options: ServiceOptions = {},
  buildInfo: Promise<BuildInfo> = readBuildInfo(serverDir),
): Promise<RegistryServices> {
  const file = path.join(serverDir, LIST_BUNDLE_FILE);
  const infoFile = path.join(serverDir, BUILD_INFO_FILE);
  const [bytes, info, bundleStat] = await Promise.all([
    readFile(file).catch(() => null),
    // Settled here, thrown below: a missing list bundle is reported first.
    buildInfo.catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))),
    stat(path.join(serverDir, BUNDLE_FILE)).catch(() => null),
  ]);
  if (bytes === null) throw rebuild(file, 'is missing');
  let bundle: ListBundle;
  try {
    bundle = decodeListBundle(bytes);
  } catch (err) {
    throw rebuild(file, `cannot be read (${(err as Error).message})`);
  }
  if (info instanceof Error) throw info;
  if (info.data_version !== bundle.dataVersion || info.frozen_at !== bundle.frozenAt || info.games !== bundle.total) {
    throw rebuild(
      file,
      `does not match ${infoFile} (data ${bundle.dataVersion} frozen ${bundle.frozenAt}, ${bundle.total} games; build-info: data ${info.data_version} frozen ${info.frozen_at}, ${info.games} games)`,
    );
  }
  if (bundleStat === null || bundleStat.size !== bundle.source.bytes) {
    throw rebuild(
      file,
      `was compiled from another ${BUNDLE_FILE} (${bundle.source.bytes} bytes, found ${bundleStat === null ? 'none' : `${bundleStat.size} bytes`})`,
    );
  }
  return openServices(bytes, { ...options, site: info.site });
}
