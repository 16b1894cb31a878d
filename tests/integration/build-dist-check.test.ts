import { execFile } from 'node:child_process';
import { cpSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFile, checkHeadersFile, strayFiles, WIDGET_GZIP_BUDGET } from '../../dist-check/rules.ts';
import { checkDist } from '../../dist-check/run.ts';
import { renderDumps } from '../../src/emit/dumps.ts';
import { prepareBuild, writeBuild } from '../../src/emit/emit.ts';
import { renderHeadersFile } from '../../src/emit/headers.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { FIXTURE_GAMES, fixtureGame, makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';

const run = promisify(execFile);
const SITE = 'https://rtp.example.org';
const ENV = { RTP_SITE: '' };
let data: string;
let pristine: string;
const temps: string[] = [];

async function temp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'rtp-distcheck-'));
  temps.push(d);
  return d;
}

/** A fresh copy of the fixture dist to break. */
async function distCopy(): Promise<string> {
  const d = await temp();
  cpSync(pristine, d, { recursive: true });
  return d;
}

/** The dump files of the fixture build (src/emit/dumps.ts). */
let DUMPS = 0;
beforeAll(async () => {
  data = await makeFixtureRegistry();
  pristine = await temp();
  const prep = prepareBuild(await loadRegistryOrThrow(data), SITE);
  DUMPS = renderDumps(prep.bundle, SITE).length;
  await writeBuild(prep, path.join(pristine, 'client'), path.join(pristine, 'server'));
});
afterAll(async () => {
  await removeFixtureDir(data);
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

const check = async (outDir: string, dataDir = data, env: NodeJS.ProcessEnv = ENV) => checkDist({ outDir, dataDir, env });

describe('checkDist', () => {
  it('passes a fresh build', async () => {
    const r = await check(pristine);
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ games: 6, providers: 3, files: 6 * 5 + 3 * 2 + DUMPS });
  });

  it('reports a missing file and the wrong count', async () => {
    const d = await distCopy();
    unlinkSync(path.join(d, 'client/api/rtp/gem-mines'));
    expect((await check(d)).problems).toEqual([
      { file: 'client/api/rtp/gem-mines', problem: 'is missing' },
      { file: 'client/api/rtp/', problem: 'holds 5 files, the data has 6 games' },
    ]);
  });

  it('reports a missing family folder once', async () => {
    const d = await distCopy();
    rmSync(path.join(d, 'client/api/widget'), { recursive: true });
    expect((await check(d)).problems).toEqual([{ file: 'client/api/widget/rtp/', problem: 'is missing' }]);
  });

  it('reports stray files and folders (e.g. a slug no longer in the data)', async () => {
    const d = await distCopy();
    writeFileSync(path.join(d, 'client/api/rtp/old-game'), '{}');
    writeFileSync(path.join(d, 'client/widget/rtp/old-game.html'), '<p>');
    cpSync(path.join(d, 'client/api/rtp/provider'), path.join(d, 'client/api/rtp/extra'), { recursive: true });
    expect((await check(d)).problems).toEqual([
      { file: 'client/api/rtp/extra/', problem: 'is a stray folder' },
      { file: 'client/api/rtp/old-game', problem: 'is stray: the data has no game or provider for it' },
      { file: 'client/widget/rtp/old-game.html', problem: 'is stray: the data has no game or provider for it' },
      { file: 'client/api/rtp/', problem: 'holds 7 files, the data has 6 games' },
      { file: 'client/widget/rtp/', problem: 'holds 7 files, the data has 6 games' },
    ]);
  });

  it('reports stale, unparsable and schema-breaking JSON', async () => {
    const d = await distCopy();
    const wd = path.join(d, 'client/api/widget/rtp/fire-keno');
    writeFileSync(wd, JSON.stringify({ ...JSON.parse(readFileSync(wd, 'utf8')), stated_rtp: 99 }));
    writeFileSync(path.join(d, 'client/api/rtp/gem-mines'), '{"canonical_slug":');
    const pf = path.join(d, 'client/api/rtp/provider/copper-reel');
    const { games_count: _dropped, ...rest } = JSON.parse(readFileSync(pf, 'utf8'));
    writeFileSync(pf, JSON.stringify(rest));
    expect((await check(d)).problems).toEqual([
      { file: 'client/api/widget/rtp/fire-keno', problem: 'is stale: its content differs from what the data produces now' },
      { file: 'client/api/rtp/gem-mines', problem: expect.stringMatching(/^is not valid JSON \(/) },
      { file: 'client/api/rtp/provider/copper-reel', problem: 'does not match its schema at games_count: Invalid input: expected number, received undefined' },
      { file: 'client/api/rtp/provider/copper-reel', problem: 'is stale: its content differs from what the data produces now' },
    ]);
  });

  it('reports a widget over the gzip budget', async () => {
    const d = await distCopy();
    const w = path.join(d, 'client/widget/rtp/book-of-aurora.html');
    let noise = '';
    for (let i = 0; noise.length < 20_000; i++) noise += ((i * 2654435761) >>> 0).toString(36);
    writeFileSync(w, `${readFileSync(w, 'utf8')}<!--${noise}-->`);
    const problems = (await check(d)).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]!.problem).toMatch(new RegExp(`^is \\d+ bytes gzip, over the ${WIDGET_GZIP_BUDGET}-byte widget budget$`));
    expect(problems[1]!.problem).toMatch(/^is stale/);
  });

  it('reports a missing _headers file, a missing rule and a wrong value', async () => {
    const d = await distCopy();
    const hf = path.join(d, 'client/_headers');
    unlinkSync(hf);
    expect((await check(d)).problems).toEqual([{ file: 'client/_headers', problem: 'is missing' }]);
    const text = renderHeadersFile()
      .replace(/^\/widget\/rtp\/:slug\n( {2}.*\n)+/m, '')
      .replace(
        '/api/rtp/provider/:provider\n  Content-Type: application/json; charset=utf-8',
        '/api/rtp/provider/:provider\n  Content-Type: application/octet-stream',
      );
    writeFileSync(hf, text);
    expect((await check(d)).problems).toEqual([
      {
        file: 'client/_headers',
        problem: 'rule /api/rtp/provider/:provider: Content-Type is "application/octet-stream", expected "application/json; charset=utf-8"',
      },
      { file: 'client/_headers', problem: 'has no rule for /widget/rtp/:slug' },
      { file: 'client/_headers', problem: 'differs from what the route table gives the pages of this build' },
    ]);
  });

  it('reports a missing or stale nginx.conf, and _headers without the rules of the pages', async () => {
    const d = await distCopy();
    const conf = path.join(d, 'edge/nginx.conf');
    writeFileSync(conf, `${readFileSync(conf, 'utf8')}# edited\n`);
    writeFileSync(path.join(d, 'client/about.html'), '<!doctype html><title>About</title>');
    const problems = (await check(d)).problems;
    // A page the rules do not name (about.html was added after the build) and an edited nginx.conf.
    expect(problems).toEqual([
      { file: 'client/_headers', problem: 'differs from what the route table gives the pages of this build' },
      { file: 'edge/nginx.conf', problem: 'differs from what the route table gives the files of this build' },
    ]);
    unlinkSync(conf);
    expect((await check(d)).problems).toContainEqual({ file: 'edge/nginx.conf', problem: 'is missing' });
  });

  it('reports a missing _redirects, or one that differs from the merged slugs of the data', async () => {
    const d = await distCopy();
    const file = path.join(d, 'client/_redirects');
    writeFileSync(file, `${readFileSync(file, 'utf8')}/api/rtp/gem-mines-studio /api/rtp/gem-mines 301\n`);
    expect((await check(d)).problems).toEqual([{ file: 'client/_redirects', problem: 'differs from the merged slugs of the data' }]);
    unlinkSync(file);
    expect((await check(d)).problems).toEqual([{ file: 'client/_redirects', problem: 'is missing' }]);
  });

  it('reports a missing or stale registry bundle and build-info', async () => {
    const d = await distCopy();
    unlinkSync(path.join(d, 'server/registry-bundle.json'));
    unlinkSync(path.join(d, 'server/build-info.json'));
    // Without build-info the site comes from RTP_SITE.
    expect((await check(d, data, { RTP_SITE: SITE })).problems).toEqual([
      { file: 'server/build-info.json', problem: 'is missing' },
      { file: 'server/registry-bundle.json', problem: 'is missing' },
    ]);
  });

  it('requires the list bundle and the bundled server in a server build (entry.mjs present)', async () => {
    const d = await distCopy();
    writeFileSync(path.join(d, 'server/entry.mjs'), '// the Astro server entry');
    expect((await check(d)).problems).toEqual([
      { file: 'server/list-bundle.bin', problem: 'is missing' },
      { file: 'server/runtime/server.mjs', problem: 'is missing' },
    ]);
  });

  it('reports a dist built for another site than RTP_SITE', async () => {
    const r = await check(pristine, data, { RTP_SITE: 'https://other.example' });
    expect(r.problems).toEqual([{ file: 'server/build-info.json', problem: `was built for site ${SITE}, but RTP_SITE is https://other.example` }]);
  });

  it('finds every file touched by a data change made after the build, and the files of a removed game', async () => {
    const keep = FIXTURE_GAMES.filter((g) => g.canonical_slug !== 'gem-mines' && g.canonical_slug !== 'book-of-aurora');
    const changedGame = fixtureGame({ stated_rtp: 96.3, rtp_variants: [{ rtp: 96.3, kind: 'standard' }] });
    // Same history as the built data, so only the changed and removed games differ.
    const built = await loadRegistryOrThrow(data);
    const changed = await makeFixtureRegistry({ games: [changedGame, ...keep], history: built.history, frozen: built.frozen });
    temps.push(changed);
    const result = await check(pristine, changed);
    expect(result.dataProblems).toBeUndefined();
    const files = result.problems.map((p) => `${p.file}: ${p.problem.split(':')[0]}`);
    expect(files).toEqual([
      'server/build-info.json: is stale',
      'client/api/rtp/book-of-aurora: is stale',
      'client/api/widget/rtp/book-of-aurora: is stale',
      'client/widget/rtp/book-of-aurora.html: is stale',
      'client/api/badge/rtp/book-of-aurora.svg: is stale',
      'client/api/rtp/fire-keno: is stale', // provider_meta: copper-reel lost a game
      'client/api/rtp/lucky-scratch: is stale', // provider_meta: aurora-games' highest RTP moved
      'client/api/rtp/provider/aurora-games: is stale',
      'client/api/rtp/provider/copper-reel: is stale',
      'client/api/feeds/provider/copper-reel.atom: is stale', // its gem-mines entries now point to the tombstones
      'client/api/rtp/gem-mines: is stray',
      'client/api/widget/rtp/gem-mines: is stray',
      'client/widget/rtp/gem-mines.html: is stray',
      'client/api/badge/rtp/gem-mines.svg: is stray',
      'client/api/feeds/game/gem-mines.atom: is stray',
      'client/api/rtp/: holds 6 files, the data has 5 games',
      'client/api/widget/rtp/: holds 6 files, the data has 5 games',
      'client/widget/rtp/: holds 6 files, the data has 5 games',
      'client/api/badge/rtp/: holds 6 files, the data has 5 games',
      'client/api/feeds/game/: holds 6 files, the data has 5 games',
      // The history is the same, so the release diffs and tombstones are too.
      'client/api/rtp/dump/registry.json: is stale',
      'client/api/rtp/dump/registry.ndjson: is stale',
      'client/api/rtp/dump/registry.csv: is stale',
      'client/api/rtp/dump/datapackage.json: is stale',
      'client/llms.txt: is stale', // it counts the games
      'client/api/feeds/rtp.atom: is stale',
      'server/registry-bundle.json: is stale',
    ]);
  });

  it('refuses to check against invalid data', async () => {
    const bad = await makeFixtureRegistry({ games: [fixtureGame({ stated_rtp: 101 })] });
    temps.push(bad);
    const r = await check(pristine, bad);
    expect(r.dataProblems).toMatch(/games\/aurora-games\/book-of-aurora\.json: stated_rtp: must be at most 100/);
  });
});

describe('rules', () => {
  it('checkFile and strayFiles work on plain values', () => {
    expect(checkFile({ family: 'widget', file: 'widget/rtp/a.html', text: '<p>' }, '<p>')).toEqual([]);
    expect(checkFile({ family: 'widget', file: 'widget/rtp/a.html', text: '<p>' }, undefined)).toEqual([
      { file: 'client/widget/rtp/a.html', problem: 'is missing' },
    ]);
    expect(strayFiles(new Set(['api/rtp/a']), ['api/rtp/b', 'api/rtp/a'])).toEqual([
      { file: 'client/api/rtp/b', problem: 'is stray: the data has no game or provider for it' },
    ]);
    expect(checkHeadersFile(renderHeadersFile())).toEqual([]);
  });
});

describe('npm run dist:check', () => {
  const cli = (outDir: string) =>
    run(process.execPath, ['dist-check/check.ts'], { env: { ...process.env, RTP_OUT_DIR: outDir, RTP_DATA_DIR: data, RTP_SITE: '' } }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('exits 0 on a good dist', async () => {
    const r = await cli(pristine);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `dist-check: ok: ${pristine} matches ${data} (6 games, 3 providers, ${6 * 5 + 3 * 2 + DUMPS} files, _headers, registry bundle).`,
    );
  });

  it('prints every problem with its file and the fix command, then exits 1 once', async () => {
    const d = await distCopy();
    unlinkSync(path.join(d, 'client/api/rtp/gem-mines'));
    unlinkSync(path.join(d, 'client/_headers'));
    const r = await cli(d);
    expect(r.code).toBe(1);
    const fix = `(fix: run \`RTP_DATA_DIR=${data} RTP_OUT_DIR=${d} npm run build\`)`;
    expect(r.stderr.trim().split('\n')).toEqual([
      `${path.join(d, 'client/api/rtp/gem-mines')}: is missing ${fix}`,
      `${path.join(d, 'client/api/rtp/')}: holds 5 files, the data has 6 games ${fix}`,
      `${path.join(d, 'client/_headers')}: is missing ${fix}`,
      `dist-check: 3 problems in ${d} (data ${data}).`,
    ]);
  });
});
