// The contract is complete: every status each documented route can return is in the OpenAPI
// document served at /api/openapi.json, with its body schema. Each one is driven against the real
// server (raw sockets where a client would normalise the request), and every response (these, the
// documented routes' answers and a fuzz of list and history queries) is checked against the
// document as a validating proxy would (tests/helpers/openapi-check.ts): no violation.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng } from '../helpers/list-fixture.ts';
import { fuzzQueries } from '../helpers/list-fuzz.ts';
import { ContractChecker, type Observed } from '../helpers/openapi-check.ts';
import { type Server, startServer } from '../helpers/server.ts';

let tmp: string;
let server: Server;
let limited: Server;
let checker: ContractChecker;
const seen: Observed[] = [];

const portOf = (s: Server) => Number(new URL(s.url).port);

/** Reads the responses in `bytes` (a connection's whole answer), each with its status, type and body. */
function responses(bytes: Buffer): Array<{ status: number; contentType: string; body: string; head: string }> {
  const out: Array<{ status: number; contentType: string; body: string; head: string }> = [];
  let at = 0;
  for (;;) {
    const split = bytes.indexOf('\r\n\r\n', at);
    if (split < 0) return out;
    const head = bytes.toString('latin1', at, split);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    out.push({
      status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
      contentType: /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '',
      body: bytes.toString('utf8', split + 4, split + 4 + length),
      head,
    });
    at = split + 4 + length;
  }
}

/** Writes `text` on a fresh connection (raw: no client rewrites it) and reads until the server closes it. */
function exchange(s: Server, text: string): Promise<ReturnType<typeof responses>> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(portOf(s), '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(responses(Buffer.concat(chunks))));
  });
}

/** A request as a browser or library would send it; the response is recorded for the contract check. */
async function call(s: Server, method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Observed & { headers: Headers }> {
  const res = await fetch(`${s.url}${target}`, { method, headers, body, redirect: 'manual' });
  const observed = { method, target, status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text(), headers: res.headers };
  seen.push(observed);
  return observed;
}

/** A raw request for `method` and `target` (`text`: the whole request); its last response is recorded. */
async function raw(s: Server, method: string, target: string, text: string): Promise<Observed & { head: string }> {
  const all = await exchange(s, text);
  expect(all.length, `${method} ${target}: no response`).toBeGreaterThan(0);
  const observed = { ...all.at(-1)!, method, target };
  seen.push(observed);
  return observed;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const rpc = (id: number | null, method: string, params: object = {}) =>
  JSON.stringify(id === null ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id, method, params });

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rtp-e2e-contract-'));
  // No key is issued: any key presented is unknown (401).
  const env = { RTP_KEYS_FILE: path.join(tmp, 'keys.json'), BODY_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000' };
  [server, limited] = await Promise.all([startServer({ env: { ...env, RATE_LIMIT: '1000000000' } }), startServer({ env: { ...env, RATE_LIMIT: '1' } })]);
  checker = new ContractChecker((await (await fetch(`${server.url}/api/openapi.json`)).json()) as Record<string, unknown>);
});

afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
  await rm(tmp, { recursive: true, force: true });
});

/** Each documented GET route: a target answered 200, and targets of its own errors with their status. */
async function routeTargets(): Promise<Array<{ target: string; status: number }>> {
  const page = await (await fetch(`${server.url}/rtp/book-of-dead`)).text();
  const oembed = new URL(/<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page)![1]!.replaceAll('&amp;', '&'));
  const version = ((await (await fetch(`${server.url}/api/rtp/dump/datapackage.json`)).json()) as { version: string }).version;
  const ok = (target: string) => ({ target, status: 200 });
  const no = (target: string) => ({ target, status: 404 });
  const bad = (target: string) => ({ target, status: 400 });
  // A slug merged into the record of the same game (data/merged.json) redirects on each of its routes.
  const moved = (target: string) => ({ target, status: 301 });
  const old = 'big-bass-splash-reel-kingdom';
  return [
    ok('/api/rtp/list?limit=2'),
    ok('/api/rtp/list?limit=2&format=csv'),
    ok('/api/rtp/list?slugs=book-of-dead,no-such-game'),
    ok('/api/rtp/list?updated_since=2026-01-01&limit=2'),
    ok('/api/rtp/list?rtp_min=96&volatility=high,very-high&released_after=2015&max_win_min=1000&sort=rtp_desc&limit=3'),
    ok('/api/rtp/list?confidence=verified&volatility=high&rtp_max=97&limit=3'),
    bad('/api/rtp/list?limit=0'),
    bad('/api/rtp/list?rtp_min=abc&format=xml'),
    ok('/api/rtp/history?limit=2'),
    bad('/api/rtp/history?since=yesterday'),
    ok('/api/rtp/identify?slug=book-of-dead&rtp=96.21'),
    bad('/api/rtp/identify?rtp=96'),
    no('/api/rtp/identify?slug=no-such-game&rtp=96'),
    ok(`${oembed.pathname}${oembed.search}`),
    bad('/api/oembed'),
    no(`/api/oembed?url=${encodeURIComponent('https://elsewhere.example/rtp/book-of-dead')}`),
    { target: `${oembed.pathname}${oembed.search}`.replace('format=json', 'format=xml'), status: 501 },
    ok('/api/rtp/book-of-dead'),
    no('/api/rtp/no-such-game'),
    moved(`/api/rtp/${old}`),
    ok('/api/rtp/provider/playngo'),
    no('/api/rtp/provider/no-such-provider'),
    ok('/api/rtp/operator/711nl'),
    no('/api/rtp/operator/no-such-casino'),
    ok('/api/widget/rtp/book-of-dead'),
    no('/api/widget/rtp/no-such-game'),
    moved(`/api/widget/rtp/${old}`),
    ok('/widget/rtp/book-of-dead?theme=dark'),
    no('/widget/rtp/no-such-game'),
    moved(`/widget/rtp/${old}?theme=dark`),
    ok('/api/badge/rtp/book-of-dead.svg'),
    no('/api/badge/rtp/no-such-game.svg'),
    moved(`/api/badge/rtp/${old}.svg`),
    ok('/api/og/rtp/book-of-dead.png'),
    no('/api/og/rtp/no-such-game.png'),
    moved(`/api/og/rtp/${old}.png`),
    ok('/api/openapi.json'),
    ok('/api/rtp/dump/registry.json'),
    ok('/api/rtp/dump/registry.ndjson'),
    ok('/api/rtp/dump/registry.csv'),
    ok('/api/rtp/dump/datapackage.json'),
    ok(`/api/rtp/dump/changes/${version}.json`),
    no('/api/rtp/dump/changes/0.0.1.json'),
    ok('/api/feeds/rtp.atom'),
    ok('/api/feeds/provider/playngo.atom'),
    no('/api/feeds/provider/no-such-provider.atom'),
    ok('/api/feeds/operator/711nl.atom'),
    no('/api/feeds/operator/no-such-casino.atom'),
    ok('/api/feeds/game/book-of-dead.atom'),
    no('/api/feeds/game/no-such-game.atom'),
    moved(`/api/feeds/game/${old}.atom`),
    ok('/llms.txt'),
    ok('/api/rtp/removed'),
  ];
}

/** One 200 target per documented GET path. */
let examples: string[] = [];

describe('every status of every documented route, driven against the real server', () => {
  it("answers 200, 304 and each route's own errors as documented", async () => {
    const targets = await routeTargets();
    for (const { target, status } of targets) {
      const r = await call(server, 'GET', target);
      expect(r.status, target).toBe(status);
      const etag = r.headers.get('etag');
      if (status === 200 && etag !== null) expect((await call(server, 'GET', target, { 'if-none-match': etag })).status, target).toBe(304);
    }
    const byTemplate = new Map<string, string>();
    for (const { target, status } of targets)
      if (status === 200 && !byTemplate.has(checker.templateOf(target)!)) byTemplate.set(checker.templateOf(target)!, target);
    examples = [...byTemplate.values()];
    expect(examples.length).toBe(Object.keys((await (await fetch(`${server.url}/api/openapi.json`)).json()).paths).length - 1); // all but POST /mcp
  });

  it('answers the refusals any request may get on every route: 400 without Host, 401, 405, 408, 414, 417, 431', async () => {
    for (const target of examples) {
      expect((await raw(server, 'GET', target, `GET ${target} HTTP/1.1\r\nConnection: close\r\n\r\n`)).status, target).toBe(400);
      expect((await call(server, 'GET', target, { authorization: 'Bearer not-a-key' })).status, target).toBe(401);
      expect((await call(server, 'DELETE', target)).status, target).toBe(405);
      const long = `${target}${target.includes('?') ? '&' : '?'}pad=${'x'.repeat(14_400)}`;
      expect((await raw(server, 'GET', long, `GET ${long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).status, target).toBe(414);
      expect((await raw(server, 'GET', target, `GET ${target} HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n`)).status, target).toBe(417);
      expect(
        (await raw(server, 'GET', target, `GET ${target} HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(20_000)}\r\nConnection: close\r\n\r\n`)).status,
        target,
      ).toBe(431);
    }
    // A head that never ends: 408 once HEADERS_TIMEOUT_MS has passed (all routes at once).
    const slow = await Promise.all(examples.map((target) => raw(server, 'GET', target, `GET ${target} HTTP/1.1\r\nHost: x\r\n`)));
    for (const r of slow) expect(r.status, r.target).toBe(408);
  }, 60_000);

  it('answers 429 on every route once the budget is spent (an exempt route for a request refused before routing)', async () => {
    await call(limited, 'GET', '/api/rtp/list?limit=1'); // the budget of 1
    for (const target of examples) {
      const r = await call(limited, 'GET', target, { 'x-api-key': 'not-a-key' });
      expect(r.status, target).toBe(429);
      expect(r.headers.get('retry-after'), target).toMatch(/^\d+$/);
    }
    expect((await call(limited, 'POST', '/mcp', MCP_HEADERS, rpc(1, 'tools/list'))).status).toBe(429);
  });

  it('answers POST /mcp with every status it documents: 200, 202, 400, 401, 405, 406, 408, 413, 414, 415, 417, 431, 503', async () => {
    const post = (body: string, headers: Record<string, string> = MCP_HEADERS) => call(server, 'POST', '/mcp', headers, body);
    expect((await post(rpc(1, 'tools/list'))).status).toBe(200);
    expect((await post(JSON.stringify([JSON.parse(rpc(1, 'tools/list')), JSON.parse(rpc(2, 'tools/list'))]))).status).toBe(200);
    expect((await post(rpc(null, 'notifications/initialized'))).status).toBe(202);
    expect((await post('{not json')).status).toBe(400);
    expect((await post(JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }))).status).toBe(400);
    expect((await call(server, 'POST', '/mcp', { ...MCP_HEADERS, authorization: 'Bearer not-a-key' }, rpc(1, 'tools/list'))).status).toBe(401);
    expect((await call(server, 'GET', '/mcp')).status).toBe(405);
    expect((await post(rpc(1, 'tools/list'), { 'content-type': 'application/json', accept: 'text/html' })).status).toBe(406);
    expect((await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } }))).status).toBe(413);
    expect((await post('x', { 'content-type': 'text/plain', accept: 'application/json' })).status).toBe(415);
    const body = rpc(1, 'tools/list');
    const head = (extra: string) =>
      `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}`;
    expect((await raw(server, 'POST', '/mcp', `${head('Connection: close\r\n')}\r\n`.replace('Host: x\r\n', '') + body)).status).toBe(400);
    expect(
      (await raw(server, 'POST', `/mcp?pad=${'x'.repeat(2100)}`, `${head('Connection: close\r\n')}\r\n${body}`.replace('/mcp', `/mcp?pad=${'x'.repeat(2100)}`)))
        .status,
    ).toBe(414);
    expect((await raw(server, 'POST', '/mcp', `${head('Expect: teapot\r\nConnection: close\r\n')}\r\n${body}`)).status).toBe(417);
    expect((await raw(server, 'POST', '/mcp', `${head(`X-Pad: ${'p'.repeat(20_000)}\r\nConnection: close\r\n`)}\r\n${body}`)).status).toBe(431);
    // A body that stops half way: 408 once BODY_TIMEOUT_MS has passed.
    expect(
      (
        await raw(
          server,
          'POST',
          '/mcp',
          `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"`,
        )
      ).status,
    ).toBe(408);
    // Two MCP requests pipelined on one connection: the second is refused, busy (-32002).
    const all = await exchange(server, `${head('')}\r\n${body}${head('Connection: close\r\n')}\r\n${body}`);
    expect(all.map((r) => r.status)).toEqual([200, 503]);
    seen.push({ ...all[1]!, method: 'POST', target: '/mcp' });
  }, 30_000);
});

describe('load shedding', () => {
  let busy: Server;
  beforeAll(async () => {
    busy = await startServer({ env: { RATE_LIMIT: '1000000000', MAX_UNSENT_MB: '1', MAX_UNSENT_KB_PER_CONNECTION: '65536' } });
  });
  afterAll(async () => busy?.stop());

  it('answers a JSON 503 with Retry-After on every route while unread answers pass MAX_UNSENT_MB', async () => {
    // Twenty connections each pipeline 50 answers of 200 KB, then one request per documented
    // route, before reading any: the first answers pass the bound of 1 MiB at once, and the
    // requests after them are shed (tests/integration/harden-unread.test.ts has the bound's own tests).
    const body = rpc(1, 'tools/list');
    const tail = [
      ...examples.map((target) => ({ method: 'GET', target, text: `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n` })),
      {
        method: 'POST',
        target: '/mcp',
        text: `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      },
    ];
    const lead = Array.from({ length: 50 }, (_, k) => `GET /api/rtp/list?limit=200&offset=${k} HTTP/1.1\r\nHost: x\r\n\r\n`).join('');
    const expected = 50 + tail.length;
    const answers = await Promise.all(
      Array.from(
        { length: 20 },
        (_, k) =>
          new Promise<ReturnType<typeof responses>>((resolve, reject) => {
            const socket = net.connect({ port: portOf(busy), host: '127.0.0.1', localAddress: `127.0.10.${k + 1}` }, () => {
              socket.pause();
              socket.write(lead + tail.map((t) => t.text).join(''), () => {
                const chunks: Buffer[] = [];
                socket.on('data', (chunk: Buffer) => {
                  chunks.push(chunk);
                  const got = responses(Buffer.concat(chunks));
                  if (got.length >= expected) {
                    socket.destroy();
                    resolve(got);
                  }
                });
                // Read only once every connection has written its pipeline.
                setImmediate(() => socket.resume());
              });
            });
            socket.on('error', reject);
          }),
      ),
    );
    const shedFor = new Set<string>();
    for (const got of answers) {
      got.slice(50).forEach((answer, k) => {
        const { method, target } = tail[k]!;
        seen.push({ ...answer, method, target });
        if (answer.status === 503) {
          shedFor.add(`${method} ${target}`);
          expect(answer.head).toMatch(/\r\nRetry-After: 1\r\n/i);
        }
      });
    }
    expect([...shedFor].sort()).toEqual(tail.map((t) => `${t.method} ${t.target}`).sort());
  }, 60_000);
});

describe('a validating proxy finds no violation', () => {
  it('in the 3,200 queries of the hardening fuzz (tests/integration/harden-http.test.ts), sent as generated', async () => {
    const queries = fuzzQueries(3200, Number(process.env.HARDEN_SEED ?? 20261121));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const { hostname, port } = new URL(server.url);
    // node:http sends the target as given (fetch would normalise its escapes).
    const get = (target: string) =>
      new Promise<Observed>((resolve, reject) => {
        const req = http.request({ host: hostname, port, path: target, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              method: 'GET',
              target,
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    let next = 0;
    try {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let k = next++; k < queries.length; k = next++) seen.push(await get(`${k % 10 === 9 ? '/api/rtp/history' : '/api/rtp/list'}?${queries[k]}`));
        }),
      );
    } finally {
      agent.destroy();
    }
  }, 120_000);

  it('in a fuzz of list queries with the filters, formats, batch and delta sync', async () => {
    const rnd = rng(4180);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const VALUES: Record<string, readonly string[]> = {
      q: ['book', 'dead', 'BOOK OF', 'bóók', 'x', 'sweet bonanza', '!!!', '😀', ''],
      provider: ['playngo', 'netent', 'no-such-provider', ''],
      game_type: ['slot', 'table', 'video', ''],
      has_variants: ['1', 'yes'],
      badge: ['verified_rtp', 'sources_disagree', 'gold'],
      confidence: ['verified', 'corroborated', 'single_source', 'high'],
      sort: ['name', 'rtp_desc', 'recent', 'relevance', 'newest'],
      limit: ['1', '50', '200', '0', '201', 'abc'],
      offset: ['0', '10', '1000000', '-1'],
      rtp_min: ['90', '96.21', '97.5', '100', '96.215', 'abc', '-1'],
      rtp_max: ['94', '96.5', '99', '101'],
      volatility: ['low', 'high,very-high', 'medium,low', 'extreme', 'low,,high'],
      max_win_min: ['0', '1000', '5000.5', '1e9', 'x'],
      released_after: ['2010', '2020', '1999', '20', 'abcd'],
      released_before: ['2015', '2024', '9999', '0999'],
      format: ['json', 'csv', 'csv', 'xml'],
      slugs: ['book-of-dead', 'book-of-dead,no-such-game', 'Bad_Slug'],
      updated_since: ['2026-01-01', '2026-11-22T00:00:00Z', 'yesterday'],
      since: ['2026-01-01', 'x'],
      slug: ['book-of-dead', 'no-such-game'],
    };
    const LIST = [
      'q',
      'provider',
      'game_type',
      'has_variants',
      'badge',
      'confidence',
      'sort',
      'limit',
      'offset',
      'rtp_min',
      'rtp_max',
      'volatility',
      'max_win_min',
      'released_after',
      'released_before',
      'format',
    ];
    for (let k = 0; k < 600; k++) {
      const history = rnd() < 0.15;
      const names = history
        ? ['slug', 'provider', 'since', 'limit', 'offset']
        : rnd() < 0.1
          ? ['slugs', 'format', pick(LIST)]
          : rnd() < 0.1
            ? ['updated_since', 'limit', 'offset', 'format']
            : LIST;
      const params = names.filter(() => rnd() < (names === LIST ? 0.3 : 0.7)).map((n) => `${n}=${encodeURIComponent(pick(VALUES[n]!))}`);
      const r = await call(server, 'GET', `${history ? '/api/rtp/history' : '/api/rtp/list'}?${params.join('&')}`);
      expect(r.status).toBeLessThan(500);
    }
  }, 120_000);

  it('in every response of this file, and every documented status was seen', async () => {
    const violations = seen.flatMap((o) => checker.violations(o));
    expect(violations).toEqual([]);
    expect(seen.length).toBeGreaterThan(4000);
    // The checker does see a violation: an undocumented status, type or body.
    const list = { method: 'GET', target: '/api/rtp/list', contentType: 'application/json; charset=utf-8', body: '{}' };
    expect(checker.violations({ ...list, status: 418 })).toEqual(['GET /api/rtp/list → 418: status 418 not documented']);
    expect(checker.violations({ ...list, status: 200, contentType: 'text/html' })[0]).toContain('content type "text/html" not documented');
    expect(checker.violations({ ...list, status: 414, body: '{"statusCode":"414"}' })[0]).toContain('statusCode must be integer');
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const unseen: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = new Set(
          seen.filter((o) => checker.templateOf(o.target) === template && (o.method.toLowerCase() === method || o.status === 405)).map((o) => String(o.status)),
        );
        for (const status of Object.keys(op.responses)) if (!statuses.has(status)) unseen.push(`${method.toUpperCase()} ${template} ${status}`);
      }
    }
    expect(unseen).toEqual([]);
  });
});
