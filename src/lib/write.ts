// Durable file writes shared by the data tools, releases and the keys file: a temporary sibling
// synced to disk and renamed over the target (write-file-atomic), then the folder synced (so a
// crash leaves the old file or the new one, never a torn or lost one); a whole tree synced before
// it is renamed into place; and lock files that name their holder, so a lock left by a killed
// process is cleared at once.
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomicLib from 'write-file-atomic';

/** How many files are read or written at once: enough to hide disk latency, few enough for file-handle limits. */
export const IO_CONCURRENCY = 64;

/** Pretty JSON as stored under data/ (stable: key order is the caller's construction order). */
export function toDataJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Flushes a folder's entries (a rename or new link) to disk; ignored where folders cannot be opened. */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on folders; the rename is atomic either way.
  } finally {
    await handle?.close();
  }
}

/**
 * Writes `text` to `file` via a temporary sibling, fsync(2) and a rename (write-file-atomic), then
 * syncs the folder, which the library leaves to its caller: readers never see half a file, and a
 * crash right after leaves the old file or the new one.
 */
export async function writeFileAtomic(file: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomicLib(file, text, { mode, fsync: true });
  await syncDir(path.dirname(file));
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Syncs every file and folder under `root` to disk (before the tree is renamed into place), `concurrency` at a time. */
export async function syncTree(root: string, concurrency = 32): Promise<number> {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    dirs.push(dir);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  await walk(root);
  let next = 0;
  const worker = async () => {
    while (next < files.length) await syncFile(files[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  // Folders after their files, deepest first.
  for (const dir of dirs.reverse()) await syncDir(dir);
  return files.length;
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `file` as a lock: an exclusively created file holding our pid. A lock whose process no
 * longer runs is stale: it is cleared (`log` says so) and taken. A live holder makes this throw
 * `busy(pid)`. Resolves with the function that releases the lock.
 */
export async function acquirePidLock(
  file: string,
  busy: (pid: number) => string,
  log: (line: string) => void = (l) => console.error(l),
): Promise<() => Promise<void>> {
  await mkdir(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) throw new Error(busy(holder));
      log(`${file}: cleared a stale lock (${Number.isInteger(holder) && holder > 0 ? `process ${holder} no longer runs` : 'it names no process'})`);
      await rm(file, { force: true });
    }
  }
  throw new Error(`Cannot take the lock ${file}.`);
}
