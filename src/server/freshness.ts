// Whether a build output is current for a data folder: the bundle must exist and be newer than
// every file under the data folder, and its list bundle of the format this code reads (used by
// `npm start` and the test global setup, tests/helpers/global-setup.ts).
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { BUILD_INFO_FILE, BUNDLE_FILE, LIST_BUNDLE_FILE } from '../schemas/dist.ts';
import { isCurrentListBundleHeader, listBundleHeaderLength } from '../schemas/list-bundle-file.ts';

export interface Freshness {
  fresh: boolean;
  /** One line saying why, for the log. */
  reason: string;
}

/** The most recently modified file under `dir` (recursive), or null when it holds none. */
export async function newestFile(dir: string): Promise<{ file: string; mtimeMs: number } | null> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  let newest: { file: string; mtimeMs: number } | null = null;
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  // Stat in batches: fast on large folders without exhausting file handles.
  for (let i = 0; i < files.length; i += 256) {
    const stats = await Promise.all(files.slice(i, i + 256).map((f) => stat(f)));
    stats.forEach((s, k) => {
      if (newest === null || s.mtimeMs > newest.mtimeMs) newest = { file: files[i + k]!, mtimeMs: s.mtimeMs };
    });
  }
  return newest;
}

/** Compares `outDir`'s bundle (and server entry) with the files of `dataDir`. */
export async function checkFreshness(outDir: string, dataDir: string): Promise<Freshness> {
  const bundle = path.join(outDir, 'server', BUNDLE_FILE);
  let bundleMtime: number;
  try {
    bundleMtime = (await stat(bundle)).mtimeMs;
    await stat(path.join(outDir, 'server', 'entry.mjs'));
    await stat(path.join(outDir, 'client'));
    // A build that records itself (build-info.json) also holds the list bundle the server loads; older builds do not.
    if ((await stat(path.join(outDir, 'server', BUILD_INFO_FILE)).catch(() => null)) !== null) await stat(path.join(outDir, 'server', LIST_BUNDLE_FILE));
  } catch {
    return {
      fresh: false,
      reason: `${path.relative(process.cwd(), outDir) || outDir} has no complete build (${BUNDLE_FILE}, ${LIST_BUNDLE_FILE}, entry.mjs, client/)`,
    };
  }
  const listBundle = path.join(outDir, 'server', LIST_BUNDLE_FILE);
  if ((await stat(listBundle).catch(() => null)) !== null && !(await hasCurrentFormat(listBundle))) {
    return { fresh: false, reason: `${path.relative(process.cwd(), listBundle) || listBundle} is of another format than this code reads` };
  }
  const newest = await newestFile(dataDir);
  if (newest !== null && newest.mtimeMs > bundleMtime) {
    return {
      fresh: false,
      reason: `${path.relative(process.cwd(), newest.file)} changed after the last build (${new Date(newest.mtimeMs).toISOString()} > ${new Date(bundleMtime).toISOString()})`,
    };
  }
  return {
    fresh: true,
    reason: `the build (${new Date(bundleMtime).toISOString()}) is newer than every file in ${path.relative(process.cwd(), dataDir) || dataDir}`,
  };
}

/** Whether the list bundle at `file` is of the format this code reads (its header only is read). */
async function hasCurrentFormat(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const first = Buffer.alloc(8);
    await handle.read(first, 0, 8, 0);
    const length = listBundleHeaderLength(first);
    if (length === null) return false;
    const header = Buffer.alloc(length);
    await handle.read(header, 0, length, 8);
    return isCurrentListBundleHeader(header);
  } finally {
    await handle.close();
  }
}
