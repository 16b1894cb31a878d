// Webhook targets (src/hooks/target.ts, post.ts): every spelling of a loopback, private, link-local,
// unique-local, multicast or unspecified address is refused by `npm run hooks -- add` unless
// --allow-private; a delivery to a name that resolves to loopback is refused without the flag.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliverySettings, deliverAll } from '../../src/hooks/deliver.ts';
import { enqueue, finished } from '../../src/hooks/outbox.ts';
import { addSubscriber, readSubscribers, SUBSCRIBERS_FILE, writeSubscribers } from '../../src/hooks/subscribers.ts';
import { checkHookTarget, ERR_HOOK_TARGET_PRIVATE, guardedLookup, nonPublicRange } from '../../src/hooks/target.ts';
import type { Delivery, SubscribersFile } from '../../src/schemas/hooks.ts';
import { runScript } from '../helpers/production.ts';

const NOW = new Date('2026-11-28T12:00:00Z');

const REFUSED: Array<[string, string]> = [
  ['http://127.0.0.1:6379/', 'loopback'],
  ['http://2130706433/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://0x7f.1/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:7f00:1]/', 'loopback'],
  ['http://[::1]:22/', 'loopback'],
  ['http://[::127.0.0.1]/', 'ipv4Compatible'],
  ['http://169.254.169.254/latest/meta-data/', 'linkLocal'],
  ['http://[::ffff:169.254.169.254]/', 'linkLocal'],
  ['http://[fe80::1]/', 'linkLocal'],
  ['http://10.1.2.3/', 'private'],
  ['http://172.16.0.1/', 'private'],
  ['http://192.168.0.1/', 'private'],
  ['http://3232235521/', 'private'],
  ['http://[fd00::1]/', 'uniqueLocal'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
  ['http://100.64.0.1/', 'carrierGradeNat'],
  ['http://[64:ff9b::7f00:1]/', 'rfc6052'],
];

describe('checkHookTarget', () => {
  it.each(REFUSED)('refuses %s (%s), naming the code and the fix', (url, range) => {
    expect(() => checkHookTarget(url, false)).toThrow(`(${range}); `);
    expect(() => checkHookTarget(url, false)).toThrow(/^ERR_HOOK_TARGET_PRIVATE: .*add it with --allow-private$/);
    expect(() => checkHookTarget(url, true)).not.toThrow();
  });

  it('refuses localhost in any case and its subdomains', () => {
    for (const url of ['http://localhost/', 'http://LOCALHOST.:8080/', 'https://hooks.localhost/x'])
      expect(() => checkHookTarget(url, false), url).toThrow(ERR_HOOK_TARGET_PRIVATE);
  });

  it('accepts public addresses and names (a name is checked again as it resolves, on delivery)', () => {
    for (const url of [
      'https://hooks.example.org/rtp',
      'http://8.8.8.8/',
      'http://134744072/',
      'http://[2606:4700:4700::1111]/',
      'https://localhost.example.com/',
    ])
      expect(() => checkHookTarget(url, false), url).not.toThrow();
  });

  it('classifies resolved addresses, IPv4-mapped ones as their IPv4 address', () => {
    expect(nonPublicRange('127.0.0.53')).toBe('loopback');
    expect(nonPublicRange('::ffff:10.0.0.1')).toBe('private');
    expect(nonPublicRange('1.1.1.1')).toBeNull();
    expect(nonPublicRange('not-an-address')).toBe('not an IP address');
  });

  it('refuses a name that resolves to loopback at lookup, and lets it through with the flag', async () => {
    const lookup = (allow: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        guardedLookup(allow)('localhost', { all: true }, (err, address) => resolve({ err, address })),
      );
    const refused = await lookup(false);
    expect(refused.err?.code).toBe(ERR_HOOK_TARGET_PRIVATE);
    expect(refused.err?.message).toMatch(/^ERR_HOOK_TARGET_PRIVATE: localhost resolves to (127\.0\.0\.1|::1), not a public address \(loopback\)/);
    const allowed = await lookup(true);
    expect(allowed.err).toBeNull();
    expect(allowed.address).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) })]));
  });
});

describe('npm run hooks -- add', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-hooks-target-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const cli = (args: string[]) => runScript('scripts/hooks.ts', args, { RTP_HOOKS_DIR: dir }, 30_000);

  it('refuses internal targets (exit 2, the code and the fix named, nothing stored), and accepts them with --allow-private', async () => {
    for (const url of ['http://0x7f000001/', 'http://[::ffff:127.0.0.1]:6379/', 'http://169.254.169.254/latest/meta-data/', 'http://localhost:22/']) {
      const r = await cli(['add', url]);
      expect(r.code, url).toBe(2);
      expect(r.stderr).toContain("hooks: ERR_HOOK_TARGET_PRIVATE: the URL's host ");
      expect(r.stderr).toContain('add it with --allow-private');
      expect(r.stdout).toBe('');
    }
    expect((await readSubscribers(dir)).subscribers).toEqual([]);
    const ok = await cli(['add', 'http://0x7f000001:9/hook', '--allow-private']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('a private target allowed');
    const [stored] = (await readSubscribers(dir)).subscribers;
    expect(stored).toMatchObject({ url: 'http://0x7f000001:9/hook', allow_private: true });
    expect(JSON.parse(await readFile(path.join(dir, SUBSCRIBERS_FILE), 'utf8')).subscribers).toHaveLength(1);
    expect((await cli(['list'])).stdout).toContain('http://0x7f000001:9/hook (private allowed)');
  });
});

describe('a delivery', () => {
  let dir: string;
  let server: Server;
  let port: number;
  let hits = 0;
  const settings: DeliverySettings = { maxAttempts: 2, backoffMs: 10, timeoutMs: 5000, servingUrl: null, servingTimeoutMs: 1000 };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-hooks-rebind-'));
    server = createServer((req, res) => {
      hits++;
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.close();
    await rm(dir, { recursive: true, force: true });
  });
  const delivery = (id: string, subscriber: string, url: string): Delivery => ({
    format: 1,
    id,
    kind: 'webhook',
    subscriber,
    url,
    content_type: 'application/json',
    body: '{}',
    release: '1.1.0-000000000000',
    serving_hash: null,
    created_at: NOW.toISOString(),
    status: 'pending',
    attempts: 0,
    next_at: null,
    last_status: null,
    last_error: null,
  });

  it('to a name that resolves to loopback, or to a loopback address, is refused unless the subscriber allows it', async () => {
    // A name that looked public when it was added and now resolves to loopback (as after DNS
    // rebinding), and a loopback address written into the file by hand: both stored without the flag.
    const byName = `http://localhost:${port}/hook`;
    const byAddress = `http://127.0.0.1:${port}/hook`;
    const a = addSubscriber({ format: 1, subscribers: [] }, { url: 'https://hooks.example.org/a', providers: [], games: [] }, NOW);
    const b = addSubscriber(a.data, { url: 'https://hooks.example.org/b', providers: [], games: [] }, NOW);
    const c = addSubscriber(b.data, { url: byAddress, providers: [], games: [], allowPrivate: true }, NOW);
    const data: SubscribersFile = { format: 1, subscribers: [{ ...a.record, url: byName }, { ...b.record, url: byAddress }, c.record] };
    await writeSubscribers(dir, data);
    const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
    await enqueue(dir, [delivery(ids[0]!, a.record.id, byName), delivery(ids[1]!, b.record.id, byAddress), delivery(ids[2]!, c.record.id, byAddress)]);
    const lines: string[] = [];
    expect(await deliverAll({ dir, settings, log: (l) => lines.push(l) })).toBe(true);
    expect(await finished(dir, ids[0]!)).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_status: 0,
      last_error: expect.stringMatching(/^ERR_HOOK_TARGET_PRIVATE: localhost resolves to (127\.0\.0\.1|::1), not a public address \(loopback\)/),
    });
    expect(await finished(dir, ids[1]!)).toMatchObject({
      status: 'failed',
      attempts: 2,
      last_status: 0,
      last_error: expect.stringMatching(/^ERR_HOOK_TARGET_PRIVATE: the URL's host 127\.0\.0\.1 is not a public address \(loopback\)/),
    });
    expect(await finished(dir, ids[2]!)).toMatchObject({ status: 'delivered', attempts: 1, last_status: 204 });
    expect(hits).toBe(1);
    expect(lines.join('\n')).toContain(`delivery ${ids[0]} to subscriber ${a.record.id} ${byName}: failed (ERR_HOOK_TARGET_PRIVATE: localhost resolves to`);
  });
});
