// API keys over HTTP (the Pro tier preview): a valid key (Authorization: Bearer or X-API-Key) gets
// 10x the base budget counted per key; unknown, revoked or malformed keys get 401 JSON on every
// route, counted against the client's address (guessing keys spends its budget); keys issued or
// revoked while the server runs take effect; logs never hold a key.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { request, runScript } from '../helpers/production.ts';
import { type Server, startServer } from '../helpers/server.ts';

let tmp: string;
let keysFile: string;
let accessLog: string;
let server: Server;
/** A second server on the same keys file, with a budget the 401 checks do not spend. */
let roomy: Server;
let key: string;
let other: string;

const keysCli = (...args: string[]) => runScript('scripts/keys.ts', args, { RTP_KEYS_FILE: keysFile });
async function issue(owner: string): Promise<string> {
  const r = await keysCli('issue', '--owner', owner, '--use', 'comparison tables', '--daily', '2000');
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}
const bearer = (k: string) => ({ headers: { authorization: `Bearer ${k}` } });

/** A GET carrying header `name` once per value, each on its own line (fetch would join them into one). */
function twice(url: string, name: string, values: readonly string[]): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent: false });
    req.setHeader(name, [...values]);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}
const SLOT = '/api/rtp/book-of-dead';

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-e2e-keys-'));
  keysFile = path.join(tmp, 'var/keys.json');
  accessLog = path.join(tmp, 'access.jsonl');
  key = await issue('Example Casino Reviews');
  server = await startServer({ env: { RTP_KEYS_FILE: keysFile, KEYS_POLL_MS: '100', RATE_LIMIT: '5', ACCESS_LOG: accessLog, ACCESS_LOG_SALT: 'test-salt' } });
  roomy = await startServer({ env: { RTP_KEYS_FILE: keysFile, KEYS_POLL_MS: '100', RATE_LIMIT: '1000' } });
});

afterAll(async () => {
  await server?.stop();
  await roomy?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe('API keys', () => {
  it('a key gets 10x the base budget, counted per key and apart from the address budget', async () => {
    const anon = await request(server.url + SLOT);
    expect(anon.headers.get('x-ratelimit-limit')).toBe('5');
    const first = await request(server.url + SLOT, bearer(key));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('50');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('49');
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=50;w=86400');
    // X-API-Key is the same key: the same counter.
    const second = await request(server.url + SLOT, { headers: { 'x-api-key': key } });
    expect(second.headers.get('x-ratelimit-remaining')).toBe('48');
    // Spend the address budget: anonymous requests get 429, the key goes on.
    for (let k = 0; k < 5; k++) await request(server.url + SLOT);
    expect((await request(server.url + SLOT)).status).toBe(429);
    expect((await request(server.url + SLOT, bearer(key))).status).toBe(200);
  });

  it('the key budget ends in 429 like the base one', async () => {
    let last = await request(server.url + SLOT, bearer(key));
    while (last.status === 200) last = await request(server.url + SLOT, bearer(key));
    expect(last.status).toBe(429);
    expect(JSON.parse(last.text)).toMatchObject({ statusCode: 429, limit: 50, remaining: 0 });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it.each([
    ['an unknown key', { authorization: 'Bearer rtp_live_00000000000000000000000000000000' }],
    ['a malformed bearer token', { authorization: 'Bearer not-a-key' }],
    ['an empty X-API-Key', { 'x-api-key': '' }],
    ['two different keys', { authorization: 'Bearer rtp_live_00000000000000000000000000000000', 'x-api-key': 'rtp_live_11111111111111111111111111111111' }],
  ])('%s gets 401 JSON on every route family, never a silent downgrade, counted against the address', async (_name, headers) => {
    let remaining = Number((await request(roomy.url + SLOT)).headers.get('x-ratelimit-remaining'));
    for (const url of [
      SLOT,
      '/api/rtp/list?q=book',
      '/api/rtp/provider/playngo',
      '/api/rtp/history',
      '/api/widget/rtp/book-of-dead',
      '/widget/rtp/book-of-dead',
      '/rtp/book-of-dead',
      '/',
    ]) {
      const r = await request(roomy.url + url, { headers });
      expect(r.status, url).toBe(401);
      expect(r.text).toBe('{"statusCode":401,"statusMessage":"invalid API key"}');
      expect(ErrorBodySchema.parse(JSON.parse(r.text)).statusCode).toBe(401);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="rtp-registry", error="invalid_token"');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(--remaining);
    }
  });

  it('two Authorization headers (a valid key and an unknown one, either first) get 401, as two X-API-Key headers do', async () => {
    const unknown = 'rtp_live_00000000000000000000000000000000';
    expect((await twice(roomy.url + SLOT, 'authorization', [`Bearer ${key}`])).status).toBe(200);
    for (const [name, values] of [
      ['authorization', [`Bearer ${key}`, `Bearer ${unknown}`]],
      ['authorization', [`Bearer ${unknown}`, `Bearer ${key}`]],
      ['authorization', [`Bearer ${key}`, `Bearer ${key}`]],
      ['authorization', [`Bearer ${key}`, 'Basic dXNlcjpwYXNz']],
      ['x-api-key', [key, unknown]],
    ] as const) {
      for (const url of [SLOT, '/api/rtp/list?q=book', '/']) {
        const r = await twice(roomy.url + url, name, values);
        expect(r.status, `${url} ${name}: ${values.join(' | ')}`).toBe(401);
        expect(r.text).toBe('{"statusCode":401,"statusMessage":"invalid API key"}');
        expect(r.headers['www-authenticate']).toBe('Bearer realm="rtp-registry", error="invalid_token"');
      }
    }
  });

  it('once the address budget is spent, a guessed key gets 429, not another try', async () => {
    // The first test spent this address's budget of 5.
    const r = await request(server.url + SLOT, { headers: { authorization: 'Bearer rtp_live_22222222222222222222222222222222' } });
    expect(r.status).toBe(429);
    expect(JSON.parse(r.text)).toMatchObject({ statusCode: 429, limit: 5, remaining: 0 });
  });

  it('an Authorization header of another scheme is ignored: no key, the anonymous budget', async () => {
    for (const url of [SLOT, '/api/rtp/list?q=book', '/api/rtp/provider/playngo', '/']) {
      const r = await request(server.url + url, { headers: { authorization: 'Basic dXNlcjpwYXNz', 'x-forwarded-for': '198.51.100.7' } });
      expect(r.status, url).not.toBe(401);
      expect(r.headers.get('www-authenticate'), url).toBeNull();
    }
  });

  it('a preflight never needs a key and allows both headers', async () => {
    const r = await request(server.url + SLOT, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-api-key' },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
  });

  it('a key issued while the server runs is accepted; a revoked one gets 401', async () => {
    other = await issue('Second Site');
    await vi.waitFor(async () => expect((await request(roomy.url + SLOT, bearer(other))).status).toBe(200), { timeout: 30_000, interval: 100 });
    const r = await keysCli('revoke', other.slice(9, 17));
    expect(r.code, r.stderr).toBe(0);
    await vi.waitFor(async () => expect((await request(roomy.url + SLOT, bearer(other))).status).toBe(401), { timeout: 30_000, interval: 100 });
  });

  it('SIGHUP reloads the keys file at once', async () => {
    const third = await issue('Third Site');
    server.signal('SIGHUP');
    await vi.waitFor(async () => expect((await request(server.url + SLOT, bearer(third))).status).toBe(200), { timeout: 30_000, interval: 50 });
    expect(server.output()).toMatch(/api keys: loaded 3 key\(s\)/);
  });

  it('the access log names keys by id only and never holds a key, an address or a query', async () => {
    await request(`${server.url}/api/rtp/list?q=private+words&api_key=${key}`, bearer(key));
    // The line is written when the response has finished, which can be after the client read it.
    await vi.waitFor(async () => expect(await readFile(accessLog, 'utf8')).toContain('"path":"/api/rtp/list"'), { timeout: 30_000, interval: 20 });
    const text = await readFile(accessLog, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.some((l) => l.client === `key:${key.slice(9, 17)}` && l.auth === 'key')).toBe(true);
    // Guessed keys on this server, once its address budget was spent, were refused as 429s.
    expect(lines.some((l) => l.auth === 'invalid' && l.status === 429)).toBe(true);
    for (const secret of [key, key.slice(17), other, '127.0.0.1', 'private', 'api_key', 'Bearer', 'dXNlcjpwYXNz']) expect(text).not.toContain(secret);
    expect(server.output()).not.toContain(key);
    expect(await readFile(keysFile, 'utf8')).not.toContain(key);
  });
});

describe('the default budget', () => {
  it('is 10,000 per 24 hours for a key when RATE_LIMIT is the default 1,000', async () => {
    const plain = await startServer({ env: { RTP_KEYS_FILE: keysFile, RATE_LIMIT: '' } });
    try {
      expect((await request(plain.url + SLOT)).headers.get('x-ratelimit-limit')).toBe('1000');
      const r = await request(plain.url + SLOT, bearer(key));
      expect(r.headers.get('x-ratelimit-limit')).toBe('10000');
      expect(r.headers.get('ratelimit-policy')).toBe('"default";q=10000;w=86400');
    } finally {
      await plain.stop();
    }
  });
});
