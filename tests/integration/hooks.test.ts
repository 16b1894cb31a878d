// Change notifications, in process: secrets and signatures, the subscribers file, the release
// diff and what each subscriber watches, the settings and backoff, and the deliverer against local
// receivers on loopback (a 500 then 200 is retried with the same delivery id and body, a 2xx is
// never sent again, tries are bounded, a removed subscriber's deliveries are dropped).

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesFor, diffFigures } from '../../src/hooks/changes.ts';
import { backoff, type DeliverySettings, deliverAll, deliverySettings } from '../../src/hooks/deliver.ts';
import { enqueue, finished, pending } from '../../src/hooks/outbox.ts';
import { signBody, verifySignature } from '../../src/hooks/sign.ts';
import {
  addSubscriber,
  formatSubscriberList,
  hashSecret,
  readSubscribers,
  removeSubscriber,
  SUBSCRIBERS_FILE,
  writeSubscribers,
} from '../../src/hooks/subscribers.ts';
import type { ReleaseGame } from '../../src/schemas/dump.ts';
import type { Delivery, Subscriber, SubscribersFile } from '../../src/schemas/hooks.ts';

const NOW = new Date('2026-11-25T12:00:00Z');
const game = (slug: string, provider: string, stated: number, variants: number[] = [stated]): ReleaseGame => ({
  slug,
  provider,
  stated_rtp: stated,
  rtp_variants: variants,
});

describe('secrets and signatures', () => {
  it('prints a secret once and stores only its hash', () => {
    const { secret, record, data } = addSubscriber(
      { format: 1, subscribers: [] },
      { url: 'https://hooks.example.org/rtp', providers: ['playngo'], games: [] },
      NOW,
    );
    expect(secret).toMatch(/^rtphook_[A-Za-z0-9_-]{43}$/);
    expect(record.key_hash).toBe(hashSecret(secret));
    expect(JSON.stringify(data)).not.toContain(secret);
    expect(formatSubscriberList(data)).not.toContain(record.key_hash);
    expect(formatSubscriberList(data)).toContain('providers playngo');
  });

  it('signs the body so that a receiver holding the secret verifies it, and nothing else', () => {
    const secret = `rtphook_${'A'.repeat(43)}`;
    const body = '{"event":"release"}';
    const header = signBody(hashSecret(secret), body);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifySignature(secret, body, header)).toBe(true);
    expect(verifySignature(secret, `${body} `, header)).toBe(false);
    expect(verifySignature(`rtphook_${'B'.repeat(43)}`, body, header)).toBe(false);
    expect(verifySignature(secret, body, undefined)).toBe(false);
  });

  it('rejects a bad URL or slug naming each, and keeps the file format', async () => {
    expect(() => addSubscriber({ format: 1, subscribers: [] }, { url: 'ftp://x', providers: ['Play N Go'], games: ['ok', 'bad slug'] }, NOW)).toThrow(
      'the URL must be an absolute http(s) URL without credentials or fragment; --provider "Play N Go" must be lowercase ASCII letters and digits joined by single hyphens; --games "bad slug" must be lowercase ASCII letters and digits joined by single hyphens',
    );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-hooks-file-'));
    try {
      expect(await readSubscribers(dir)).toEqual({ format: 1, subscribers: [] });
      const { data, record } = addSubscriber(
        { format: 1, subscribers: [] },
        { url: 'http://127.0.0.1:9/x', providers: [], games: ['b', 'a', 'a'], allowPrivate: true },
        NOW,
      );
      expect(record.games).toEqual(['a', 'b']);
      await writeSubscribers(dir, data);
      expect(((await stat(path.join(dir, SUBSCRIBERS_FILE))).mode & 0o777).toString(8)).toBe('600');
      expect(await readSubscribers(dir)).toEqual(data);
      expect(removeSubscriber(data, record.id)).toEqual({ format: 1, subscribers: [] });
      expect(removeSubscriber(data, 'ffffffff')).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('release diff', () => {
  const before = new Map([game('a', 'p', 96), game('b', 'p', 95, [94, 95]), game('c', 'q', 97), game('e', 'q', 94)].map((g) => [g.slug, g]));
  const after = new Map([game('a', 'p', 96), game('b', 'p', 95.5, [94, 95.5]), game('d', 'q', 92)].map((g) => [g.slug, g]));
  const all = diffFigures(before, after, new Map([['c', 'a']]));

  it('names games added, removed (and the record a removed one was merged into) and changed with old and new figures', () => {
    expect(all).toEqual({
      added: [game('d', 'q', 92)],
      removed: [
        { ...game('c', 'q', 97), merged_into: 'a' },
        { ...game('e', 'q', 94), merged_into: null },
      ],
      changed: [
        {
          slug: 'b',
          provider: 'p',
          changes: [
            { field: 'stated_rtp', from: 95, to: 95.5 },
            { field: 'rtp_variants', from: [94, 95], to: [94, 95.5] },
          ],
        },
      ],
    });
  });

  it('gives each subscriber what it watches: everything, providers, games', () => {
    const sub = (providers: string[], games: string[]): Subscriber => ({
      id: '00000000',
      url: 'http://x/',
      key_hash: '0'.repeat(64),
      providers,
      games,
      created_at: NOW.toISOString(),
    });
    expect(changesFor(sub([], []), all)).toBe(all);
    expect(changesFor(sub(['q'], []), all)).toEqual({ added: all.added, removed: all.removed, changed: [] });
    expect(changesFor(sub([], ['b']), all)).toEqual({ added: [], removed: [], changed: all.changed });
    expect(changesFor(sub(['zzz'], ['zzz']), all)).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe('settings and backoff', () => {
  it('reads its bounds from the environment, naming every bad value', () => {
    expect(deliverySettings({})).toEqual({ maxAttempts: 6, backoffMs: 30_000, timeoutMs: 10_000, servingUrl: null, servingTimeoutMs: 300_000 });
    expect(() => deliverySettings({ HOOKS_MAX_ATTEMPTS: '0', HOOKS_SERVING_URL: 'http://x/path' })).toThrow(
      'HOOKS_MAX_ATTEMPTS must be a whole number from 1 to 20 (got "0"); HOOKS_SERVING_URL must be the origin of the server the release switches, such as http://127.0.0.1:4321 (got "http://x/path")',
    );
  });

  it('doubles the wait after each failed try, within a ceiling', () => {
    expect([1, 2, 3, 4].map((n) => backoff({ backoffMs: 1000 }, n))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoff({ backoffMs: 3_600_000 }, 20)).toBe(6 * 3600_000);
  });
});

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver on loopback answering with `statuses` in turn (the last one repeated). */
async function receiver(statuses: number[]): Promise<{ url: string; got: Received[]; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses[Math.min(got.length - 1, statuses.length - 1)]!).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, server };
}

describe('the deliverer', () => {
  let dir: string;
  const servers: Server[] = [];
  const settings: DeliverySettings = { maxAttempts: 3, backoffMs: 20, timeoutMs: 2000, servingUrl: null, servingTimeoutMs: 1000 };
  const lines: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-hooks-deliver-'));
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    await rm(dir, { recursive: true, force: true });
  });

  const delivery = (id: string, subscriber: string | null, url: string): Delivery => ({
    format: 1,
    id,
    kind: subscriber === null ? 'websub' : 'webhook',
    subscriber,
    url,
    content_type: 'application/json',
    body: `{"delivery_id":"${id}"}`,
    release: '1.1.0-000000000000',
    serving_hash: null,
    created_at: NOW.toISOString(),
    status: 'pending',
    attempts: 0,
    next_at: null,
    last_status: null,
    last_error: null,
  });

  it('retries after a 500 with the same id and body, stops after the last try, and never sends a delivered one again', async () => {
    const flaky = await receiver([500, 200]);
    const down = await receiver([503]);
    const hub = await receiver([204]);
    servers.push(flaky.server, down.server, hub.server);
    const a = addSubscriber({ format: 1, subscribers: [] }, { url: flaky.url, providers: [], games: [], allowPrivate: true }, NOW);
    const b = addSubscriber(a.data, { url: down.url, providers: [], games: [], allowPrivate: true }, NOW);
    const c = addSubscriber(b.data, { url: down.url, providers: [], games: [], allowPrivate: true }, NOW);
    await writeSubscribers(dir, removeSubscriber(c.data, c.record.id) as SubscribersFile);
    const ids = [
      '11111111-1111-4111-8111-111111111111',
      '22222222-2222-4222-8222-222222222222',
      '33333333-3333-4333-8333-333333333333',
      '44444444-4444-4444-8444-444444444444',
    ];
    await enqueue(dir, [
      delivery(ids[0]!, a.record.id, flaky.url),
      delivery(ids[1]!, b.record.id, down.url),
      delivery(ids[2]!, c.record.id, down.url),
      delivery(ids[3]!, null, hub.url),
    ]);

    expect(await deliverAll({ dir, settings, log: (l) => lines.push(l) })).toBe(true);

    expect(flaky.got.map((g) => g.headers['x-rtp-delivery'])).toEqual([ids[0], ids[0]]);
    expect(flaky.got[0]!.body).toBe(flaky.got[1]!.body);
    for (const g of flaky.got) expect(verifySignature(a.secret, g.body, g.headers['x-rtp-signature-256'] as string)).toBe(true);
    expect(flaky.got[0]!.headers['x-rtp-event']).toBe('release');
    expect(down.got).toHaveLength(3); // the removed subscriber's delivery was never sent
    expect(hub.got).toHaveLength(1);
    expect(hub.got[0]!.headers['x-rtp-signature-256']).toBeUndefined();

    expect(await finished(dir, ids[0]!)).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200 });
    expect(await finished(dir, ids[1]!)).toMatchObject({ status: 'failed', attempts: 3, last_status: 503, last_error: 'HTTP 503' });
    expect(await finished(dir, ids[2]!)).toMatchObject({ status: 'failed', attempts: 0, last_error: 'the subscriber was removed' });
    expect(await pending(dir, () => undefined)).toEqual([]);
    expect(lines.join('\n')).toContain(`delivery ${ids[0]} to subscriber ${a.record.id} ${flaky.url}: try 1 of 3 failed (HTTP 500); next in 20 ms`);
    expect(lines.join('\n')).toContain(`delivery ${ids[0]} to subscriber ${a.record.id} ${flaky.url}: delivered after 2 tries`);
    expect(lines.at(-1)).toBe('deliveries: finished (4 handled)');

    // A second run finds nothing to send: no duplicate after a 2xx.
    await deliverAll({ dir, settings, log: () => undefined });
    expect(flaky.got).toHaveLength(2);
    expect(hub.got).toHaveLength(1);
    expect(JSON.parse(await readFile(path.join(dir, 'done', `${ids[0]}.json`), 'utf8'))).toMatchObject({ status: 'delivered' });
  });
});
