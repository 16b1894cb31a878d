// Change notifications end to end: subscribers added with `npm run hooks -- add`, two real
// releases of a fixture registry under a server following releases/current, and local receivers on
// loopback: each webhook arrives once the new release serves, signed with the subscriber's secret,
// carrying the diff of the games it watches; a 500 is retried with the same delivery id; a
// subscriber that never answers does not hold the release up and is given up after its last try;
// the WebSub hub the feeds name is pinged; running the deliverer again sends nothing twice.

import { mkdtemp, readFile, readlink, rm } from 'node:fs/promises';
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifySignature } from '../../src/hooks/sign.ts';
import type { GameFile } from '../../src/schemas/authoring.ts';
import { type ReleaseWebhook, ReleaseWebhookSchema } from '../../src/schemas/hooks.ts';
import { FIXTURE_GAMES, fixtureGame, makeFixtureRegistry, removeFixtureDir, withSource } from '../fixtures/registry.ts';
import { request, runScript } from '../helpers/production.ts';
import { type Server, startServer } from '../helpers/server.ts';

interface Hit {
  headers: IncomingMessage['headers'];
  body: string;
  /** The changed game's stated RTP the server answered with when the request arrived. */
  served: number | null;
  /** When it arrived (ms since the epoch). */
  at: number;
}

interface Receiver {
  url: string;
  hits: Hit[];
  server: HttpServer;
}

let tmp: string;
let releases: string;
let hooks: string;
let dataA: string;
let dataB: string;
let server: Server;
const receivers: Receiver[] = [];
const held: ServerResponse[] = [];

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

/** A receiver answering `statuses` in turn (the last repeated); `hold` never answers. */
async function receiver(statuses: number[] | 'hold'): Promise<Receiver> {
  const hits: Hit[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const at = Date.now();
      const r = await request(`${server.url}/api/rtp/${CHANGED}`);
      const served = r.status === 200 ? (JSON.parse(r.text) as { stated_rtp: number }).stated_rtp : null;
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), served, at });
      if (statuses === 'hold') held.push(res);
      else res.writeHead(statuses[Math.min(hits.length - 1, statuses.length - 1)]!).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const r = { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`, hits, server: http };
  receivers.push(r);
  return r;
}

const env = () => ({ RELEASES_DIR: releases, RTP_HOOKS_DIR: hooks });
const hooksCli = (args: string[]) => runScript('scripts/hooks.ts', args, env(), 30_000);
const deliveryLog = () => readFile(path.join(hooks, 'deliveries.log'), 'utf8').catch(() => '');

let all: Receiver;
let copper: Receiver;
let quiet: Receiver;
let slow: Receiver;
let hub: Receiver;
const secrets = new Map<Receiver, string>();
let nameA: string;
let nameB: string;
let releaseEnded = 0;
/** The subscribers' answer timeout: long, so a release that waited on the one that never answers would end seconds late, whatever the machine's speed. */
const HOOK_TIMEOUT_MS = 10_000;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-e2e-hooks-'));
  releases = path.join(tmp, 'releases');
  hooks = path.join(tmp, 'hooks');
  dataA = await makeFixtureRegistry();
  dataB = await makeFixtureRegistry({ games: GAMES_B, meta: { data_version: '1.1.0' } });
  all = await receiver([500, 200]);
  copper = await receiver([200]);
  quiet = await receiver([200]);
  slow = await receiver('hold');
  hub = await receiver([204]);
  for (const [r, args] of [
    [all, []],
    [copper, ['--provider', 'copper-reel']],
    [quiet, ['--games', 'deep-sea-bass,fire-keno']],
    [slow, []],
  ] as Array<[Receiver, string[]]>) {
    // The receivers are on loopback: allowed only with the flag.
    const added = await hooksCli(['add', r.url, '--allow-private', ...args]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('The secret is printed below once');
    secrets.set(r, added.stdout.trim());
  }
  const a = await runScript('scripts/release.ts', [], { ...env(), RTP_DATA_DIR: dataA });
  expect(a.code, a.stdout + a.stderr).toBe(0);
  expect(a.stdout).toContain('release: notifications: none (the first release has nothing to compare with)');
  nameA = path.basename(await readlink(path.join(releases, 'current')));
  server = await startServer({ outDir: path.join(releases, 'current'), env: { RELEASE_POLL_MS: '100', RATE_LIMIT: '0' } });
  const b = await runScript('scripts/release.ts', [], {
    ...env(),
    RTP_DATA_DIR: dataB,
    WEBSUB_HUB: hub.url,
    HOOKS_SERVING_URL: server.url,
    HOOKS_BACKOFF_MS: '200',
    HOOKS_TIMEOUT_MS: String(HOOK_TIMEOUT_MS),
    HOOKS_MAX_ATTEMPTS: '2',
  });
  releaseEnded = Date.now();
  expect(b.code, b.stdout + b.stderr).toBe(0);
  expect(b.stdout).toMatch(/release: notifications: 3 webhook\(s\) and 1 WebSub ping\(s\) queued; sent in the background, logged in .*deliveries\.log/);
  nameB = path.basename(await readlink(path.join(releases, 'current')));
  await vi.waitFor(async () => expect(await deliveryLog()).toContain('deliveries: finished'), { timeout: 60_000, interval: 100 });
}, 400_000);

afterAll(async () => {
  for (const res of held) res.destroy();
  for (const r of receivers) r.server.close();
  await server?.stop();
  await removeFixtureDir(dataA);
  await removeFixtureDir(dataB);
  await rm(tmp, { recursive: true, force: true });
});

const body = (h: Hit): ReleaseWebhook => ReleaseWebhookSchema.parse(JSON.parse(h.body));

describe('npm run release notifies subscribers', () => {
  it('stores only hashes of the secrets', async () => {
    const file = await readFile(path.join(hooks, 'subscribers.json'), 'utf8');
    for (const secret of secrets.values()) {
      expect(secret).toMatch(/^rtphook_[A-Za-z0-9_-]{43}$/);
      expect(file).not.toContain(secret);
    }
    const list = await hooksCli(['list']);
    expect(list.stdout).toContain('providers copper-reel');
    expect(list.stdout).toContain('games deep-sea-bass,fire-keno');
  });

  it('retries after a 500 with the same delivery id and body, signed, once the new release serves', () => {
    expect(all.hits).toHaveLength(2);
    const [first, second] = all.hits as [Hit, Hit];
    expect(second.headers['x-rtp-delivery']).toBe(first.headers['x-rtp-delivery']);
    expect(second.body).toBe(first.body);
    for (const h of all.hits) {
      expect(h.headers['x-rtp-event']).toBe('release');
      expect(h.headers['content-type']).toBe('application/json');
      expect(verifySignature(secrets.get(all)!, h.body, h.headers['x-rtp-signature-256'] as string)).toBe(true);
      expect(verifySignature(secrets.get(copper)!, h.body, h.headers['x-rtp-signature-256'] as string)).toBe(false);
      expect(h.served).toBe(96.5);
    }
    const b = body(first);
    expect(b.delivery_id).toBe(first.headers['x-rtp-delivery']);
    expect(b.release).toMatchObject({ name: nameB, data_version: '1.1.0', previous: nameA, previous_data_version: '1.0.0' });
    expect(b.watching).toBe('all');
    expect(b.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(b.added.map((g) => g.slug)).toEqual(['new-horizon']);
    expect(b.removed).toEqual([
      {
        slug: 'gem-mines',
        provider: 'copper-reel',
        stated_rtp: FIXTURE_GAMES.find((g) => g.canonical_slug === 'gem-mines')!.stated_rtp,
        rtp_variants: expect.any(Array),
        merged_into: null,
      },
    ]);
    const aurora = FIXTURE_GAMES.find((g) => g.canonical_slug === CHANGED)!;
    expect(b.changed).toEqual([
      {
        slug: CHANGED,
        provider: 'aurora-games',
        changes: [
          { field: 'stated_rtp', from: aurora.stated_rtp, to: 96.5 },
          { field: 'rtp_variants', from: expect.any(Array), to: [94.2, 96.5] },
        ],
      },
    ]);
  });

  it('sends a subscriber only the games it watches, and nothing when none changed', () => {
    expect(copper.hits).toHaveLength(1);
    const b = body(copper.hits[0]!);
    expect(b.watching).toEqual({ providers: ['copper-reel'], games: [] });
    expect(b.added.map((g) => g.slug)).toEqual(['new-horizon']);
    expect(b.removed.map((g) => g.slug)).toEqual(['gem-mines']);
    expect(b.changed).toEqual([]);
    expect(verifySignature(secrets.get(copper)!, copper.hits[0]!.body, copper.hits[0]!.headers['x-rtp-signature-256'] as string)).toBe(true);
    expect(quiet.hits).toEqual([]);
  });

  it('does not wait on a subscriber that never answers, and gives it up after the last try', async () => {
    expect(slow.hits).toHaveLength(2);
    // The release had ended before the first try could time out (a wide margin: the timeout is 10 s).
    expect(releaseEnded).toBeLessThan(slow.hits[0]!.at + HOOK_TIMEOUT_MS);
    const log = await deliveryLog();
    const id = slow.hits[0]!.headers['x-rtp-delivery'] as string;
    expect(log).toContain(`delivery ${id} to subscriber`);
    expect(log).toContain(`try 1 of 2 failed (no answer within ${HOOK_TIMEOUT_MS} ms); next in 200 ms`);
    expect(log).toMatch(new RegExp(`delivery ${id} to subscriber [0-9a-f]{8} ${slow.url}: failed \\(no answer within ${HOOK_TIMEOUT_MS} ms\\) after 2 tries`));
  });

  it('pings the WebSub hub the served feeds name', async () => {
    expect(hub.hits).toHaveLength(1);
    const form = new URLSearchParams(hub.hits[0]!.body);
    expect(form.get('hub.mode')).toBe('publish');
    const topics = form.getAll('hub.url');
    expect(topics[0]).toMatch(/\/api\/feeds\/rtp\.atom$/);
    expect(topics).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/api\/feeds\/game\/new-horizon\.atom$/),
        expect.stringMatching(new RegExp(`/api/feeds/game/${CHANGED}\\.atom$`)),
      ]),
    );
    const feed = await request(`${server.url}/api/feeds/rtp.atom`);
    expect(feed.text).toContain(`<link rel="hub" href="${hub.url}"/>`);
  });

  it('sends nothing twice when the deliverer runs again', async () => {
    const again = await hooksCli(['deliver']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('deliveries: finished (0 handled)');
    expect(all.hits).toHaveLength(2);
    expect(copper.hits).toHaveLength(1);
    expect(hub.hits).toHaveLength(1);
  });

  it('removes a subscriber by id', async () => {
    const id = /^([0-9a-f]{8}) .*copper-reel/m.exec((await hooksCli(['list'])).stdout)![1]!;
    const removed = await hooksCli(['remove', id]);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await hooksCli(['list'])).stdout).not.toContain('copper-reel');
    const unknown = await hooksCli(['remove', id]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`hooks: no subscriber with id "${id}"`);
  });
});
