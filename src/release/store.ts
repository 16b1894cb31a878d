// The releases folder (RELEASES_DIR, default ./releases): versioned release folders, the `current`
// symbolic link the server follows, a lock against concurrent releases, and the atomic switch.
//
//   releases/<data_version>-<hash12>/   client/ server/ release.json files.sha256 manifest.json purge.txt
//   releases/current -> <name>          replaced by rename(2) of a fresh link, never edited in place
//   releases/.staging-<pid>-<time>/     a build in progress (removed by the next release when left over)
//   releases/.lock                      held while a release or rollback runs
import { lstat, readdir, readFile, readlink, rename, rm, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { acquirePidLock, syncDir } from '../lib/write.ts';
import { RELEASE_NAME, type ReleaseInfo, ReleaseInfoSchema } from '../schemas/release.ts';

export const CURRENT_LINK = 'current';
export const STAGING_PREFIX = '.staging-';
export const LOCK_FILE = '.lock';
export const RELEASE_INFO_FILE = 'release.json';
export const FILES_FILE = 'files.sha256';
export const MANIFEST_FILE = 'manifest.json';
export const PURGE_FILE = 'purge.txt';
export const DEFAULT_KEEP = 5;

/** The releases folder in force: RELEASES_DIR or ./releases. */
export function releasesDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.RELEASES_DIR !== undefined && env.RELEASES_DIR !== '' ? env.RELEASES_DIR : 'releases');
}

/** `<data_version>-<first 12 hex digits of the content hash>`. */
export function releaseName(dataVersion: string, contentHash: string): string {
  const name = `${dataVersion}-${contentHash.slice(0, 12)}`;
  if (!RELEASE_NAME.test(name))
    throw new Error(`Cannot name a release from data version ${JSON.stringify(dataVersion)} and hash ${JSON.stringify(contentHash)}.`);
  return name;
}

/** The release `current` points at, or null when there is none (or it is not a link to a release). */
export async function readCurrent(dir: string): Promise<string | null> {
  try {
    const target = await readlink(path.join(dir, CURRENT_LINK));
    const name = path.basename(target);
    return RELEASE_NAME.test(name) ? name : null;
  } catch {
    return null;
  }
}

/**
 * Points `current` at release `name` atomically: a new link under a temporary name, then rename(2)
 * over the old one, so a reader sees either the old target or the new one, never no link.
 */
export async function switchCurrent(dir: string, name: string): Promise<void> {
  if (!RELEASE_NAME.test(name)) throw new Error(`Not a release name: ${JSON.stringify(name)}.`);
  const stat = await lstat(path.join(dir, name)).catch(() => null);
  if (stat === null || !stat.isDirectory()) throw new Error(`Release ${name} does not exist in ${dir}.`);
  const tmp = path.join(dir, `.${CURRENT_LINK}-${process.pid}-${Date.now()}`);
  await symlink(name, tmp, 'dir'); // relative: the folder can move as a whole
  try {
    await rename(tmp, path.join(dir, CURRENT_LINK));
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(dir);
}

/** Reads and checks `<dir>/<name>/release.json`; null when missing or invalid. */
export async function readReleaseInfo(dir: string, name: string): Promise<ReleaseInfo | null> {
  try {
    const parsed = ReleaseInfoSchema.safeParse(JSON.parse(await readFile(path.join(dir, name, RELEASE_INFO_FILE), 'utf8')));
    return parsed.success && parsed.data.name === name ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Every complete release in `dir` (a folder with a valid release.json), newest `released_at` first. */
export async function listReleases(dir: string): Promise<ReleaseInfo[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const infos: ReleaseInfo[] = [];
  for (const e of entries) {
    if (!e.isDirectory() || !RELEASE_NAME.test(e.name)) continue;
    const info = await readReleaseInfo(dir, e.name);
    if (info !== null) infos.push(info);
  }
  return infos.sort(newestFirst);
}

/** Orders releases by `released_at` (newest first), then by name for a stable order. */
export function newestFirst(a: ReleaseInfo, b: ReleaseInfo): number {
  if (a.released_at !== b.released_at) return a.released_at < b.released_at ? 1 : -1;
  return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
}

/**
 * The releases retention removes: all but the `keep` newest, never the current release nor the
 * one `--rollback` would return to.
 */
export function releasesToRemove(releases: readonly ReleaseInfo[], current: string | null, keep: number): string[] {
  const protectedNames = new Set<string>();
  if (current !== null) {
    protectedNames.add(current);
    const prev = releases.find((r) => r.name === current)?.previous;
    if (prev !== null && prev !== undefined) protectedNames.add(prev);
  }
  const sorted = [...releases].sort(newestFirst);
  return sorted
    .slice(Math.max(0, keep))
    .map((r) => r.name)
    .filter((n) => !protectedNames.has(n));
}

/**
 * Where `--rollback` goes from `current`: the release that was serving before it (its `previous`)
 * when still present, else the newest release older than it.
 */
export function rollbackTarget(releases: readonly ReleaseInfo[], current: string | null): string | null {
  const cur = releases.find((r) => r.name === current);
  if (cur === undefined) return releases[0]?.name ?? null;
  if (cur.previous !== null && releases.some((r) => r.name === cur.previous)) return cur.previous;
  const older = [...releases].sort(newestFirst).find((r) => r.name !== cur.name && newestFirst(r, cur) > 0);
  return older?.name ?? null;
}

/** Removes left-over staging folders and temporary links from interrupted runs. */
export async function removeLeftovers(dir: string): Promise<string[]> {
  const removed: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return removed;
  }
  for (const e of entries) {
    if (e.name.startsWith(STAGING_PREFIX) || e.name.startsWith(`.${CURRENT_LINK}-`)) {
      await rm(path.join(dir, e.name), { recursive: true, force: true });
      removed.push(e.name);
    }
  }
  return removed;
}

/**
 * Takes the releases folder's lock (an exclusively created file holding our pid). A lock left by
 * a process that no longer runs is cleared with a message and taken over; a live holder makes this throw.
 */
export async function acquireLock(dir: string, log?: (line: string) => void): Promise<() => Promise<void>> {
  return acquirePidLock(path.join(dir, LOCK_FILE), (pid) => `Another release is running (process ${pid} holds ${path.join(dir, LOCK_FILE)}).`, log);
}
