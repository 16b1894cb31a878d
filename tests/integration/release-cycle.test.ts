// `npm run release` end to end: two real releases of a fixture registry, a server following
// releases/current that switches between them under a request loop without a single error, a
// manifest naming exactly the changed paths, failures (invalid data, failing check, a crash) that
// leave the old release serving, rollback, and SIGHUP.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { switchCurrent } from '../../src/release/store.ts';
import type { GameFile } from '../../src/schemas/authoring.ts';
import { ReleaseManifestSchema } from '../../src/schemas/release.ts';
import { FIXTURE_GAMES, fixtureGame, makeFixtureRegistry, removeFixtureDir, withSource } from '../fixtures/registry.ts';
import { reloadedOn, request, runScript } from '../helpers/production.ts';
import { type Server, startServer } from '../helpers/server.ts';

let tmp: string;
let releases: string;
let dataA: string;
let dataB: string;
let nameA: string;
let nameB: string;
let server: Server;

// B changes one game's RTP, drops gem-mines and adds a new game.
const CHANGED = 'book-of-aurora';
const GAMES_B: Array<GameFile | Record<string, unknown>> = [
  ...FIXTURE_GAMES.filter((g) => g.canonical_slug !== 'gem-mines').map((g) =>
    g.canonical_slug === CHANGED
      ? withSource(
          {
            ...g,
            stated_rtp: 96.5,
            rtp_variants: [
              { rtp: 94.2, kind: 'operator_ladder' },
              { rtp: 96.5, kind: 'standard' },
            ],
          },
          2,
        )
      : g,
  ),
  fixtureGame({ canonical_slug: 'new-horizon', canonical_name: 'New Horizon', provider: 'copper-reel' }),
];
const STABLE = ['deep-sea-bass', 'blackjack-classic', 'fire-keno', 'lucky-scratch', CHANGED];

// Notifications go to an empty hooks folder of the test's own (none are sent), never the repository's var/hooks.
const release = (data: string, env: NodeJS.ProcessEnv = {}, args: string[] = []) =>
  runScript('scripts/release.ts', args, { RELEASES_DIR: releases, RTP_DATA_DIR: data, RTP_HOOKS_DIR: path.join(tmp, 'hooks'), ...env });
const current = () => readlink(path.join(releases, 'current'));
const version = async (base: string) =>
  (JSON.parse((await request(`${base}/api/rtp/list?limit=1`)).text) as { meta: { data_version: string } }).meta.data_version;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-e2e-release-'));
  releases = path.join(tmp, 'releases');
  dataA = await makeFixtureRegistry();
  dataB = await makeFixtureRegistry({ games: GAMES_B, meta: { data_version: '1.1.0' } });
  const a = await release(dataA);
  expect(a.code, a.stdout + a.stderr).toBe(0);
  nameA = await current();
  server = await startServer({ outDir: path.join(releases, 'current'), env: { RELEASE_POLL_MS: '100', RATE_LIMIT: '0' } });
});

afterAll(async () => {
  await server?.stop();
  await removeFixtureDir(dataA);
  await removeFixtureDir(dataB);
  await rm(tmp, { recursive: true, force: true });
});

describe('npm run release', () => {
  it('switches a running server to the new release under load with zero errors', async () => {
    expect(await version(server.url)).toBe('1.0.0');
    let stop = false;
    const errors: string[] = [];
    let requests = 0;
    const urls = STABLE.flatMap((s) => [`/api/rtp/${s}`, `/widget/rtp/${s}`, `/api/widget/rtp/${s}`, `/rtp/${s}`]).concat([
      '/api/rtp/provider/aurora-games',
      '/api/rtp/list?q=book',
      '/api/rtp/list?sort=rtp_desc&limit=3',
      '/api/rtp/history',
      '/',
    ]);
    const loop = async (offset: number) => {
      for (let k = offset; !stop; k++) {
        const url = urls[k % urls.length]!;
        const r = await request(server.url + url);
        requests++;
        if (r.status !== 200) errors.push(`${url}: ${r.status} ${r.error ?? r.text.slice(0, 120)}`);
      }
    };
    // One sequential reader of a cached list query: once it has seen a new data version it must
    // not see the old one again until the next switch (no stale cache).
    const seen: string[] = [];
    let reads = 0;
    const reader = async () => {
      while (!stop) {
        const r = await request(`${server.url}/api/rtp/list?q=aurora&limit=2`);
        reads++;
        if (r.status !== 200) errors.push(`reader: ${r.status}`);
        else {
          const v = (JSON.parse(r.text) as { meta: { data_version: string } }).meta.data_version;
          if (seen.at(-1) !== v) seen.push(v);
        }
      }
    };
    const loops = [0, 7, 13, 21].map(loop).concat(reader());

    const b = await release(dataB);
    expect(b.code, b.stdout + b.stderr).toBe(0);
    nameB = await current();
    expect(nameB).toMatch(/^1\.1\.0-[0-9a-f]{12}$/);
    // Then flip between the two releases a few times, as fast as the server picks them up.
    let switches = 1;
    for (const target of [nameA, nameB, nameA, nameB]) {
      const expected = target === nameA ? '1.0.0' : '1.1.0';
      await switchCurrent(releases, target);
      switches++;
      await vi.waitFor(async () => expect(await version(server.url)).toBe(expected), { timeout: 30_000, interval: 50 });
    }
    // Keep the load on after the last switch until the reader and the loops have been answered again a number of times.
    const [readsThen, requestsThen] = [reads, requests];
    await vi.waitFor(() => expect(reads >= readsThen + 20 && requests >= requestsThen + 100).toBe(true), { timeout: 30_000, interval: 20 });
    stop = true;
    await Promise.all(loops);

    expect(errors).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    expect(seen[0]).toBe('1.0.0');
    expect(seen.at(-1)).toBe('1.1.0');
    expect(seen.length - 1).toBeLessThanOrEqual(switches);
    expect(await version(server.url)).toBe('1.1.0');
    expect(server.output()).toMatch(/release: now serving .*1\.1\.0-[0-9a-f]{12} \(data 1\.1\.0/);
  }, 120_000);

  it('serves the new content: changed, added and removed games', async () => {
    const changed = JSON.parse((await request(`${server.url}/api/rtp/${CHANGED}`)).text) as { stated_rtp: number };
    expect(changed.stated_rtp).toBe(96.5);
    expect((await request(`${server.url}/api/rtp/new-horizon`)).status).toBe(200);
    const gone = await request(`${server.url}/api/rtp/gem-mines`);
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('{"statusCode":404,"statusMessage":"slot not found in registry"}');
  });

  it('wrote a manifest and purge list naming exactly what changed', async () => {
    const manifest = ReleaseManifestSchema.parse(JSON.parse(await readFile(path.join(releases, nameB, 'manifest.json'), 'utf8')));
    expect(manifest).toMatchObject({ from: nameA, to: nameB, from_data_version: '1.0.0', to_data_version: '1.1.0', data_version_changed: true });
    expect(manifest.families.slot.added).toEqual(['/api/rtp/new-horizon']);
    expect(manifest.families.slot.removed).toEqual(['/api/rtp/gem-mines']);
    // Every slot record carries the data version, so every remaining slot file changed.
    expect(manifest.families.slot.changed).toContain(`/api/rtp/${CHANGED}`);
    expect(manifest.families.widget.changed).toContain(`/widget/rtp/${CHANGED}`);
    expect(manifest.families.widget.removed).toEqual(['/widget/rtp/gem-mines']);
    expect(manifest.families.widget_data.added).toEqual(['/api/widget/rtp/new-horizon']);
    expect(manifest.families.game_page.added).toEqual(['/rtp/new-horizon']);
    expect(manifest.families.provider.changed).toContain('/api/rtp/provider/copper-reel');
    expect(manifest.families.badge.added).toEqual(['/api/badge/rtp/new-horizon.svg']);
    expect(manifest.families.feed.added).toEqual(['/api/feeds/game/new-horizon.atom']);
    expect(manifest.families.dump.changed).toEqual(
      expect.arrayContaining(['/api/rtp/dump/registry.json', '/api/rtp/dump/datapackage.json', '/api/feeds/rtp.atom', '/llms.txt']),
    );
    const purge = (await readFile(path.join(releases, nameB, 'purge.txt'), 'utf8')).trim().split('\n');
    expect(purge).toContain('/api/rtp/gem-mines');
    expect(purge).toContain('/widget/rtp/new-horizon');
    expect(purge.slice(-3)).toEqual(['/api/rtp/list*', '/api/rtp/history*', '/api/rtp/identify*']);
    expect(purge.some((p) => p.startsWith('/_astro/'))).toBe(false);
  });

  it('invalid data fails before building; the old release keeps serving', async () => {
    const broken = await makeFixtureRegistry({ games: [fixtureGame({ stated_rtp: 140 }), ...FIXTURE_GAMES.slice(1)], meta: { data_version: '1.2.0' } });
    try {
      const r = await release(broken);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('release failed at step "data"');
      expect(r.stderr).toContain('stated_rtp');
      expect(r.stderr).toContain('still serves the previous release');
    } finally {
      await removeFixtureDir(broken);
    }
    expect(await current()).toBe(nameB);
    expect(await version(server.url)).toBe('1.1.0');
  });

  it('a failing dist:check leaves the old release serving and no staging folder', async () => {
    const next = await makeFixtureRegistry({ meta: { data_version: '1.2.0' } });
    try {
      const r = await release(next, { RTP_RELEASE_FAULT: 'built:corrupt' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('release failed at step "check": dist:check failed');
    } finally {
      await removeFixtureDir(next);
    }
    expect(await current()).toBe(nameB);
    expect((await readdir(releases)).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(await version(server.url)).toBe('1.1.0');
  }, 120_000);

  it('a crash after staging (SIGKILL, no clean-up) leaves the old release serving', async () => {
    const next = await makeFixtureRegistry({ meta: { data_version: '1.2.0' } });
    try {
      const r = await release(next, { RTP_RELEASE_FAULT: 'staged' });
      expect(r.signal).toBe('SIGKILL');
    } finally {
      await removeFixtureDir(next);
    }
    expect(await current()).toBe(nameB);
    // A forced reload (SIGHUP) looks at the link now: it still names the release serving.
    await reloadedOn(server, nameB);
    expect(await version(server.url)).toBe('1.1.0');
    expect(existsSync(path.join(releases, '.lock'))).toBe(true); // left by the killed run, taken over by the next
  }, 120_000);

  it('--rollback switches back to the previous release; the server follows', async () => {
    const r = await release(dataB, {}, ['--rollback']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`release: now serving ${nameA}`);
    expect(await current()).toBe(nameA);
    await vi.waitFor(async () => expect(await version(server.url)).toBe('1.0.0'), { timeout: 30_000, interval: 50 });
    expect(await version(server.url)).toBe('1.0.0');
  });

  it('a server that does not poll switches on SIGHUP', async () => {
    const still = await startServer({ outDir: path.join(releases, 'current'), env: { RELEASE_POLL_MS: '0', RATE_LIMIT: '0' } });
    try {
      expect(await version(still.url)).toBe('1.0.0');
      await switchCurrent(releases, nameB);
      // The polling server follows the same link: once it has switched, a poll's time has passed.
      await vi.waitFor(async () => expect(await version(server.url)).toBe('1.1.0'), { timeout: 30_000, interval: 50 });
      expect(await version(still.url)).toBe('1.0.0');
      still.signal('SIGHUP');
      await vi.waitFor(async () => expect(await version(still.url)).toBe('1.1.0'), { timeout: 30_000, interval: 50 });
      expect(await version(still.url)).toBe('1.1.0');
    } finally {
      await still.stop();
    }
  });
});
