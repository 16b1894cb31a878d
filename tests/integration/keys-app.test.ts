// The request handler with API keys, in process: 401 before anything else for a bad key on any
// route, the key budget counted per key id, the address budget untouched by key requests.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import { KeyAuth } from '../../src/keys/auth.ts';
import { issueKey, writeKeysFile } from '../../src/keys/file.ts';
import { makeBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { createApp } from '../../src/server/app.ts';
import { NO_PROXY } from '../../src/server/client-ip.ts';
import { RateLimiter } from '../../src/server/rate-limit.ts';
import { MemoryRateLimitStore } from '../../src/server/rate-limit-memory.ts';
import { StaticFiles } from '../../src/server/static.ts';
import { makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';

let dir: string;
let data: string;
let server: http.Server;
let base: string;
let key: string;
let auth: KeyAuth;
const store = new MemoryRateLimitStore();

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-keys-app-'));
  data = await makeFixtureRegistry();
  await mkdir(path.join(dir, 'client/api/rtp'), { recursive: true });
  await writeFile(path.join(dir, 'client/api/rtp/book-of-aurora'), '{"canonical_slug":"book-of-aurora"}');
  const issued = issueKey({ format: 1, keys: [] }, { owner: 'a', use: 'b', daily: 1 }, new Date());
  key = issued.key;
  await writeKeysFile(path.join(dir, 'keys.json'), issued.data);
  auth = await KeyAuth.open({ file: path.join(dir, 'keys.json'), pollMs: 0, log: () => undefined });
  const app = createApp({
    services: servicesFor(makeBundle(await loadRegistryOrThrow(data))),
    statics: await StaticFiles.open(path.join(dir, 'client')),
    limiter: new RateLimiter({ store, limit: 2 }),
    keyLimiter: new RateLimiter({ store, limit: 20 }),
    authenticate: (req) => auth.check(req),
    trustProxy: NO_PROXY,
    notFoundHtml: Buffer.from('<h1>Not found</h1>'),
  });
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  auth.close();
  store.close();
  await rm(dir, { recursive: true, force: true });
  await removeFixtureDir(data);
});

describe('createApp with API keys', () => {
  it('counts key requests per key id at the key budget, apart from the address budget', async () => {
    const withKey = await fetch(`${base}/api/rtp/book-of-aurora`, { headers: { authorization: `Bearer ${key}` } });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get('x-ratelimit-limit')).toBe('20');
    expect(withKey.headers.get('x-ratelimit-remaining')).toBe('19');
    const anon = await fetch(`${base}/api/rtp/book-of-aurora`);
    expect(anon.headers.get('x-ratelimit-limit')).toBe('2');
    expect(anon.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(store.size).toBe(2); // "key:<id>" and the address
  });

  it('answers 401 for a bad key, counted against the address; once it is spent, 429 on every route', async () => {
    // The key with its last character changed (to one it does not already have).
    const guess = { 'x-api-key': `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}` };
    // The test before left one request of the address budget of 2.
    const first = await fetch(`${base}/nowhere`, { headers: guess });
    expect(first.status).toBe(401);
    expect(await first.json()).toEqual({ statusCode: 401, statusMessage: 'invalid API key' });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('0');
    for (const url of ['/api/rtp/book-of-aurora', '/api/rtp/history', '/api/rtp/list', '/nowhere']) {
      const r = await fetch(base + url, { headers: guess });
      expect(r.status, url).toBe(429);
      expect((await r.json()) as unknown).toMatchObject({ statusCode: 429, limit: 2, remaining: 0 });
    }
  });

  it('HEAD gets the refusal headers without a body', async () => {
    const r = await fetch(`${base}/api/rtp/list`, { method: 'HEAD', headers: { authorization: 'Bearer nope' } });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).not.toBeNull();
    expect(await r.text()).toBe('');
  });
});
