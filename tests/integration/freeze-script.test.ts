// npm run data:freeze end to end on fixture folders: writes, history appends, and refusals that write nothing.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { toDataJson } from '../../src/lib/write.ts';
import { canonicalJson, sha256Hex } from '../../src/registry/canonical.ts';
import { loadRegistry } from '../../src/registry/load.ts';
import { FIXTURE_GAMES, type FixtureOptions, fixtureGame, makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map(removeFixtureDir));
});

async function fixture(options: FixtureOptions = {}): Promise<string> {
  const dir = await makeFixtureRegistry(options);
  made.push(dir);
  return dir;
}

async function freeze(dir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [path.join(repoRoot, 'scripts/freeze.ts'), ...args], { cwd: repoRoot, env: { ...process.env, RTP_DATA_DIR: dir } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

/** Every file under `dir` with its content, to prove a refused freeze wrote nothing. */
async function snapshot(dir: string): Promise<string> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    .sort();
  const contents = await Promise.all(files.map(async (f) => [f, await readFile(path.join(dir, f), 'utf8')]));
  return sha256Hex(canonicalJson(contents));
}

const USAGE = 'usage: npm run data:freeze -- (--version X.Y.Z | --bump patch|minor|major) [--at <ISO 8601 timestamp>]';

describe('npm run data:freeze', () => {
  it('stamps the version, writes frozen.json and appends the RTP changes to history.jsonl', async () => {
    const changed = fixtureGame({
      stated_rtp: 96.3,
      rtp_variants: [
        { rtp: 94.2, kind: 'operator_ladder' },
        { rtp: 96.3, kind: 'standard' },
      ],
    });
    // The default history and frozen state are of the unchanged games: this edit is what the freeze must find.
    const dir = await fixture({ files: { 'games/aurora-games/book-of-aurora.json': toDataJson(changed) } });
    const before = await readFile(path.join(dir, 'history.jsonl'), 'utf8');

    const r = await freeze(dir, '--bump', 'minor', '--at', '2026-12-01T00:00:00Z');
    expect(r).toEqual({
      code: 0,
      stdout: 'data:freeze: 1.0.0 -> 1.1.0 at 2026-12-01T00:00:00Z: 2 history entries (0 added, 0 removed, 1 changed games; 6 games frozen)\n',
      stderr: '',
    });
    const history = await readFile(path.join(dir, 'history.jsonl'), 'utf8');
    expect(history).toBe(
      before +
        '{"data_version":"1.1.0","frozen_at":"2026-12-01T00:00:00Z","slug":"book-of-aurora","provider":"aurora-games","field":"stated_rtp","from":96.2,"to":96.3}\n' +
        '{"data_version":"1.1.0","frozen_at":"2026-12-01T00:00:00Z","slug":"book-of-aurora","provider":"aurora-games","field":"rtp_variants","from":[88.1,92.2,94.2,96.2],"to":[94.2,96.3]}\n',
    );
    const loaded = await loadRegistry(dir);
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.registry.meta).toMatchObject({ data_version: '1.1.0', frozen_at: '2026-12-01T00:00:00Z' });
    expect(loaded.registry.frozen?.games['book-of-aurora']?.stated_rtp).toBe(96.3);

    // Freezing again with no change appends nothing.
    const again = await freeze(dir, '--version', '1.1.1', '--at', '2026-12-02T00:00:00Z');
    expect(again.stdout).toBe('data:freeze: 1.1.0 -> 1.1.1 at 2026-12-02T00:00:00Z: 0 history entries (0 added, 0 removed, 0 changed games; 6 games frozen)\n');
    expect(await readFile(path.join(dir, 'history.jsonl'), 'utf8')).toBe(history);
  });

  it('gives the same bytes for the same data and --at', async () => {
    const a = await fixture({ history: [], frozen: null, meta: { data_version: '0.0.0' } });
    const b = await fixture({ history: [], frozen: null, meta: { data_version: '0.0.0' } });
    await freeze(a, '--version', '1.0.0', '--at', '2026-11-21T00:00:00Z');
    await freeze(b, '--version', '1.0.0', '--at', '2026-11-21T00:00:00Z');
    expect(await snapshot(a)).toBe(await snapshot(b));
    // And the first freeze equals the fixture's own frozen 1.0.0 state.
    expect(await snapshot(a)).toBe(await snapshot(await fixture()));
  });

  it('refuses a version that is not greater and writes nothing', async () => {
    const dir = await fixture();
    const before = await snapshot(dir);
    expect(await freeze(dir, '--version', '1.0.0', '--at', '2026-12-01T00:00:00Z')).toEqual({
      code: 1,
      stdout: '',
      stderr: `data:freeze: refused: version 1.0.0 is not greater than the current data_version 1.0.0; nothing written\n${USAGE}\n`,
    });
    expect(await snapshot(dir)).toBe(before);
  });

  it('refuses invalid data, listing the problems, and writes nothing', async () => {
    const dir = await fixture({ games: [fixtureGame({ stated_rtp: 101 }), ...FIXTURE_GAMES.slice(1)], frozen: null, history: [] });
    const before = await snapshot(dir);
    expect(await freeze(dir, '--bump', 'patch')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'games/aurora-games/book-of-aurora.json: stated_rtp: must be at most 100\n' +
        'data:freeze: refused: 1 problem(s) in the data (run npm run data:check); nothing written\n',
    });
    expect(await snapshot(dir)).toBe(before);
  });

  it('refuses unknown options with the usage line', async () => {
    const dir = await fixture();
    const r = await freeze(dir, '--versoin', '1.1.0');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`data:freeze: Unknown option '--versoin'\n${USAGE}\n`);
  });
});
