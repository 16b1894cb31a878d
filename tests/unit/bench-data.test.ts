import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manifestOf, writeLike, writeLikeParallel } from '../../scripts/bench/baseline-writer.ts';
import { countGames, listFiles, sizeLabel, sourceHash } from '../../scripts/bench/data.ts';
import { parseArgs } from '../../scripts/bench/run.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-data-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function put(rel: string, text: string): void {
  const file = path.join(tmp, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('file listing', () => {
  it('lists files recursively in path order', () => {
    put('tree/b/2.json', '{"b":2}');
    put('tree/a.json', '{"a":1}');
    put('tree/b/1.json', '{}');
    const dir = path.join(tmp, 'tree');
    expect(listFiles(dir)).toEqual(['a.json', 'b/1.json', 'b/2.json']);
  });

  it('hashes a source file together with the relative modules it imports', () => {
    put('src/main.ts', "import { x } from './dep.ts';\nconsole.log(x);\n");
    put('src/dep.ts', 'export const x = 1;\n');
    const before = sourceHash(path.join(tmp, 'src/main.ts'));
    put('src/dep.ts', 'export const x = 2;\n');
    expect(sourceHash(path.join(tmp, 'src/main.ts'))).not.toBe(before);
  });

  it('counts game files per provider folder', () => {
    put('reg/games/p1/a.json', '{}');
    put('reg/games/p1/b.json', '{}');
    put('reg/games/p2/c.json', '{}');
    put('reg/games/p2/notes.txt', '');
    expect(countGames(path.join(tmp, 'reg'))).toBe(3);
    expect(countGames(path.join(tmp, 'nowhere'))).toBe(0);
  });

  it('labels sizes', () => {
    expect(sizeLabel(50_000)).toBe('50k');
    expect(sizeLabel(200)).toBe('200');
  });
});

describe('baseline writer', () => {
  it('writes the same relative paths with the same sizes', () => {
    put('built/client/api/rtp/x', 'x'.repeat(1234));
    put('built/client/widget/rtp/x.html', '<p>hi</p>');
    put('built/server/registry-bundle.json', '');
    const manifest = manifestOf(path.join(tmp, 'built'));
    expect(manifest).toEqual([
      ['client/api/rtp/x', 1234],
      ['client/widget/rtp/x.html', 9],
      ['server/registry-bundle.json', 0],
    ]);
    expect(writeLike(manifest, path.join(tmp, 'copy'))).toBe(1243);
    expect(manifestOf(path.join(tmp, 'copy'))).toEqual(manifest);
  });

  it('writes the same files from as many threads as the build writes from', async () => {
    const manifest: Array<[string, number]> = Array.from({ length: 40 }, (_, k) => [`client/d${k % 3}/f${k}.json`, k * 10]);
    const manifestFile = path.join(tmp, 'manifest.json');
    writeFileSync(manifestFile, JSON.stringify(manifest));
    expect(await writeLikeParallel(manifestFile, path.join(tmp, 'parallel'))).toBe(manifest.reduce((a, [, n]) => a + n, 0));
    expect(manifestOf(path.join(tmp, 'parallel'))).toEqual([...manifest].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  });
});

describe('command line', () => {
  it('defaults to the full run of this checkout, written to bench/results', () => {
    const c = parseArgs([]);
    expect(c.mode).toBe('full');
    expect(c.outDir.endsWith(path.join('bench', 'results'))).toBe(true);
    expect(c.codeRoot).toBe(path.resolve(import.meta.dirname, '../..'));
    expect([...c.only]).toEqual(['build', 'memory', 'list']);
    expect(c.buildRuns).toBeGreaterThanOrEqual(3);
    expect(c.load.rounds * c.load.roundS).toBeGreaterThanOrEqual(10);
    expect(c.sizes).toEqual([5000, 50_000, 250_000]);
  });
  it('keeps quick runs out of bench/results; partial runs and other checkouts are recorded', () => {
    expect(parseArgs(['--quick']).outDir).toBe(path.join(os.tmpdir(), 'rtp-bench-quick'));
    const p = parseArgs(['--only', 'list,memory', '--root', '/tmp/before']);
    expect(p.mode).toBe('partial');
    expect([...p.only]).toEqual(['list', 'memory']);
    expect(p.codeRoot).toBe('/tmp/before');
    expect(p.outDir.endsWith(path.join('bench', 'results'))).toBe(true);
  });
  it('rejects unknown phases and options', () => {
    expect(() => parseArgs(['--only', 'disk'])).toThrow('--only: unknown phase "disk"');
    expect(() => parseArgs(['--fast'])).toThrow(
      "Unknown option '--fast' (use --render, --quick, --only <build,memory,list>, --list-registry <synthetic|real>, --list-games <n>, --root <checkout>, --out <folder>, --keep)",
    );
    expect(() => parseArgs(['--list-registry', 'huge'])).toThrow('--list-registry: "huge" is neither synthetic nor real');
  });

  it('runs the list phase on the shipped registry when asked', () => {
    expect(parseArgs(['--only', 'list']).listRegistry).toBe('synthetic');
    expect(parseArgs(['--only', 'list', '--list-registry', 'real']).listRegistry).toBe('real');
  });

  it('runs the list phase on a synthetic registry of the size asked for', () => {
    expect(parseArgs(['--only', 'list']).listGames).toBe(50_000);
    expect(parseArgs(['--only', 'list', '--list-games', '5000']).listGames).toBe(5000);
    expect(parseArgs(['--list-games', '5000']).listGames).toBe(5000);
    expect(() => parseArgs(['--only', 'list', '--list-games', '5k'])).toThrow('--list-games: "5k" is not a whole number from 1 to 250000');
    expect(() => parseArgs(['--only', 'list,build', '--list-games', '20000'])).toThrow('--list-games: with phases other than list, one of 5000, 50000, 250000');
  });
});
