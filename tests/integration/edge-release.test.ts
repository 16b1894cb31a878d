// A release under load through the edge: `npm run edge` over releases/current while `npm run
// release` switches to a new data version. Concurrent loops over static and dynamic routes get no
// error; readers, each on its own keep-alive connection, never get an answer of a data version
// older than one any reader had already received when the request was sent.
import { mkdtemp, readlink, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../../src/lib/write.ts';
import { FIXTURE_GAMES, fixtureGame, makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';
import { type RunningEdge, startEdge } from '../helpers/edge.ts';
import { get } from '../helpers/load.ts';
import { request, runScript } from '../helpers/production.ts';

let tmp: string;
let releases: string;
let dataA: string;
let dataB: string;
let edge: RunningEdge;

const release = (data: string) => runScript('scripts/release.ts', [], { RELEASES_DIR: releases, RTP_DATA_DIR: data });
const SLUGS = ['deep-sea-bass', 'blackjack-classic', 'fire-keno', 'book-of-aurora'];
const versionOf = (body: string) => {
  const json = JSON.parse(body) as { data_version?: string; meta?: { data_version: string } };
  return json.meta?.data_version ?? json.data_version!;
};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-e2e-edge-release-'));
  releases = path.join(tmp, 'releases');
  dataA = await makeFixtureRegistry();
  dataB = await makeFixtureRegistry({
    games: [...FIXTURE_GAMES, fixtureGame({ canonical_slug: 'new-horizon', canonical_name: 'New Horizon', provider: 'copper-reel' })],
    meta: { data_version: '1.1.0' },
  });
  const a = await release(dataA);
  expect(a.code, a.stdout + a.stderr).toBe(0);
  edge = await startEdge(path.join(tmp, 'edge'), 2, { RTP_OUT_DIR: path.join(releases, 'current'), RELEASE_POLL_MS: '100', RATE_LIMIT: '0' });
}, 180_000);

afterAll(async () => {
  if (edge !== undefined) {
    expect(await edge.stop()).toBe(0);
    expect(edge.running()).toEqual([]);
  }
  await removeFixtureDir(dataA);
  await removeFixtureDir(dataB);
  await rm(tmp, { recursive: true, force: true });
});

describe('a release under load through the edge', () => {
  it('switches nginx and the instances to the new release with no error and no answer older than one already seen', async () => {
    const first = edge.state.instances.map((i) => i.pid);
    let stop = false;
    const errors: string[] = [];
    let requests = 0;
    const urls = SLUGS.flatMap((s) => [`/api/rtp/${s}`, `/widget/rtp/${s}`, `/api/widget/rtp/${s}`, `/rtp/${s}`]).concat([
      '/api/rtp/list?q=book',
      '/api/rtp/list?sort=rtp_desc&limit=3',
      '/api/rtp/history',
      '/',
      '/api/rtp/dump/registry.csv',
    ]);
    const loop = async (offset: number) => {
      for (let k = offset; !stop; k++) {
        const r = await request(edge.url + urls[k % urls.length]!);
        requests++;
        if (r.status !== 200) errors.push(`${urls[k % urls.length]}: ${r.status} ${r.error ?? r.text.slice(0, 120)}`);
      }
    };
    // Readers of a data version, each on one keep-alive connection: what it was sent after, what it got.
    const order = ['1.0.0', '1.1.0'];
    let newestReceived = 0;
    const stale: string[] = [];
    const seen = new Set<string>();
    const reader = async (k: number) => {
      for (let n = 0; !stop; n++) {
        const url = n % 2 === 0 ? '/api/rtp/list?q=aurora&limit=2' : `/api/rtp/${SLUGS[(k + n) % SLUGS.length]}`;
        const floor = newestReceived;
        const r = await request(edge.url + url);
        if (r.status !== 200) {
          errors.push(`reader ${k} ${url}: ${r.status} ${r.error ?? ''}`);
          continue;
        }
        const v = order.indexOf(versionOf(r.text));
        seen.add(order[v]!);
        if (v < floor) stale.push(`reader ${k}: ${url} answered ${order[v]} after ${order[floor]} had been received`);
        newestReceived = Math.max(newestReceived, v);
      }
    };
    const running = [0, 5, 11].map(loop).concat([0, 1, 2, 3].map(reader));

    const b = await release(dataB);
    expect(b.code, b.stdout + b.stderr).toBe(0);
    const nameB = await readlink(path.join(releases, 'current'));
    await edge.waitFor(new RegExp(`edge: now serving \\S*${nameB.replace(/\./g, '\\.')}`), 60_000);
    // The load goes on after the switch until it has been answered again many times.
    const after = requests;
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (requests < after + 300 && errors.length === 0) return;
        clearInterval(check);
        resolve();
      }, 20);
    });
    stop = true;
    await Promise.all(running);

    const detail = `the edge's output:\n${edge
      .output()
      .split('\n')
      .filter((l) => /edge:|\[(error|warn|crit)\]/.test(l))
      .slice(-30)
      .join('\n')}`;
    expect(errors, detail).toEqual([]);
    expect(stale, detail).toEqual([]);
    expect([...seen].sort()).toEqual(order);
    expect(requests).toBeGreaterThan(300);
    // The new release through nginx, static and dynamic; the first instances are gone.
    expect(versionOf((await get(`${edge.url}/api/rtp/list?limit=1`)).body)).toBe('1.1.0');
    expect((await get(`${edge.url}/api/rtp/new-horizon`)).status).toBe(200);
    expect((await get(`${edge.url}/widget/rtp/new-horizon`)).status).toBe(200);
    expect(first.filter(alive)).toEqual([]);
    expect(edge.state.instances.map((i) => i.pid).some((pid) => first.includes(pid))).toBe(false);
  }, 240_000);
});
