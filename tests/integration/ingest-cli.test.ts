// `npm run data:ingest` on a copy of the shipped data folder: it reproduces every game and provider
// file byte for byte (the same sources give the same data/, and no game file was edited by hand),
// twice in a row; and it refuses to drop a published game, writing nothing.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
let tmp: string;
const ingest = (dir: string) =>
  run(process.execPath, [path.join(ROOT, 'scripts/ingest.ts'), '--data', dir], { cwd: ROOT }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = (await fg(['games/**/*.json', 'providers/*.json'], { cwd: dir })).sort();
  return new Map(await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, f), 'utf8')] as [string, string])));
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-ingest-'));
  await cp(path.join(ROOT, 'data'), path.join(tmp, 'data'), { recursive: true });
}, 120_000); // copies thousands of files: seconds on a quiet disk, far more on a busy one
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true, maxRetries: 3 });
}, 120_000);

describe('npm run data:ingest', () => {
  it('reproduces the shipped games and providers byte for byte, run after run', async () => {
    const shipped = await snapshot(path.join(ROOT, 'data'));
    for (let k = 0; k < 2; k++) {
      const r = await ingest(path.join(tmp, 'data'));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^data:ingest: \d+ games from \d+ providers written to /);
      const again = await snapshot(path.join(tmp, 'data'));
      expect([...again.keys()]).toEqual([...shipped.keys()]);
      for (const [file, text] of shipped) expect(again.get(file), file).toBe(text);
    }
  }, 180_000); // two whole ingests of 11,000-odd games

  it('refuses to drop a published game, listing it, and writes nothing', async () => {
    const dir = path.join(tmp, 'data');
    const extra = path.join(dir, 'games/playngo/a-game-no-source-holds.json');
    const text = (await readFile(path.join(dir, 'games/playngo/book-of-dead.json'), 'utf8'))
      .replace(/Book of Dead/g, 'A Game No Source Holds')
      .replace('"book-of-dead"', '"a-game-no-source-holds"');
    await writeFile(extra, text);
    const before = await snapshot(dir);
    const r = await ingest(dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('data:ingest: nothing written: 1 problem(s):');
    expect(r.stderr).toContain('published game a-game-no-source-holds is in no source any more');
    expect(await snapshot(dir)).toEqual(before);
    await rm(extra);
  }, 60_000);
});
