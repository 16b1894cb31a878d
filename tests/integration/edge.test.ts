// `npm run edge` against real nginx, real server instances and a real redis-server (loopback, free
// ports, state in a temp folder): the state file and a clean stop, header parity with the Node
// server for every route family, nginx's own errors as the server's JSON, the client's own address
// behind nginx, the static half (merged slugs' redirects included) served with every instance
// killed, and a query-free log. Answers nginx would give otherwise: edge-parity.test.ts; a frozen
// or killed instance, restarts: edge-heal.test.ts.
import { readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EDGE_ERRORS, EDGE_HEAD_LINE_BYTES, EDGE_UNAVAILABLE } from '../../src/emit/nginx.ts';
import { movedBody, movedStaticUrls } from '../../src/routes/moved.ts';
import { paths, type RouteFamily } from '../../src/routes/paths.ts';
import { JSON_ERROR } from '../../src/routes/response-headers.ts';
import { DYNAMIC_FAMILIES, POLICIES } from '../../src/routes/routes.ts';
import { ErrorBodySchema } from '../../src/schemas/errors.ts';
import { MergedFileSchema } from '../../src/schemas/merged.ts';
import { RPC, RpcErrorMessageSchema } from '../../src/schemas/rpc.ts';
import { removeTemp, tempDir } from '../helpers/browser.ts';
import { readDataFiles } from '../helpers/data-files.ts';
import { comparable, NOT_COMPARED, parseAnswer, RATE_LIMIT_HEADERS, type RunningEdge, startEdge, VALIDATORS } from '../helpers/edge.ts';
import { exchange, get } from '../helpers/load.ts';
import { runScript } from '../helpers/production.ts';
import { familySamples, MCP_CALL } from '../helpers/route-samples.ts';
import { testDataDir, testOutDir } from '../helpers/server.ts';

const data = readDataFiles(testDataDir());
const game = data.games.find((g) => g.provider === data.providers[0]!.provider)!;
const SAMPLES = familySamples({
  slug: game.canonical_slug,
  provider: game.provider,
  version: data.meta.data_version,
  asset: `/_astro/${readdirSync(path.join(testOutDir(), 'client/_astro')).sort()[0]!}`,
});
const FAMILIES = Object.keys(SAMPLES) as RouteFamily[];
const STATIC = FAMILIES.filter((f) => !DYNAMIC_FAMILIES.has(f));
/** The merged slugs of the data (data/merged.json) and every URL of theirs served from a file, an embed's options on each. */
const MERGED = new Map(
  MergedFileSchema.parse(JSON.parse(readFileSync(path.join(testDataDir(), 'merged.json'), 'utf8'))).games.map((m) => [m.slug, m.merged_into]),
);
const QUERY = 'theme=dark&lang=de';
const MOVED = movedStaticUrls(MERGED).map((m) => ({ ...m, from: `${m.from}?${QUERY}`, to: `${m.to}?${QUERY}` }));

interface Seen {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function fetchOne(base: string, family: RouteFamily, url: string): Promise<Seen> {
  const res = await fetch(base + url, { ...(family === 'mcp' ? MCP_CALL : {}), redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** Node's incoming headers as a Headers object (for `comparable`). */
function headersOf(h: Record<string, string | string[] | undefined>): Headers {
  return new Headers(Object.entries(h).flatMap(([n, v]) => (v === undefined ? [] : [[n, Array.isArray(v) ? v.join(', ') : v] as [string, string]])));
}

describe('npm run edge: nginx in front of two instances and one redis-server', () => {
  let dir: string;
  let edge: RunningEdge;
  const LIMIT = 40;

  beforeAll(async () => {
    dir = await tempDir('rtp-edge-');
    // Killed instances stay down here (restarts after 10 min): the static half is tested without them.
    edge = await startEdge(dir, 2, { RATE_LIMIT: String(LIMIT), EDGE_RESTART_MS: '600000' });
  });

  afterAll(async () => {
    if (edge !== undefined) {
      expect(await edge.stop()).toBe(0);
      // Nothing it started still runs, and the state file is gone.
      expect(edge.running()).toEqual([]);
      expect(readdirSync(dir)).not.toContain('state.json');
    }
    await removeTemp(dir);
  });

  it('writes state.json with the pid and port of nginx, Redis and each instance, all running', () => {
    expect(edge.state.instances).toHaveLength(2);
    expect(edge.url).toBe(`http://127.0.0.1:${edge.state.nginx.port}`);
    expect(edge.running()).toHaveLength(4);
    expect(new Set([edge.state.nginx.port, edge.state.redis.port, ...edge.state.instances.map((i) => i.port)]).size).toBe(4);
  });

  it('refuses a second edge in the same folder, and bad settings, naming the fix', async () => {
    const second = await runScript('scripts/edge.ts', [], { EDGE_DIR: dir, PORT: '0', HOST: '127.0.0.1', RTP_OUT_DIR: testOutDir() }, 60_000);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`edge: another edge (pid `);
    expect(second.stderr).toContain(`runs in ${dir}: stop it first`);
    const bad = await runScript('scripts/edge.ts', ['--instances', '0'], { EDGE_DIR: dir }, 60_000);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('edge: --instances "0": must be a whole number from 1 to 32');
    const port = await runScript('scripts/edge.ts', [], { EDGE_DIR: dir, PORT: 'eighty' }, 60_000);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('edge: PORT="eighty": must be an integer from 0 to 65535');
    const restart = await runScript('scripts/edge.ts', [], { EDGE_DIR: dir, EDGE_RESTART_MS: '0' }, 60_000);
    expect([restart.code, restart.stderr]).toEqual([2, expect.stringContaining('edge: EDGE_RESTART_MS="0": must be an integer from 1 to 9999999')]);
    // The running edge is untouched.
    expect(edge.running()).toHaveLength(4);
  });

  it('answers every route family with the headers the Node server sends (table-driven from the route table)', async () => {
    const node = `http://127.0.0.1:${edge.state.instances[0]!.port}`;
    for (const family of FAMILIES) {
      for (const url of SAMPLES[family]) {
        const [direct, viaEdge] = [await fetchOne(node, family, url), await fetchOne(edge.url, family, url)];
        expect(viaEdge.status, url).toBe(direct.status);
        expect(direct.status === 200 || family === 'mcp', url).toBe(true);
        expect(viaEdge.body.equals(direct.body), url).toBe(true);
        if (DYNAMIC_FAMILIES.has(family)) {
          // Passed through from an instance: the same headers; the budget left differs by the requests between.
          const leaveOut = new Set([...NOT_COMPARED, ...RATE_LIMIT_HEADERS]);
          expect(comparable(viaEdge.headers, leaveOut), url).toEqual(comparable(direct.headers, leaveOut));
          expect(
            [...viaEdge.headers.keys()].filter((n) => RATE_LIMIT_HEADERS.has(n)),
            url,
          ).toEqual([...direct.headers.keys()].filter((n) => RATE_LIMIT_HEADERS.has(n)));
        } else {
          // Served by nginx: the same headers but the validators nginx makes itself, and no rate-limit headers.
          const leaveOut = new Set([...NOT_COMPARED, ...VALIDATORS, ...RATE_LIMIT_HEADERS]);
          expect(comparable(viaEdge.headers, leaveOut), url).toEqual(comparable(direct.headers, leaveOut));
          expect(viaEdge.headers.get('etag'), url).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
          expect(
            [...viaEdge.headers.keys()].filter((n) => RATE_LIMIT_HEADERS.has(n)),
            url,
          ).toEqual([]);
          expect(direct.headers.has('x-ratelimit-limit'), url).toBe(POLICIES[family].rateLimited);
        }
      }
    }
  });

  it('leaves to the instances what no file answers: the same 404s, dot files and CDN files never served', async () => {
    const node = `http://127.0.0.1:${edge.state.instances[0]!.port}`;
    for (const url of [
      '/.env',
      '/_headers',
      '/404',
      '/index',
      '/about.html',
      '/api/rtp/no-such-game',
      '/api/nothing',
      '/rtp/no-such-game',
      '/_astro/missing.js',
    ]) {
      const [direct, viaEdge] = [await fetchOne(node, 'page', url), await fetchOne(edge.url, 'page', url)];
      expect(direct.status, url).toBe(404);
      expect(viaEdge.status, url).toBe(404);
      expect(viaEdge.body.equals(direct.body), url).toBe(true);
      expect(viaEdge.headers.get('content-type'), url).toBe(direct.headers.get('content-type'));
    }
    // A symbolic link planted in the served folder is not followed (as by the instances).
    const secret = path.join(dir, 'secret.txt');
    writeFileSync(secret, 'not for the web');
    const link = path.join(testOutDir(), 'client/_astro', `edge-link-${process.pid}.txt`);
    symlinkSync(secret, link);
    try {
      const leaked = await fetchOne(edge.url, 'asset', `/_astro/${path.basename(link)}`);
      expect(leaked.status).toBe(404);
      expect(leaked.body.toString()).not.toContain('not for the web');
    } finally {
      unlinkSync(link);
    }
    // The preflight, which nginx's static files refuse, is the server's.
    const preflight = await fetch(`${edge.url}${SAMPLES.slot[0]}`, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'x-api-key' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-api-key');
  });

  it("answers each URL of a merged slug served from a file with the server's own 301: status, Location (query kept), headers and body", async () => {
    // Counted by the instances (records, widgets, pages): from addresses of their own, each kept
    // within the budget (LIMIT), so the budget of the others stays whole.
    const node = `http://127.0.0.1:${edge.state.instances[0]!.port}`;
    const perAddress = LIMIT - 5;
    expect(MOVED.length).toBe(MERGED.size * 6);
    for (const [k, m] of MOVED.entries()) {
      const from = { localAddress: `127.0.${4 + Math.floor(k / perAddress)}.1` };
      const [direct, viaEdge] = [await get(node + m.from, from), await get(edge.url + m.from, from)];
      expect([direct.status, direct.headers.location], m.from).toEqual([301, m.to]);
      expect([viaEdge.status, viaEdge.body], m.from).toEqual([direct.status, direct.body]);
      expect(JSON.parse(viaEdge.body), m.from).toEqual(movedBody(m.slug, m.into));
      // The same headers; the instances count the request (its rate-limit headers), nginx does not.
      const leaveOut = new Set([...NOT_COMPARED, ...RATE_LIMIT_HEADERS]);
      expect(comparable(headersOf(viaEdge.headers), leaveOut), m.from).toEqual(comparable(headersOf(direct.headers), leaveOut));
      expect(
        Object.keys(viaEdge.headers).filter((n) => RATE_LIMIT_HEADERS.has(n)),
        m.from,
      ).toEqual([]);
    }
    // HEAD: the same answer without its body; the card, drawn by the instances, passes through; the preflight is theirs.
    const head = await fetch(edge.url + MOVED[0]!.from, { method: 'HEAD', redirect: 'manual' });
    expect([head.status, head.headers.get('location'), head.headers.get('content-length'), await head.text()]).toEqual([
      301,
      MOVED[0]!.to,
      String(Buffer.byteLength(JSON.stringify(movedBody(MOVED[0]!.slug, MOVED[0]!.into)))),
      '',
    ]);
    const [slug, into] = [...MERGED][0]!;
    const card = await get(`${edge.url}${paths.ogImage(slug)}`, { localAddress: '127.0.3.1' });
    expect([card.status, card.headers.location]).toEqual([301, paths.ogImage(into)]);
    const preflight = await fetch(`${edge.url}${paths.widget(slug)}`, { method: 'OPTIONS', headers: { 'access-control-request-headers': 'x-api-key' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-headers')]).toEqual([204, 'x-api-key']);
  });

  it("answers what nginx refuses itself as the server does: JSON error bodies with the server's error headers, never its HTML pages", async () => {
    const node = edge.state.instances[0]!.port;
    const requests: Array<[string, string, number]> = [
      // A request line past nginx's header buffer (the instances' own 414s come from them).
      ['a too long URI', `GET /${'a'.repeat(EDGE_HEAD_LINE_BYTES)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414],
      ['a header line without a colon', 'GET / HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n', 400],
      ['a Host that is no host name', 'GET / HTTP/1.1\r\nHost: bad/host\r\n\r\n', 400],
      ['a header past the header buffer', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(EDGE_HEAD_LINE_BYTES)}\r\n\r\n`, 431],
    ];
    for (const [what, request, status] of requests) {
      const [head, body] = (await exchange(edge.state.nginx.port, request)).split('\r\n\r\n');
      const headers = new Map(
        head!
          .split('\r\n')
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      expect(Number(head!.split(' ')[1]), what).toBe(status);
      const parsed = ErrorBodySchema.parse(JSON.parse(body!));
      expect(parsed, what).toEqual([...EDGE_ERRORS.values()].find((b) => b.statusCode === status));
      for (const [name, value] of Object.entries(JSON_ERROR)) expect(headers.get(name.toLowerCase()), `${what}: ${name}`).toBe(value);
      expect(headers.get('content-length'), what).toBe(String(Buffer.byteLength(body!)));
    }
    // A request neither can parse: the same bytes from nginx as from an instance.
    const bad = 'GET / HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n';
    const [fromEdge, fromNode] = [await exchange(edge.state.nginx.port, bad), await exchange(node, bad)];
    expect(fromEdge.split('\r\n\r\n')[1]).toBe(fromNode.split('\r\n\r\n')[1]);
  });

  it(`answers a POST ${paths.mcp} body past the instances' bound as they do: the same JSON-RPC error, whatever its size`, async () => {
    const { maxBytes, tooLarge } = POLICIES.mcp.body!;
    /**
     * The status, Content-Type and body of the answer to a POST /mcp head declaring `size` bytes of
     * body: both answer from the head, before any of it (a body sent on would meet a closed socket).
     */
    const post = (port: number, size: number) =>
      new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
        let got = '';
        const socket = net.connect({ port, host: '127.0.0.1' }, () => {
          socket.write(
            `POST ${paths.mcp} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${size}\r\n\r\n`,
          );
        });
        socket.on('data', (c: Buffer) => {
          got += c.toString('latin1');
          const end = got.indexOf('\r\n\r\n');
          if (end < 0) return;
          const lines = got.slice(0, end).split('\r\n');
          const header = (name: string) => lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.replace(/^[^:]*:\s*/, '');
          const body = got.slice(end + 4);
          if (body.length < Number(header('content-length'))) return;
          socket.destroy();
          resolve({ status: Number(lines[0]!.split(' ')[1]), type: header('content-type'), body });
        });
        socket.on('error', reject);
        socket.on('close', () => reject(new Error(`no whole answer to a ${size}-byte body: ${got.slice(0, 200)}`)));
        socket.setTimeout(10_000, () => socket.destroy());
      });
    const direct = await post(edge.state.instances[0]!.port, maxBytes + 1);
    expect(direct).toEqual({ status: 413, type: JSON_ERROR['Content-Type'], body: JSON.stringify(tooLarge) });
    expect(RpcErrorMessageSchema.parse(JSON.parse(direct.body)).error).toEqual({
      code: RPC.INVALID_REQUEST,
      message: `request body larger than ${maxBytes} bytes`,
    });
    for (const size of [maxBytes + 1, 2 * 1024 * 1024]) expect(await post(edge.state.nginx.port, size), `${size} bytes`).toEqual(direct);
  });

  it('counts each client by its own address: an X-Forwarded-For it sends buys no fresh budget', async () => {
    const url = `${edge.url}${SAMPLES.list[0]}`;
    const remaining: string[] = [];
    for (let k = 0; k < LIMIT; k++) {
      const r = await get(url, { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': `198.51.100.${k}, 203.0.113.${k}` } });
      expect(r.status).toBe(200);
      remaining.push(String(r.headers['x-ratelimit-remaining']));
    }
    // Counted once each, across both instances, in the one Redis.
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, k) => String(LIMIT - 1 - k)));
    const over = await get(url, { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '192.0.2.77' } });
    expect(over.status).toBe(429);
    const other = await get(url, { localAddress: '127.0.0.3', headers: { 'x-forwarded-for': '127.0.0.2' } });
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it("serves the static families and the merged slugs' redirects with every instance killed, same bytes and headers; dynamic routes get a JSON 503 on refusal, not after a timeout", async () => {
    const before = new Map<string, Seen>();
    for (const family of STATIC) for (const url of SAMPLES[family]) before.set(url, await fetchOne(edge.url, family, url));
    for (const m of MOVED) before.set(m.from, await fetchOne(edge.url, m.family, m.from));
    for (const instance of edge.state.instances) process.kill(instance.pid, 'SIGKILL');
    for (const instance of edge.state.instances) await edge.waitFor(new RegExp(`\\(pid ${instance.pid}\\) exited`));
    for (const family of STATIC) {
      for (const url of SAMPLES[family]) {
        const now = await fetchOne(edge.url, family, url);
        const was = before.get(url)!;
        expect(now.status, url).toBe(200);
        expect(now.body.equals(was.body), url).toBe(true);
        expect(comparable(now.headers, NOT_COMPARED), url).toEqual(comparable(was.headers, NOT_COMPARED));
      }
    }
    // A merged slug's record, widget data, widget, badge, feed and page: nginx's 301 to the survivor, query kept.
    for (const m of MOVED) {
      const now = await fetchOne(edge.url, m.family, m.from);
      expect([now.status, now.headers.get('location')], m.from).toEqual([301, m.to]);
      expect(JSON.parse(now.body.toString('utf8')), m.from).toEqual(movedBody(m.slug, m.into));
      expect(comparable(now.headers, NOT_COMPARED), m.from).toEqual(comparable(before.get(m.from)!.headers, NOT_COMPARED));
    }
    let dynamicAsked = 0;
    for (const family of FAMILIES.filter((f) => DYNAMIC_FAMILIES.has(f))) {
      for (const url of SAMPLES[family]) {
        const res = await fetch(edge.url + url, family === 'mcp' ? MCP_CALL : {});
        const body = ErrorBodySchema.parse(await res.json());
        dynamicAsked++;
        expect(res.status, url).toBe(503);
        expect(body).toEqual(EDGE_UNAVAILABLE);
        expect(res.headers.get('content-type')).toBe(POLICIES.list.contentType);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    }
    // Answered on the refused connections, not after an upstream timeout: nginx's own line for each
    // names the instances' 502 (refused), never a 504 (timed out). Its log, not the clock.
    const failed = () => edge.output().match(/edge: \S+ \S+ answered 503 \(instances: [^)]*\)/g) ?? [];
    await vi.waitFor(() => expect(failed().length).toBeGreaterThanOrEqual(dynamicAsked), { timeout: 30_000, interval: 200 });
    expect(failed().filter((line) => /\b504\b/.test(line))).toEqual([]);
    // nginx's log names the failed requests by path, never with their query strings; neither a
    // refused request nor TRACE leaves a line with them.
    const secret = `edge-secret-${process.pid}`;
    expect((await get(`${edge.url}${paths.list}?q=${secret}`)).status).toBe(503);
    expect(parseAnswer(await exchange(edge.state.nginx.port, `GET ${paths.list}?q=${secret} HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n`)).status).toBe(400);
    expect(parseAnswer(await exchange(edge.state.nginx.port, `TRACE ${paths.list}?q=${secret} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).status).toBe(
      503,
    );
    await edge.waitFor(new RegExp(`edge: TRACE ${paths.list} answered 503 \\(instances: `));
    await edge.waitFor(new RegExp(`edge: GET ${paths.list} answered 503 \\(instances: `));
    expect(edge.output()).not.toContain(secret);
    expect(edge.output()).not.toMatch(/uninitialized|invalid URL prefix/);
  });
});
