// The structured access log: one JSON line per request with the documented fields; never a raw IP,
// a key, a query string or an Authorization value; a backlog bounded by bytes when the output stalls.

import { execFileSync } from 'node:child_process';
import { constants, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KeyCheck } from '../../src/keys/auth.ts';
import {
  ACCESS_LOG_BUFFER_BYTES,
  AccessLog,
  type AccessLogEntry,
  accessLine,
  accessLogOutput,
  accessLogTarget,
  hashedClient,
  loggedPath,
} from '../../src/server/access-log.ts';
import { parseTrustProxy } from '../../src/server/client-ip.ts';

const KEY = 'rtp_live_AbCd1234EfGh5678IjKl9012MnOp3456';
let dir: string;
let file: string;
let server: http.Server;
let base: string;
let log: AccessLog;
let slowArrived: () => void = () => undefined;
const HELD_MS = 60;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-access-'));
  file = path.join(dir, 'logs/access.jsonl');
  log = new AccessLog({
    target: { kind: 'file', path: file },
    trustProxy: parseTrustProxy('1', []),
    salt: 'pepper',
    sync: true,
    keyCheck: (req): KeyCheck =>
      req.headers.authorization === `Bearer ${KEY}`
        ? { status: 'valid', id: 'AbCd1234' }
        : req.headers.authorization
          ? { status: 'invalid' }
          : { status: 'none' },
  });
  server = http.createServer((req, res) => {
    log.track(req, res);
    if (req.url?.startsWith('/held')) {
      // Ends HELD_MS after it arrived: the line's duration_ms must cover that time.
      setTimeout(() => res.end('held'), HELD_MS);
      return;
    }
    if (req.url?.startsWith('/slow')) {
      // Answers only once the client has gone (its 'close'), so the line must say aborted.
      slowArrived();
      req.socket.once('close', () => res.end('late'));
      return;
    }
    if (req.headers.authorization !== undefined && req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, ['Content-Type', 'application/json', 'Content-Length', '2']);
      res.end('{}');
      return;
    }
    const body = Buffer.from('{"ok":true}');
    res.writeHead(200, ['Content-Type', 'application/json', 'X-RateLimit-Remaining', '7', 'Content-Length', String(body.length)]);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await log.close();
  await rm(dir, { recursive: true, force: true });
});

type Line = AccessLogEntry & { type: string; time: string };

const readLines = async (): Promise<Line[]> => {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trim() === ''
    ? []
    : text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
};

/** The log's lines once it holds at least `min` (a line is written when its response finishes, after the client may have read it). */
async function lines(min = 1): Promise<Line[]> {
  let out: Line[] = [];
  await vi.waitFor(
    async () => {
      out = await readLines();
      expect(out.length).toBeGreaterThanOrEqual(min);
    },
    { timeout: 30_000, interval: 10 },
  );
  return out;
}

describe('access log', () => {
  it('writes one JSON line per request with the documented fields in order', async () => {
    const started = performance.now();
    await fetch(`${base}/api/rtp/list?q=secret+search&limit=5`);
    const elapsed = performance.now() - started;
    const [entry] = await lines();
    expect(Object.keys(entry!)).toEqual(['type', 'time', 'method', 'path', 'status', 'duration_ms', 'bytes', 'client', 'auth', 'rate_limit_remaining']);
    expect(entry).toMatchObject({ type: 'access', method: 'GET', path: '/api/rtp/list', status: 200, bytes: 11, auth: 'none', rate_limit_remaining: 7 });
    expect(entry!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Within the client's own round trip, in milliseconds with microsecond digits at most.
    expect(entry!.duration_ms).toBeGreaterThan(0);
    expect(entry!.duration_ms).toBeLessThanOrEqual(elapsed);
    expect(String(entry!.duration_ms)).toMatch(/^\d+(\.\d{1,3})?$/);
    expect(entry!.client).toBe(hashedClient('127.0.0.1', 'pepper'));
  });

  it('measures duration_ms from the arrival of the request to the end of its response', async () => {
    const before = (await readLines()).length;
    const started = performance.now();
    expect(await (await fetch(`${base}/held`)).text()).toBe('held');
    const elapsed = performance.now() - started;
    const entry = (await lines(before + 1)).at(-1)!;
    expect(entry.path).toBe('/held');
    // Node's timers may fire up to a millisecond early against performance.now().
    expect(entry.duration_ms).toBeGreaterThanOrEqual(HELD_MS - 1);
    expect(entry.duration_ms).toBeLessThanOrEqual(elapsed);
  });

  it('names a key by its id, hashes forwarded addresses, and never writes keys, IPs or queries', async () => {
    const before = (await readLines()).length;
    await fetch(`${base}/widget/rtp/x?api_key=${KEY}`, { headers: { authorization: `Bearer ${KEY}`, 'x-forwarded-for': '198.51.100.23' } });
    await fetch(`${base}/api/rtp/x`, { headers: { authorization: 'Bearer rtp_live_0000000000000000000000000000wxyz', 'x-forwarded-for': '198.51.100.23' } });
    await fetch(`${base}/api/rtp/${KEY}`);
    const all = await lines(before + 3);
    const [withKey, invalid, keyInPath] = all.slice(-3);
    expect(withKey).toMatchObject({ path: '/widget/rtp/x', client: 'key:AbCd1234', auth: 'key', status: 200 });
    expect(invalid).toMatchObject({ client: hashedClient('198.51.100.23', 'pepper'), auth: 'invalid', status: 401, rate_limit_remaining: null });
    expect(keyInPath!.path).toBe('/api/rtp/rtp_live_[redacted]');
    const text = await readFile(file, 'utf8');
    for (const secret of [KEY, KEY.slice(17), '198.51.100.23', '127.0.0.1', 'secret+search', 'secret search', 'wxyz', 'Bearer'])
      expect(text).not.toContain(secret);
  });

  it('marks a request whose client left before the answer', async () => {
    const before = (await readLines()).length;
    const arrived = new Promise<void>((r) => (slowArrived = r));
    const ctrl = new AbortController();
    const pending = fetch(`${base}/slow`, { signal: ctrl.signal }).catch(() => undefined);
    await arrived;
    ctrl.abort();
    await pending;
    const last = (await lines(before + 1)).at(-1)!;
    expect(last).toMatchObject({ path: '/slow', aborted: true });
  });
});

describe('line encoding', () => {
  const entry: AccessLogEntry = {
    method: 'GET',
    path: '/api/rtp/list',
    status: 200,
    duration_ms: 0.125,
    bytes: 1234,
    client: 'ip:0123456789abcdef',
    auth: 'none',
    rate_limit_remaining: 59,
  };
  const time = '2026-11-24T06:00:00.000Z';

  it('writes exactly what JSON.stringify writes, fields in order, one line each', () => {
    const hostile: AccessLogEntry = {
      ...entry,
      method: 'G"ET',
      path: '/a\\b"\n\u0000\u2028\ud800é',
      bytes: null,
      rate_limit_remaining: null,
      client: 'key:"x"',
    };
    for (const e of [entry, hostile, { ...entry, aborted: true as const }, { ...entry, status: 304, bytes: 0, auth: 'key' as const }]) {
      const line = accessLine(time, e);
      expect(line).toBe(`${JSON.stringify({ type: 'access', time, ...e })}\n`);
      expect(line.indexOf('\n')).toBe(line.length - 1);
    }
  });
});

describe('settings', () => {
  it('ACCESS_LOG is stdout by default, off, or a file path', () => {
    expect(accessLogTarget({})).toEqual({ kind: 'stdout' });
    expect(accessLogTarget({ ACCESS_LOG: 'off' })).toEqual({ kind: 'off' });
    expect(accessLogTarget({ ACCESS_LOG: '/var/log/rtp/access.jsonl' })).toEqual({ kind: 'file', path: '/var/log/rtp/access.jsonl' });
  });

  it('loggedPath drops the query, redacts key-shaped text and bounds the length', () => {
    expect(loggedPath('/api/rtp/list?q=x')).toBe('/api/rtp/list');
    expect(loggedPath(`/x/${KEY}/y`)).toBe('/x/rtp_live_[redacted]/y');
    expect(loggedPath(`/${'a'.repeat(600)}`)).toHaveLength(513);
  });

  it('hashes an address with the salt: stable for one salt, different for another', () => {
    expect(hashedClient('203.0.113.9', 's1')).toBe(hashedClient('203.0.113.9', 's1'));
    expect(hashedClient('203.0.113.9', 's1')).not.toBe(hashedClient('203.0.113.9', 's2'));
    expect(hashedClient('203.0.113.9', 's1')).toMatch(/^ip:[0-9a-f]{16}$/);
  });
});

/** A server answering `{}` to everything, logged into `file` by an asynchronous AccessLog. */
async function loggedServer(file: string): Promise<{ base: string; closeLog: () => Promise<void>; close: () => Promise<void> }> {
  const log = new AccessLog({ target: { kind: 'file', path: file }, trustProxy: parseTrustProxy('', []), salt: 'pepper' });
  const srv = http.createServer((req, res) => {
    log.track(req, res);
    res.writeHead(200, ['Content-Length', '2']);
    res.end('{}');
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  let logOpen = true;
  const closeLog = async () => {
    if (logOpen) await log.close();
    logOpen = false;
  };
  return {
    base: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    closeLog,
    close: async () => {
      await new Promise((r) => srv.close(r));
      await closeLog();
    },
  };
}

describe('batching (the asynchronous destination)', () => {
  it('holds lines for a batch, yet a lone line reaches the file within the flush interval', async () => {
    const batchFile = path.join(dir, 'batched.jsonl');
    const server = await loggedServer(batchFile);
    try {
      const url = `${server.base}/one`;
      await (await fetch(url)).text();
      // One line is far below ACCESS_LOG_BATCH_BYTES: only the periodic flush writes it (without
      // one it would wait for the close below, so reaching the file at all is the behaviour).
      await vi.waitFor(async () => expect(await readFile(batchFile, 'utf8').catch(() => '')).toContain('"path":"/one"'), { timeout: 30_000, interval: 10 });
      for (let k = 0; k < 50; k++) await (await fetch(url)).text();
      await vi.waitFor(async () => expect((await readFile(batchFile, 'utf8')).trim().split('\n')).toHaveLength(51), { timeout: 30_000, interval: 10 });
    } finally {
      await server.close();
    }
  });

  it('writes every line whole and in order across many batches', async () => {
    const batchFile = path.join(dir, 'many.jsonl');
    const server = await loggedServer(batchFile);
    try {
      // Some 560 bytes a line: 300 lines fill five batches of ACCESS_LOG_BATCH_BYTES and part of a sixth.
      const paths = Array.from({ length: 300 }, (_, k) => `/p${k}/${'x'.repeat(400)}`);
      for (const p of paths) await (await fetch(server.base + p)).text();
      await server.closeLog();
      const lines = (await readFile(batchFile, 'utf8')).split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((l) => (JSON.parse(l) as Line).path)).toEqual(paths);
    } finally {
      await server.close();
    }
  });
});

describe('the backlog bound (an output that does not keep up)', () => {
  it('holds at most ACCESS_LOG_BUFFER_BYTES of lines, dropping whole writes past it, and writes what it held in order', async () => {
    // A named pipe whose reader takes nothing until the end: the log's output stalls.
    const fifo = path.join(dir, 'stalled.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = new net.Socket({ fd: openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
    reader.pause();
    const output = accessLogOutput({ kind: 'file', path: fifo });
    let dropped = 0;
    output.on('drop', () => dropped++);
    // Some 600 bytes a line, 10 MiB in all: two and a half times the bound.
    const lines = Math.ceil((10 * 1024 * 1024) / 600);
    const time = '2026-11-24T06:00:00.000Z';
    for (let k = 0; k < lines; k++)
      output.write(
        accessLine(time, {
          method: 'GET',
          path: `/p${k}/${'x'.repeat(480)}`,
          status: 200,
          duration_ms: 1,
          bytes: 2,
          client: 'ip:0123456789abcdef',
          auth: 'none',
          rate_limit_remaining: null,
        }),
      );
    expect(dropped).toBeGreaterThan(0);
    const received: Buffer[] = [];
    const ended = new Promise<void>((resolve) => reader.on('end', resolve));
    reader.on('data', (c: Buffer) => received.push(c));
    output.end();
    reader.resume();
    await ended;
    const text = Buffer.concat(received).toString('utf8');
    expect(text.length).toBeLessThanOrEqual(ACCESS_LOG_BUFFER_BYTES);
    expect(text.length).toBeGreaterThan(ACCESS_LOG_BUFFER_BYTES - 1024);
    const written = text.split('\n');
    expect(written.pop()).toBe('');
    // Whole lines, the first ones, in order: the ones past the bound were dropped, none cut.
    expect(written.map((l) => (JSON.parse(l) as Line).path.split('/')[1])).toEqual(written.map((_, k) => `p${k}`));
    expect(written.length + dropped).toBe(lines);
  });
});
