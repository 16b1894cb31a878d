// Durable writes: the atomic replace (fsync of the file and its folder), syncing a whole tree, and
// pid lock files that clear a stale holder with a message (releases, the keys file).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withKeysLock, writeKeysFile } from '../../src/keys/file.ts';
import { acquirePidLock, syncTree, writeFileAtomic } from '../../src/lib/write.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-durable-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((r) => child.once('exit', r));
  return pid;
}

describe('writeFileAtomic', () => {
  it('replaces the file whole, leaves no temporary sibling, and keeps the mode asked for', async () => {
    const file = path.join(dir, 'a/b/keys.json');
    await writeFileAtomic(file, 'one\n', 0o600);
    await writeFileAtomic(file, 'two\n', 0o600);
    expect(await readFile(file, 'utf8')).toBe('two\n');
    expect(await readdir(path.dirname(file))).toEqual(['keys.json']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('the keys file is written the same way, readable by its owner only', async () => {
    const file = path.join(dir, 'keys.json');
    await writeKeysFile(file, { format: 1, keys: [] });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ format: 1, keys: [] });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe('syncTree', () => {
  it('syncs every file of a tree', async () => {
    await mkdir(path.join(dir, 'client/api/rtp'), { recursive: true });
    for (const f of ['client/index.html', 'client/api/rtp/a', 'client/api/rtp/b', 'server.json']) await writeFile(path.join(dir, f), f);
    expect(await syncTree(dir, 2)).toBe(4);
  });
});

describe('pid locks', () => {
  it('refuses while a live process holds the lock', async () => {
    const lock = path.join(dir, 'x.lock');
    await writeFile(lock, `${process.ppid}\n`);
    await expect(acquirePidLock(lock, (pid) => `busy: ${pid}`)).rejects.toThrow(`busy: ${process.ppid}`);
  });

  it('a stale keys lock left by a killed command is cleared with a message, and the command runs', async () => {
    const file = path.join(dir, 'keys.json');
    const pid = await deadPid();
    await writeFile(`${file}.lock`, `${pid}\n`);
    const lines: string[] = [];
    const out = await withKeysLock(
      file,
      async () => 'ran',
      (l) => lines.push(l),
    );
    expect(out).toBe('ran');
    expect(lines).toEqual([`${file}.lock: cleared a stale lock (process ${pid} no longer runs)`]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a live keys lock names its holder', async () => {
    const file = path.join(dir, 'keys.json');
    await writeFile(`${file}.lock`, `${process.ppid}\n`);
    await expect(withKeysLock(file, async () => 'ran')).rejects.toThrow(`${file}.lock is held by process ${process.ppid}: another keys command is running.`);
  });
});
