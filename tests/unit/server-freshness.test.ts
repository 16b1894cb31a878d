// Whether a build is current for its data: what `npm start` and the test global setup decide to rebuild on.
// Each test makes its own folder, so any one runs alone or in any order.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIST_BUNDLE_FORMAT } from '../../src/schemas/list-bundle-file.ts';
import { checkFreshness, newestFile } from '../../src/server/freshness.ts';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A fresh folder holding data/ (two files, 300 s and 200 s old) and an empty place for dist/. */
function tree() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'rtp-fresh-'));
  roots.push(root);
  const file = (rel: string, secondsAgo: number): string => {
    const full = path.join(root, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, 'x');
    const t = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(full, t, t);
    return full;
  };
  file('data/registry.json', 300);
  file('data/games/a/b.json', 200);
  /** A complete build, 100 s old: newer than the data. */
  const build = () => {
    file('dist/server/registry-bundle.json', 100);
    file('dist/server/entry.mjs', 100);
    file('dist/client/index.html', 100);
  };
  return { root, data: path.join(root, 'data'), out: path.join(root, 'dist'), file, build };
}

describe('checkFreshness', () => {
  it('finds the newest file at any depth', async () => {
    const { root, data } = tree();
    expect((await newestFile(data))!.file).toBe(path.join(data, 'games/a/b.json'));
    mkdirSync(path.join(root, 'empty'));
    expect(await newestFile(path.join(root, 'empty'))).toBeNull();
  });

  it('is stale without a complete build', async () => {
    const { out, data, file } = tree();
    const status = await checkFreshness(out, data);
    expect(status.fresh).toBe(false);
    expect(status.reason).toMatch(/has no complete build/);
    file('dist/server/registry-bundle.json', 100);
    expect((await checkFreshness(out, data)).fresh).toBe(false); // no entry.mjs, no client/
  });

  it('is fresh when the bundle is newer than every data file, stale once one changes', async () => {
    const { out, data, file, build } = tree();
    build();
    const fresh = await checkFreshness(out, data);
    expect(fresh.fresh).toBe(true);
    expect(fresh.reason).toMatch(/is newer than every file/);
    file('data/games/a/c.json', 10);
    const stale = await checkFreshness(out, data);
    expect(stale.fresh).toBe(false);
    expect(stale.reason).toMatch(/games\/a\/c\.json changed after the last build/);
  });

  it('is stale when its list bundle is of another format than this code reads', async () => {
    const { out, data, build } = tree();
    build();
    const bundle = (format: string) => {
      const header = Buffer.from(JSON.stringify({ format }));
      const head = Buffer.alloc(8);
      head.write('RTPL', 0, 'latin1');
      head.writeUInt32LE(header.length, 4);
      writeFileSync(path.join(out, 'server/list-bundle.bin'), Buffer.concat([head, header]));
    };
    // Newer than the data, as a build is.
    bundle(LIST_BUNDLE_FORMAT);
    expect((await checkFreshness(out, data)).fresh).toBe(true);
    bundle('an-older-layout');
    const stale = await checkFreshness(out, data);
    expect(stale.fresh).toBe(false);
    expect(stale.reason).toMatch(/list-bundle\.bin is of another format than this code reads/);
    writeFileSync(path.join(out, 'server/list-bundle.bin'), 'not a bundle');
    expect((await checkFreshness(out, data)).fresh).toBe(false);
  });
});
