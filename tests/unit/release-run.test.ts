// runRelease and runRollback with injected build and check steps: the switch happens only after
// every step passed; any failure leaves `current` (and its files) as they were.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReleaseError, type ReleaseSteps, runRelease, runRollback } from '../../src/release/release.ts';
import { listReleases, readCurrent } from '../../src/release/store.ts';
import { ReleaseInfoSchema, ReleaseManifestSchema } from '../../src/schemas/release.ts';
import { FIXTURE_GAMES, fixtureGame, makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';

let dir: string;
let data: string;
let clock = 0;
const now = () => new Date(Date.UTC(2026, 10, 21, 0, 0, clock++));

/** A fake build: one slot file per entry of `files`, plus the build record for `version`. */
function fakeSteps(version: { v: string; files: Record<string, string> }, overrides: Partial<ReleaseSteps> = {}): ReleaseSteps {
  return {
    async build(outDir) {
      await mkdir(path.join(outDir, 'client/api/rtp'), { recursive: true });
      await mkdir(path.join(outDir, 'server'), { recursive: true });
      for (const [slug, text] of Object.entries(version.files)) await writeFile(path.join(outDir, 'client/api/rtp', slug), text);
      await writeFile(path.join(outDir, 'client/index.html'), `<h1>${version.v}</h1>`);
      const info = {
        format: 1,
        site: 'http://127.0.0.1:4321',
        data_version: version.v,
        frozen_at: '2026-11-21T00:00:00Z',
        games: Object.keys(version.files).length,
        providers: 1,
      };
      await writeFile(path.join(outDir, 'server/build-info.json'), JSON.stringify(info));
      await writeFile(path.join(outDir, 'server/registry-bundle.json'), JSON.stringify(version));
    },
    async check() {},
    ...overrides,
  };
}

const V1 = { v: '1.0.0', files: { 'book-of-aurora': 'a1', 'deep-sea-bass': 'b1' } };
const V2 = { v: '1.1.0', files: { 'book-of-aurora': 'a2', 'fire-keno': 'c1' } };

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-run-'));
  data = await makeFixtureRegistry();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await removeFixtureDir(data);
});

const release = (steps: ReleaseSteps, keep = 5) => runRelease({ dir, dataDir: data, keep, steps, now });

describe('runRelease', () => {
  it('builds, records and switches; the next release carries a manifest against it', async () => {
    const first = await release(fakeSteps(V1));
    expect(first.switched).toBe(true);
    expect(first.name).toMatch(/^1\.0\.0-[0-9a-f]{12}$/);
    expect(await readCurrent(dir)).toBe(first.name);
    const files = (await readdir(path.join(dir, first.name))).sort();
    expect(files).toEqual(['client', 'files.sha256', 'manifest.json', 'purge.txt', 'release.json', 'server']);

    const second = await release(fakeSteps(V2));
    expect(await readCurrent(dir)).toBe(second.name);
    expect(second.previous).toBe(first.name);
    const manifest = ReleaseManifestSchema.parse(JSON.parse(await readFile(path.join(dir, second.name, 'manifest.json'), 'utf8')));
    expect(manifest.from).toBe(first.name);
    expect(manifest.families.slot).toEqual({ changed: ['/api/rtp/book-of-aurora'], added: ['/api/rtp/fire-keno'], removed: ['/api/rtp/deep-sea-bass'] });
    expect(manifest.families.page.changed).toEqual(['/']);
    expect(await readFile(path.join(dir, second.name, 'purge.txt'), 'utf8')).toBe(
      '/\n/api/rtp/book-of-aurora\n/api/rtp/deep-sea-bass\n/api/rtp/fire-keno\n/api/rtp/list*\n/api/rtp/history*\n/api/rtp/identify*\n',
    );
    const info = ReleaseInfoSchema.parse(JSON.parse(await readFile(path.join(dir, second.name, 'release.json'), 'utf8')));
    expect(info).toMatchObject({ name: second.name, data_version: '1.1.0', previous: first.name, games: 2 });
  });

  it('an identical build switches nothing', async () => {
    const first = await release(fakeSteps(V1));
    const again = await release(fakeSteps(V1));
    expect(again).toMatchObject({ name: first.name, switched: false });
    expect(again.manifest.counts).toEqual({ changed: 0, added: 0, removed: 0 });
    expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it.each([
    ['build', { build: async () => Promise.reject(new Error('astro build failed (exit code 1)')) }],
    ['check', { check: async () => Promise.reject(new Error('dist:check failed (exit code 1)')) }],
  ] as const)('a failing %s leaves the current release serving and no staging folder', async (stepName, override) => {
    const first = await release(fakeSteps(V1));
    const before = await readFile(path.join(dir, first.name, 'client/api/rtp/book-of-aurora'), 'utf8');
    const failed = await release(fakeSteps(V2, override)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ReleaseError);
    expect((failed as ReleaseError).step).toBe(stepName);
    expect(await readCurrent(dir)).toBe(first.name);
    expect(await readFile(path.join(dir, 'current/client/api/rtp/book-of-aurora'), 'utf8')).toBe(before);
    expect((await readdir(dir)).sort()).toEqual([first.name, 'current']);
  });

  it('invalid data fails before anything is built', async () => {
    const first = await release(fakeSteps(V1));
    await removeFixtureDir(data);
    data = await makeFixtureRegistry({ games: [fixtureGame({ stated_rtp: 140 }), ...FIXTURE_GAMES.slice(1)] });
    let built = false;
    const failed = await release(fakeSteps(V2, { build: async () => void (built = true) })).catch((e: unknown) => e);
    expect((failed as ReleaseError).step).toBe('data');
    expect((failed as ReleaseError).message).toContain('stated_rtp');
    expect(built).toBe(false);
    expect(await readCurrent(dir)).toBe(first.name);
  });

  it('a crash between staging and switching leaves current as it was; the next release goes on', async () => {
    const first = await release(fakeSteps(V1));
    const crashed = await release(
      fakeSteps(V2, {
        reached: (point) => {
          if (point === 'staged') throw new Error('crash');
        },
      }),
    ).catch((e: unknown) => e);
    expect((crashed as Error).message).toBe('crash');
    expect(await readCurrent(dir)).toBe(first.name);
    const next = await release(fakeSteps(V2));
    expect(next.switched).toBe(true);
    expect(await readCurrent(dir)).toBe(next.name);
  });

  it('removes left-over staging folders of a killed run', async () => {
    await mkdir(path.join(dir, '.staging-1-1/client'), { recursive: true });
    const lines: string[] = [];
    await runRelease({ dir, dataDir: data, keep: 5, steps: fakeSteps(V1), now, log: (l) => lines.push(l) });
    expect(existsSync(path.join(dir, '.staging-1-1'))).toBe(false);
    expect(lines[0]).toBe('removed leftovers of an interrupted run: .staging-1-1');
  });

  it('keeps the last N releases', async () => {
    const names: string[] = [];
    for (let k = 0; k < 4; k++) names.push((await release(fakeSteps({ v: `1.${k}.0`, files: { 'book-of-aurora': `x${k}` } }), 2)).name);
    expect((await listReleases(dir)).map((r) => r.name)).toEqual([names[3], names[2]]);
  });
});

describe('runRollback', () => {
  it('switches back one release at a time and fails when there is none left', async () => {
    const a = await release(fakeSteps(V1));
    const b = await release(fakeSteps(V2));
    expect(await runRollback({ dir })).toEqual({ from: b.name, to: a.name });
    expect(await readCurrent(dir)).toBe(a.name);
    const failed = await runRollback({ dir }).catch((e: unknown) => e);
    expect((failed as ReleaseError).message).toBe(`there is no release to roll back to in ${dir} (current: ${a.name})`);
    expect(await readCurrent(dir)).toBe(a.name);
  });
});
