// `npm run release` and `--rollback` as plain functions: validate the data, build into a staging
// folder, check it, name it by data version and content hash, write its manifest against the
// release now serving, then switch `current` atomically and apply retention. Any failure before the
// switch leaves `current` untouched; the build and check steps are injected (the CLI spawns
// `astro build` and dist-check; unit tests pass fakes).
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { syncDir, syncTree, toDataJson, writeFileAtomic } from '../lib/write.ts';
import { loadRegistry } from '../registry/load.ts';
import { formatProblems } from '../registry/problems.ts';
import { readBuildInfo } from '../routes/build-info.ts';
import { type ReleaseInfo, ReleaseInfoSchema, type ReleaseManifest, ReleaseManifestSchema } from '../schemas/release.ts';
import { diffReleases, type ManifestSide, purgeList } from './manifest.ts';
import {
  acquireLock,
  FILES_FILE,
  listReleases,
  MANIFEST_FILE,
  PURGE_FILE,
  RELEASE_INFO_FILE,
  readCurrent,
  readReleaseInfo,
  releaseName,
  releasesToRemove,
  removeLeftovers,
  rollbackTarget,
  STAGING_PREFIX,
  switchCurrent,
} from './store.ts';
import { contentHash, type FileHashes, formatHashes, hashTree, parseHashes } from './tree.ts';

/** Points where a test may inject a fault (the CLI's RTP_RELEASE_FAULT). */
export type ReleasePoint = 'built' | 'checked' | 'staged' | 'switched';

export interface ReleaseSteps {
  /** Builds the registry into `outDir` (client/ and server/); throws when the build fails. */
  build(outDir: string): Promise<void>;
  /** Checks the build in `outDir` against the data; throws when it does not match. */
  check(outDir: string): Promise<void>;
  /** Called after each point is reached (fault injection in tests). */
  reached?(point: ReleasePoint, folder: string): Promise<void> | void;
}

export interface ReleaseOptions {
  /** The releases folder. */
  dir: string;
  /** The registry data folder to release. */
  dataDir: string;
  /** Releases kept (the current one and its rollback target always are). */
  keep: number;
  steps: ReleaseSteps;
  log?: (line: string) => void;
  now?: () => Date;
}

export interface ReleaseOutcome {
  name: string;
  dataVersion: string;
  /** The release serving before (null: the first release). */
  previous: string | null;
  /** False when the built content is identical to the release already serving. */
  switched: boolean;
  manifest: ReleaseManifest;
  removed: string[];
}

/** A failed release step; `current` was left as it was. */
export class ReleaseError extends Error {
  readonly step: 'lock' | 'data' | 'build' | 'check' | 'stage' | 'switch';
  constructor(step: ReleaseError['step'], message: string) {
    super(message);
    this.name = 'ReleaseError';
    this.step = step;
  }
}

async function step<T>(name: ReleaseError['step'], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ReleaseError) throw err;
    throw new ReleaseError(name, err instanceof Error ? err.message : String(err));
  }
}

/** The file hashes of a release folder: its files.sha256, or hashed afresh when that is missing. */
async function releaseHashes(folder: string): Promise<FileHashes> {
  try {
    return parseHashes(await readFile(path.join(folder, FILES_FILE), 'utf8'));
  } catch {
    return hashTree(folder);
  }
}

/** Builds, checks, records and switches to a new release; see the file header. */
export async function runRelease(options: ReleaseOptions): Promise<ReleaseOutcome> {
  const { dir, dataDir, keep, steps } = options;
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const unlock = await step('lock', () => acquireLock(dir, log));
  let staging: string | null = null;
  try {
    const leftovers = await removeLeftovers(dir);
    if (leftovers.length > 0) log(`removed leftovers of an interrupted run: ${leftovers.join(', ')}`);

    const loaded = await loadRegistry(dataDir);
    if (!loaded.ok) {
      throw new ReleaseError(
        'data',
        `the data in ${dataDir} is invalid (${loaded.problems.length} problem${loaded.problems.length === 1 ? '' : 's'}):\n${formatProblems(loaded.problems)}`,
      );
    }

    const stagingDir = path.join(dir, `${STAGING_PREFIX}${process.pid}-${Date.now()}`);
    staging = stagingDir;
    log(`building data ${loaded.registry.meta.data_version} into ${path.basename(stagingDir)}`);
    await step('build', () => steps.build(stagingDir));
    await steps.reached?.('built', stagingDir);
    await step('check', () => steps.check(stagingDir));
    await steps.reached?.('checked', stagingDir);

    const { info, hashes, name } = await step('stage', async () => {
      const info = await readBuildInfo(path.join(stagingDir, 'server'));
      const hashes = await hashTree(stagingDir);
      return { info, hashes, name: releaseName(info.data_version, contentHash(hashes)) };
    });
    const current = await readCurrent(dir);
    let from: ManifestSide | null = null;
    if (current !== null) {
      const folder = path.join(dir, current);
      const currentInfo = await readReleaseInfo(dir, current);
      const dataVersion =
        currentInfo?.data_version ??
        (await readBuildInfo(path.join(folder, 'server')).then(
          (i) => i.data_version,
          () => 'unknown',
        ));
      from = { name: current, dataVersion, hashes: await releaseHashes(folder) };
    }
    const manifest = ReleaseManifestSchema.parse(diffReleases(from, { name, dataVersion: info.data_version, hashes }));
    if (current === name) {
      log(`release ${name} is already serving: the build is identical, nothing to switch`);
      return { name, dataVersion: info.data_version, previous: current, switched: false, manifest, removed: [] };
    }

    const target = path.join(dir, name);
    const existing = await readReleaseInfo(dir, name);
    const record: ReleaseInfo = {
      format: 1,
      name,
      data_version: info.data_version,
      frozen_at: info.frozen_at,
      content_hash: contentHash(hashes),
      games: info.games,
      providers: info.providers,
      released_at: now().toISOString(),
      previous: current,
    };
    await step('stage', async () => {
      // An identical release kept from before is reused as is; only its records are renewed.
      const folder = existing !== null ? target : stagingDir;
      await writeFileAtomic(path.join(folder, FILES_FILE), formatHashes(hashes));
      await writeFileAtomic(path.join(folder, MANIFEST_FILE), toDataJson(manifest));
      await writeFileAtomic(path.join(folder, PURGE_FILE), purgeList(manifest));
      await writeFileAtomic(path.join(folder, RELEASE_INFO_FILE), toDataJson(ReleaseInfoSchema.parse(record)));
      if (existing === null) {
        // Every file on disk before the folder takes its name: a crash after the switch never serves a torn release.
        await syncTree(stagingDir);
        await rm(target, { recursive: true, force: true }); // an incomplete folder of that name (no valid release.json)
        await rename(stagingDir, target);
        staging = null;
        await syncDir(dir);
      }
    });
    await steps.reached?.('staged', target);

    await step('switch', () => switchCurrent(dir, name));
    log(`switched current: ${current ?? '(none)'} -> ${name}`);
    await steps.reached?.('switched', target);

    const removed = releasesToRemove(await listReleases(dir), name, keep);
    for (const old of removed) await rm(path.join(dir, old), { recursive: true, force: true });
    if (removed.length > 0) log(`removed old releases (keeping ${keep}): ${removed.join(', ')}`);
    return { name, dataVersion: info.data_version, previous: current, switched: true, manifest, removed };
  } finally {
    if (staging !== null) await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    await unlock();
  }
}

export interface RollbackOutcome {
  from: string | null;
  to: string;
}

/** Switches `current` back to the release that served before it. */
export async function runRollback(options: { dir: string; log?: (line: string) => void }): Promise<RollbackOutcome> {
  const { dir } = options;
  const unlock = await step('lock', () => acquireLock(dir));
  try {
    const current = await readCurrent(dir);
    const target = rollbackTarget(await listReleases(dir), current);
    if (target === null || target === current)
      throw new ReleaseError('switch', `there is no release to roll back to in ${dir} (current: ${current ?? 'none'})`);
    await step('switch', () => switchCurrent(dir, target));
    options.log?.(`rolled back current: ${current ?? '(none)'} -> ${target}`);
    return { from: current, to: target };
  } finally {
    await unlock();
  }
}
