// Synthetic generator: determinism (byte-identical folders), validity against loadRegistry, realistic mix, consistent history.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32, SYNTH_PROVIDER_NAMES, synthRegistry, writeSynthRegistry } from '../../scripts/lib/synth.ts';
import { canonicalJson, sha256Hex } from '../../src/registry/canonical.ts';
import { frozenStateOf, planFreeze } from '../../src/registry/freeze.ts';
import { loadRegistry, type Registry } from '../../src/registry/load.ts';
import { slugify } from '../../src/registry/names.ts';
import { compareVersions } from '../../src/registry/version.ts';
import { GAME_TYPES } from '../../src/schemas/authoring.ts';
import { fixtureTempDir, removeFixtureDir } from '../fixtures/registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const COUNT = 1500;
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map(removeFixtureDir));
});

async function tempDir(): Promise<string> {
  const dir = await fixtureTempDir('rtp-synth-');
  made.push(dir);
  return dir;
}

/** One digest over every file's relative path and bytes. */
async function folderHash(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
  const parts = await Promise.all(files.map(async (f) => [f, sha256Hex(await readFile(path.join(dir, f)))]));
  return sha256Hex(canonicalJson(parts));
}

async function generate(count: number, seed: number): Promise<string> {
  const dir = await tempDir();
  await writeSynthRegistry(dir, synthRegistry({ count, seed }));
  return dir;
}

describe('mulberry32 and slugify', () => {
  it('repeats the same sequence for the same seed, within [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });

  it('makes lowercase-ascii-hyphen slugs', () => {
    expect(slugify('Gates of El Dorado Megaways')).toBe('gates-of-el-dorado-megaways');
    expect(slugify("Hi-Lo  Champion's Édition & 1000")).toBe('hi-lo-champions-edition-and-1000');
  });
});

describe('synthRegistry', () => {
  let dir: string;
  let registry: Registry;
  beforeAll(async () => {
    dir = await generate(COUNT, 7);
    const result = await loadRegistry(dir);
    if (!result.ok) throw new Error(`synthetic registry is invalid:\n${result.problems.map((p) => `${p.file}: ${p.field}: ${p.reason}`).join('\n')}`);
    registry = result.registry;
  });

  it('validates against the same schema and rules as the shipped registry', () => {
    expect(registry.games).toHaveLength(COUNT);
    expect(registry.providers).toHaveLength(40);
    expect(registry.providers.map((p) => p.display).sort()).toEqual([...SYNTH_PROVIDER_NAMES].sort());
    expect(registry.providers.every((p) => p.website !== null && new URL(p.website).hostname.endsWith('.example'))).toBe(true);
  });

  it('gives byte-identical folders for the same seed and count, and different ones otherwise', async () => {
    const again = await generate(COUNT, 7);
    expect(await folderHash(again)).toBe(await folderHash(dir));
    expect(await folderHash(await generate(COUNT, 8))).not.toBe(await folderHash(dir));
  });

  it('has every game type, mostly slots, and a realistic share of multi-variant games', () => {
    const byType = new Map<string, number>();
    for (const g of registry.games) byType.set(g.game_type, (byType.get(g.game_type) ?? 0) + 1);
    for (const t of GAME_TYPES) expect(byType.get(t) ?? 0, t).toBeGreaterThan(0);
    expect(byType.get('slot')! / COUNT).toBeGreaterThan(0.75);
    const multi = registry.games.filter((g) => g.rtp_variants.length > 1).length / COUNT;
    expect(multi).toBeGreaterThan(0.33);
    expect(multi).toBeLessThan(0.42);
    const kinds = new Set(registry.games.flatMap((g) => g.rtp_variants.map((v) => v.kind)));
    expect([...kinds].sort()).toEqual(['bonus_buy', 'jurisdiction', 'operator_ladder', 'standard']);
  });

  it('leaves volatility, max win and release year null sometimes, and notes mostly empty', () => {
    const share = (pred: (g: Registry['games'][number]) => boolean) => registry.games.filter(pred).length / COUNT;
    expect(share((g) => g.volatility === null)).toBeGreaterThan(0.1);
    expect(share((g) => g.volatility === null)).toBeLessThan(0.5);
    expect(share((g) => g.max_win_x === null)).toBeGreaterThan(0.1);
    expect(share((g) => g.release_year === null)).toBeGreaterThan(0.1);
    expect(share((g) => g.notes === '')).toBeGreaterThan(0.85);
    expect(new Set(registry.games.map((g) => g.canonical_name)).size).toBe(COUNT);
  });

  it('writes a history consistent with the current data, in version order, up to data_version', () => {
    const { history, meta, games, providers } = registry;
    expect(history.length).toBeGreaterThan(6);
    const versions = [...new Set(history.map((h) => h.data_version))];
    expect(versions).toEqual(['1.1.0', '1.2.0', '1.2.1']);
    expect(meta.data_version).toBe('1.2.1');
    for (let i = 1; i < history.length; i++) expect(compareVersions(history[i]!.data_version, history[i - 1]!.data_version)).toBeGreaterThanOrEqual(0);
    expect(history.some((h) => h.from === null)).toBe(true);
    expect(history.some((h) => h.to === null)).toBe(true);
    // The last entry per slug and field holds today's value (or null for a removed game).
    const bySlug = new Map(games.map((g) => [g.canonical_slug, g]));
    const last = new Map(history.map((h) => [`${h.slug}/${h.field}`, h]));
    for (const h of last.values()) {
      const g = bySlug.get(h.slug);
      if (h.to === null) expect(g).toBeUndefined();
      else expect(h.field === 'stated_rtp' ? g?.stated_rtp : g?.rtp_variants.map((v) => v.rtp)).toEqual(h.to);
    }
    expect(registry.frozen).toEqual(frozenStateOf(games, providers, meta.data_version, meta.frozen_at));
  });

  it('is a complete snapshot: a freeze with no change appends nothing', () => {
    const plan = planFreeze(registry, { bump: 'patch', at: '2026-12-01T00:00:00Z' });
    expect(plan.ok && plan.plan.entries).toEqual([]);
  });
});

describe('npm run data:synth', () => {
  const run = promisify(execFile);
  const synth = (...args: string[]) =>
    run(process.execPath, [path.join(repoRoot, 'scripts/synth.ts'), ...args], { cwd: repoRoot }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );
  const USAGE = 'usage: npm run data:synth -- --count N --out <dir> [--seed N] [--force]';

  it('writes the same folder as the library, refuses a non-empty folder, and replaces it with --force', async () => {
    const out = path.join(await tempDir(), 'reg');
    const r = await synth('--count', '200', '--seed', '3', '--out', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^data:synth: 200 games \(\d+\.\d% multi-variant\), 40 providers, \d+ history entries, data_version 1\.2\.1, seed 3 -> .+ in \d+\.\d s\n$/,
    );
    expect(await folderHash(out)).toBe(await folderHash(await generate(200, 3)));

    const refused = await synth('--count', '200', '--out', out);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `data:synth: ${out} is not empty (pass --force to replace the registry files in it)\n${USAGE}\n` });

    expect((await synth('--count', '100', '--seed', '3', '--out', out, '--force')).code).toBe(0);
    expect(await folderHash(out)).toBe(await folderHash(await generate(100, 3)));
  });

  it.each([
    [['--out', '/tmp/x'], '--count and --out are required'],
    [['--count', '0', '--out', '/tmp/x'], '--count "0": must be a whole number from 1 to 1000000'],
    [['--count', '1e3', '--out', '/tmp/x'], '--count "1e3": must be a whole number from 1 to 1000000'],
    [['--count', '10', '--seed', 'abc', '--out', '/tmp/x'], '--seed "abc": must be a whole number from 0 to 4294967295'],
  ])('rejects %j', async (args, message) => {
    expect(await synth(...args)).toEqual({ code: 2, stdout: '', stderr: `data:synth: ${message}\n${USAGE}\n` });
  });

  it('never writes over the shipped data/ folder', async () => {
    expect(await synth('--count', '10', '--out', path.join(repoRoot, 'data'), '--force')).toEqual({
      code: 1,
      stdout: '',
      stderr: `data:synth: refusing to write synthetic data over the shipped registry (${path.join(repoRoot, 'data')})\n${USAGE}\n`,
    });
  });
});
