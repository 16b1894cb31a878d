// The releases folder: names, the atomic `current` switch, retention, the rollback target, the lock.
import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, LOCK_FILE, readCurrent, releaseName, releasesToRemove, removeLeftovers, rollbackTarget, switchCurrent } from '../../src/release/store.ts';
import type { ReleaseInfo } from '../../src/schemas/release.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-releases-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function info(name: string, released_at: string, previous: string | null = null): ReleaseInfo {
  return {
    format: 1,
    name,
    data_version: name.split('-')[0]!,
    frozen_at: '2026-11-21T00:00:00Z',
    content_hash: '0'.repeat(64),
    games: 1,
    providers: 1,
    released_at,
    previous,
  };
}

describe('releaseName', () => {
  it('is the data version and 12 hex digits of the content hash', () => {
    expect(releaseName('1.2.3', 'abcdef0123456789'.repeat(4))).toBe('1.2.3-abcdef012345');
  });
  it('refuses what would not make a safe folder name', () => {
    expect(() => releaseName('../1.0.0', 'a'.repeat(64))).toThrow('Cannot name a release');
    expect(() => releaseName('1.0.0', 'XYZ')).toThrow('Cannot name a release');
  });
});

describe('switchCurrent', () => {
  it('points current at the release with a relative link and leaves no temporary link', async () => {
    await mkdir(path.join(dir, '1.0.0-aaaaaaaaaaaa'));
    await mkdir(path.join(dir, '1.1.0-bbbbbbbbbbbb'));
    expect(await readCurrent(dir)).toBeNull();
    await switchCurrent(dir, '1.0.0-aaaaaaaaaaaa');
    expect(await readlink(path.join(dir, 'current'))).toBe('1.0.0-aaaaaaaaaaaa');
    await switchCurrent(dir, '1.1.0-bbbbbbbbbbbb');
    expect(await readCurrent(dir)).toBe('1.1.0-bbbbbbbbbbbb');
    expect((await lstat(path.join(dir, 'current'))).isSymbolicLink()).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(['1.0.0-aaaaaaaaaaaa', '1.1.0-bbbbbbbbbbbb', 'current']);
  });

  it('refuses a release that does not exist and keeps the current one', async () => {
    await mkdir(path.join(dir, '1.0.0-aaaaaaaaaaaa'));
    await switchCurrent(dir, '1.0.0-aaaaaaaaaaaa');
    await expect(switchCurrent(dir, '2.0.0-cccccccccccc')).rejects.toThrow('Release 2.0.0-cccccccccccc does not exist');
    await expect(switchCurrent(dir, '../etc')).rejects.toThrow('Not a release name');
    expect(await readCurrent(dir)).toBe('1.0.0-aaaaaaaaaaaa');
  });

  it('a reader polling the link during 200 switches always finds a complete release', async () => {
    const names = ['1.0.0-aaaaaaaaaaaa', '1.1.0-bbbbbbbbbbbb'];
    for (const n of names) await mkdir(path.join(dir, n));
    await switchCurrent(dir, names[0]!);
    let stop = false;
    const seen = new Set<string | null>();
    const reader = (async () => {
      while (!stop) {
        seen.add(await readCurrent(dir));
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let k = 0; k < 200; k++) await switchCurrent(dir, names[k % 2]!);
    stop = true;
    await reader;
    expect(seen.has(null)).toBe(false);
    expect([...seen].every((n) => names.includes(n!))).toBe(true);
  });
});

describe('retention and rollback', () => {
  const releases = [
    info('1.4.0-eeeeeeeeeeee', '2026-11-05T00:00:00.000Z', '1.3.0-dddddddddddd'),
    info('1.3.0-dddddddddddd', '2026-11-04T00:00:00.000Z', '1.2.0-cccccccccccc'),
    info('1.2.0-cccccccccccc', '2026-11-03T00:00:00.000Z', '1.1.0-bbbbbbbbbbbb'),
    info('1.1.0-bbbbbbbbbbbb', '2026-11-02T00:00:00.000Z', '1.0.0-aaaaaaaaaaaa'),
    info('1.0.0-aaaaaaaaaaaa', '2026-11-01T00:00:00.000Z', null),
  ];

  it('keeps the N newest', () => {
    expect(releasesToRemove(releases, '1.4.0-eeeeeeeeeeee', 2)).toEqual(['1.2.0-cccccccccccc', '1.1.0-bbbbbbbbbbbb', '1.0.0-aaaaaaaaaaaa']);
    expect(releasesToRemove(releases, '1.4.0-eeeeeeeeeeee', 5)).toEqual([]);
  });

  it('never removes the current release nor its rollback target', () => {
    // After a rollback to 1.1.0 (whose previous is 1.0.0), keep 1 must still keep both.
    expect(releasesToRemove(releases, '1.1.0-bbbbbbbbbbbb', 1)).toEqual(['1.3.0-dddddddddddd', '1.2.0-cccccccccccc']);
  });

  it('rolls back to the release that served before, step by step', () => {
    expect(rollbackTarget(releases, '1.4.0-eeeeeeeeeeee')).toBe('1.3.0-dddddddddddd');
    expect(rollbackTarget(releases, '1.3.0-dddddddddddd')).toBe('1.2.0-cccccccccccc');
    expect(rollbackTarget(releases, '1.0.0-aaaaaaaaaaaa')).toBeNull();
  });

  it('falls back to the newest older release when the previous one is gone', () => {
    const pruned = releases.filter((r) => r.name !== '1.3.0-dddddddddddd');
    expect(rollbackTarget(pruned, '1.4.0-eeeeeeeeeeee')).toBe('1.2.0-cccccccccccc');
  });
});

describe('lock and leftovers', () => {
  it('a second release cannot start while the first holds the lock', async () => {
    const release = await acquireLock(dir);
    // The lock names this process, which is alive: another process would be refused. Simulate
    // one by writing a live foreign pid (our parent's).
    await release();
    await writeFile(path.join(dir, LOCK_FILE), `${process.ppid}\n`);
    await expect(acquireLock(dir)).rejects.toThrow(`Another release is running (process ${process.ppid}`);
  });

  it('takes over a lock whose process is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid!;
    await new Promise((r) => child.once('exit', r));
    await writeFile(path.join(dir, LOCK_FILE), `${pid}\n`);
    const lines: string[] = [];
    const release = await acquireLock(dir, (l) => lines.push(l));
    expect(lines).toEqual([`${path.join(dir, LOCK_FILE)}: cleared a stale lock (process ${pid} no longer runs)`]);
    await release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('clears a lock that names no process, with a message', async () => {
    await writeFile(path.join(dir, LOCK_FILE), 'garbage');
    const lines: string[] = [];
    const release = await acquireLock(dir, (l) => lines.push(l));
    expect(lines).toEqual([`${path.join(dir, LOCK_FILE)}: cleared a stale lock (it names no process)`]);
    await release();
  });

  it('removes staging folders and temporary links of interrupted runs, nothing else', async () => {
    await mkdir(path.join(dir, '.staging-123-456/client'), { recursive: true });
    await mkdir(path.join(dir, '1.0.0-aaaaaaaaaaaa'));
    await writeFile(path.join(dir, '.current-99-1'), '');
    expect((await removeLeftovers(dir)).sort()).toEqual(['.current-99-1', '.staging-123-456']);
    expect(await readdir(dir)).toEqual(['1.0.0-aaaaaaaaaaaa']);
  });
});
