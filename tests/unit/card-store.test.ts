// The preview cards kept on disk (src/server/card-store.ts): one folder per data version, the others
// removed when a version opens, leftovers of interrupted writes cleared, damaged files never served,
// the bound in bytes held, and an unwritable folder reported instead of thrown.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCardStore } from '../../src/server/card-store.ts';

/** A minimal whole PNG: the signature, `n` bytes, then the IEND chunk. */
const png = (n: number) =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(n, 7),
    Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]),
  ]);

let root: string;
let lines: string[];
const log = (line: string) => void lines.push(line);
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rtp-card-store-'));
  lines = [];
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('card store', () => {
  it('keeps a card and reads it back, in a folder of its data version', async () => {
    const store = (await openCardStore(root, '1.3.0', 1 << 20, log))!;
    expect(await store.read('book-of-dead')).toBeNull();
    await store.write('book-of-dead', png(100));
    expect((await store.read('book-of-dead'))!.equals(png(100))).toBe(true);
    expect(store.dir).toBe(path.join(root, 'cards-1.3.0'));
    expect(store.bytes()).toBe(png(100).length);
  });

  it('a new data version removes the folders of others, never anything else in the folder', async () => {
    const old = (await openCardStore(root, '1.2.0', 1 << 20, log))!;
    await old.write('starburst', png(10));
    await writeFile(path.join(root, 'notes.txt'), 'kept');
    await openCardStore(root, '1.3.0', 1 << 20, log);
    expect((await readdir(root)).sort()).toEqual(['cards-1.3.0', 'notes.txt']);
  });

  it('clears leftovers of interrupted writes, counts the cards kept, and never serves a damaged one', async () => {
    const dir = path.join(root, 'cards-1.3.0');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'a.png'), png(50));
    await writeFile(path.join(dir, 'b.png.123456'), png(50));
    await writeFile(path.join(dir, 'c.png'), png(50).subarray(0, 30));
    const store = (await openCardStore(root, '1.3.0', 1 << 20, log))!;
    expect((await readdir(dir)).sort()).toEqual(['a.png', 'c.png']);
    expect(store.bytes()).toBe(png(50).length + 30);
    expect(await store.read('a')).not.toBeNull();
    expect(await store.read('c')).toBeNull();
  });

  it('past its bound in bytes keeps no more cards, and says so once', async () => {
    const store = (await openCardStore(root, '1.3.0', 2 * png(100).length, log))!;
    for (const slug of ['a', 'b', 'c', 'd']) await store.write(slug, png(100));
    expect((await readdir(store.dir)).sort()).toEqual(['a.png', 'b.png']);
    expect(lines.filter((l) => l.includes('CARD_CACHE_MB'))).toHaveLength(1);
  });

  it('a folder that cannot be made gives no store and one line naming the reason', async () => {
    await writeFile(path.join(root, 'file'), 'x');
    expect(await openCardStore(path.join(root, 'file', 'cards'), '1.3.0', 1 << 20, log)).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ENOTDIR');
  });

  it('a data version is a folder name whatever it holds', async () => {
    const store = (await openCardStore(root, '../../x/1.3', 1 << 20, log))!;
    expect(path.dirname(store.dir)).toBe(root);
    expect(path.basename(store.dir)).toBe('cards-.._.._x_1.3');
  });
});
