// POST /mcp and the stdio MCP server as a hostile client uses them, against the real server with
// the flags of `npm run serve` (docs/security.md, MCP): batches and answers bounded, MCP work in
// flight bounded, every call counted, JSON-RPC codes as the spec gives them, no payload echoed,
// every answer with nosniff, and Node's own early refusals answered as JSON.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_BATCH_ANSWER_BYTES, MCP_BATCH_MESSAGES, MCP_MESSAGE_BYTES } from '../../src/schemas/rpc.ts';
import { exchange, get } from '../helpers/load.ts';
import { REPO_ROOT, type Server, startServer, testOutDir } from '../helpers/server.ts';

const portOf = (server: Server) => Number(new URL(server.url).port);
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
type Rpc = {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: { isError?: boolean; structuredContent?: { games?: unknown[] } };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

const search = (id: number, limit = 50) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_games', arguments: { limit, offset: id } } });
const batch = (n: number, limit = 50) => Array.from({ length: n }, (_, k) => search(k + 1, limit));

async function post(
  server: Server,
  body: unknown,
  headers: Record<string, string> = JSON_HEADERS,
): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** A raw POST /mcp whose answer is never read. */
function unreadPost(server: Server, body: string, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: portOf(server), host: '127.0.0.1', localAddress }, () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      resolve(socket);
    });
    socket.pause();
    socket.on('error', () => undefined);
  });
}

describe('MCP under unread batches', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '1000000' } });
  });
  afterAll(async () => server?.stop());

  it(`a batch past ${MCP_BATCH_MESSAGES} messages is refused whole with -32600, nothing run`, async () => {
    const r = await post(server, batch(100));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: a batch holds at most ${MCP_BATCH_MESSAGES} messages`,
        data: { code: 'ERR_MCP_BATCH_TOO_LONG', max_messages: MCP_BATCH_MESSAGES },
      },
    });
  });

  it('a batch at the cap gets every answer within the byte cap of a batch', async () => {
    const r = await post(server, batch(MCP_BATCH_MESSAGES));
    expect(r.status).toBe(200);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(MCP_BATCH_ANSWER_BYTES + MCP_BATCH_MESSAGES * 512);
    const answers = JSON.parse(r.text) as Rpc[];
    expect(answers.map((a) => a.id)).toEqual(batch(MCP_BATCH_MESSAGES).map((m) => m.id));
    const past = answers.filter((a) => a.error !== undefined);
    for (const a of past) expect(a.error).toMatchObject({ code: -32001, data: { code: 'ERR_MCP_BATCH_ANSWER_TOO_LARGE', max_bytes: MCP_BATCH_ANSWER_BYTES } });
    expect(answers.filter((a) => a.result !== undefined).length).toBeGreaterThan(0);
  });

  it('20 unread 100-call batches and 20 unread batches at the cap: up, RSS under 300 MB, others answered meanwhile', async () => {
    const sockets: net.Socket[] = [];
    for (let k = 0; k < 20; k++) sockets.push(await unreadPost(server, JSON.stringify(batch(100)), `127.0.7.${k + 1}`));
    for (let k = 0; k < 20; k++) sockets.push(await unreadPost(server, JSON.stringify(batch(MCP_BATCH_MESSAGES)), `127.0.8.${k + 1}`));
    // One more batch at the cap, read: it is answered after all of the unread ones were.
    expect((await post(server, batch(MCP_BATCH_MESSAGES))).status).toBe(200);
    const normal = await get(`${server.url}/api/rtp/list?q=book&limit=5`);
    expect(normal.status).toBe(200);
    // Answered while the unread batches still hold their connections (event order, not a clock bound).
    expect(sockets.every((s) => !s.destroyed)).toBe(true);
    expect(server.rssKiB()).toBeLessThan(300 * 1024);
    expect(server.output()).not.toContain('FATAL');
    for (const s of sockets) s.destroy();
  }, 60_000);

  it('one MCP request at a time on a connection', async () => {
    const body = JSON.stringify(search(1));
    const one = `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const text = await exchange(portOf(server), one + one.replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n'));
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 503]);
    expect(text).toContain('server busy: at most 1 MCP request at a time on one connection; retry after 1 s');
  });
});

describe('every MCP call counts against the budget', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '3' } });
  });
  afterAll(async () => server?.stop());

  it('a 100-call batch with RATE_LIMIT=3 gets no result; a 10-call batch gets 3, the rest the reset of a 429', async () => {
    const hundred = await post(server, batch(100, 1), JSON_HEADERS);
    expect(hundred.text).not.toContain('"result"');
    const r = await post(server, batch(10, 1), { ...JSON_HEADERS });
    expect(r.status).toBe(200);
    const answers = JSON.parse(r.text) as Rpc[];
    // The 100-call batch was one counted request: two calls of this one are left.
    expect(answers.filter((a) => a.result !== undefined)).toHaveLength(2);
    const refused = answers.filter((a) => a.error !== undefined);
    expect(refused).toHaveLength(8);
    for (const a of refused) {
      expect(a.error).toMatchObject({ code: -32000, data: { code: 'ERR_MCP_RATE_LIMITED', limit: 3, remaining: 0 } });
      expect(a.error!.data!.reset).toBe(Number(r.headers.get('x-ratelimit-reset')));
      expect(a.error!.data!.retry_after).toBeGreaterThan(0);
    }
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await post(server, search(1))).status).toBe(429);
  });
});

describe('every spelling of one IPv4 address shares its budget', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '100', TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => server?.stop());

  it.each([['::FFFF:9.9.9.1'], ['0:0:0:0:0:ffff:9.9.9.1'], ['::ffff:909:901'], ['::9.9.9.1']])('9.9.9.1, then %s: one budget', async (spelling) => {
    const first = await get(`${server.url}/api/rtp/list?limit=1`, { headers: { 'x-forwarded-for': '9.9.9.1' } });
    const other = await get(`${server.url}/api/rtp/list?limit=1`, { headers: { 'x-forwarded-for': spelling } });
    expect(Number(other.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
  });
});

describe('POST /mcp protocol edges', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '1000000', BODY_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => server?.stop());

  it('every answer carries nosniff and the JSON error headers: 200, 202, 400, 406, 413, 415', async () => {
    const answers = [
      [200, await post(server, search(1, 1))],
      [202, await post(server, { jsonrpc: '2.0', method: 'notifications/initialized' })],
      [400, await post(server, '{"jsonrpc":')],
      [406, await post(server, search(1), { 'content-type': 'application/json', accept: 'text/html' })],
      [413, await post(server, ' '.repeat(MCP_MESSAGE_BYTES + 1))],
      [415, await post(server, 'not json', { 'content-type': 'text/plain' })],
    ] as const;
    for (const [status, r] of answers) {
      expect(r.status, String(status)).toBe(status);
      expect(r.headers.get('x-content-type-options'), String(status)).toBe('nosniff');
      expect(r.headers.get('cache-control'), String(status)).toBe('no-store');
      expect(r.headers.get('access-control-allow-origin'), String(status)).toBe('*');
      if (status !== 202) expect(r.headers.get('content-type'), String(status)).toBe('application/json; charset=utf-8');
    }
  });

  it('JSON-RPC codes: -32700 for a body that is not JSON, -32600 for an empty batch, -32602 for invalid params, -32601 for an unknown method', async () => {
    expect(JSON.parse((await post(server, '{"jsonrpc":')).text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the message is not JSON' },
    });
    const empty = await post(server, []);
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.text)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } });
    const params = JSON.parse(
      (await post(server, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_games', arguments: { limit: 'many' } } })).text,
    ) as Rpc;
    expect(params).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'Invalid params: params.arguments.limit: Invalid input: expected number, received string' },
    });
    const shape = JSON.parse((await post(server, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 12 } })).text) as Rpc;
    expect(shape.error?.code).toBe(-32602);
    const unknown = JSON.parse((await post(server, { jsonrpc: '2.0', id: 9, method: 'resources/list' })).text) as Rpc;
    expect(unknown.error).toEqual({ code: -32601, message: 'Method not found: this server answers initialize, ping, tools/list, tools/call' });
  });

  it('a body that is not JSON sent as text/plain gets the 415, not a parse error', async () => {
    const r = await post(server, '<xml/>', { 'content-type': 'text/plain', accept: 'application/json' });
    expect(r.status).toBe(415);
    expect(JSON.parse(r.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Unsupported Media Type: Content-Type must be application/json' },
    });
  });

  it('no echo: a 60 KB tool name and a slug with CR/LF never come back', async () => {
    const name = `<script>${'A'.repeat(60_000)}`;
    const r = await post(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } });
    expect(r.text.length).toBeLessThan(400);
    expect(r.text).not.toContain('<script>');
    expect((JSON.parse(r.text) as Rpc).error?.code).toBe(-32602);
    const slug = 'x\r\nSet-Cookie: a=b';
    const g = await post(server, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_game', arguments: { slug } } });
    expect(g.text).not.toContain('Set-Cookie');
    expect(g.text).not.toContain('\\r\\n');
  });

  it('POST in absolute form is served like POST /mcp', async () => {
    const body = JSON.stringify(search(1, 1));
    const text = await exchange(
      portOf(server),
      `POST http://x/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toContain('"result"');
  });

  it('a half-sent body gets a JSON 408 once BODY_TIMEOUT_MS has passed', async () => {
    const started = performance.now();
    const text = await exchange(
      portOf(server),
      'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":"2.0"',
    );
    // Not before the body timeout; and its own answer, not the request timeout's (Node's bare 408):
    // which timer fired is in the body, so no upper bound on the clock is needed.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000 - 1);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('X-Content-Type-Options: nosniff');
    expect(text).toContain('"code":-32600');
    expect(text).toContain('request body not received within 1000 ms');
  });

  it("Node's own refusals are JSON with nosniff: no Host (400), an Expect other than 100-continue (417)", async () => {
    const noHost = await exchange(portOf(server), 'GET /api/rtp/list HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(noHost).toContain('X-Content-Type-Options: nosniff');
    expect(noHost.endsWith('{"statusCode":400,"statusMessage":"bad request: HTTP/1.1 requests must carry a Host header"}')).toBe(true);
    const expect417 = await exchange(portOf(server), 'GET /api/rtp/list HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n');
    expect(expect417).toMatch(/^HTTP\/1\.1 417 /);
    expect(expect417).toContain('X-Content-Type-Options: nosniff');
    expect(expect417).toContain('Content-Type: application/json; charset=utf-8');
    expect(expect417.endsWith('{"statusCode":417,"statusMessage":"expectation failed: the only Expect this server meets is 100-continue"}')).toBe(true);
  });
});

describe('requests refused before routing count against the budget', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '3' } });
  });
  afterAll(async () => server?.stop());

  it('bad encodings and bad keys spend the budget like any request, then get 429', async () => {
    const bad = await get(`${server.url}/api/rtp/%E0%A4%A`);
    expect(bad.status).toBe(404);
    expect(bad.headers['x-ratelimit-remaining']).toBe('2');
    const key = await get(`${server.url}/api/rtp/book-of-dead`, { headers: { authorization: 'Bearer rtp_live_00000000000000000000000000000000' } });
    expect(key.status).toBe(401);
    expect(key.headers['x-ratelimit-remaining']).toBe('1');
    await get(`${server.url}/api/rtp/%E0%A4%A`);
    expect((await get(`${server.url}/api/rtp/%E0%A4%A`)).status).toBe(429);
  });
});

describe('the stdio MCP server', () => {
  /** Runs `npm run mcp`'s script over `input` to its end; its stdout lines. */
  function stdio(input: Buffer[]): Promise<{ code: number | null; lines: string[] }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts/mcp.ts')], {
        cwd: REPO_ROOT,
        env: { ...process.env, RTP_OUT_DIR: testOutDir() },
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      const out: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.once('close', (code) =>
        resolve({
          code,
          lines: Buffer.concat(out)
            .toString('utf8')
            .split('\n')
            .filter((l) => l !== ''),
        }),
      );
      (async () => {
        for (const part of input) if (!child.stdin.write(part)) await new Promise((r) => child.stdin.once('drain', r));
        child.stdin.end();
      })();
    });
  }

  it('a 50 MB line gets -32600, a malformed line -32700, and every answer owed is written before exit', async () => {
    const line = (m: unknown) => Buffer.from(`${JSON.stringify(m)}\n`);
    const huge = Buffer.alloc(50 * 1024 * 1024, 0x61);
    const { code, lines } = await stdio([
      line(search(1, 1)),
      huge,
      Buffer.from('\n'),
      Buffer.from('{not json\n'),
      line(batch(3, 1)),
      line(search(2, 1)).subarray(0, -1),
    ]);
    expect(code).toBe(0);
    const answers = lines.map((l) => JSON.parse(l) as Rpc | Rpc[]);
    expect(answers).toHaveLength(5);
    expect((answers[0] as Rpc).id).toBe(1);
    expect((answers[1] as Rpc).error).toEqual({
      code: -32600,
      message: `Invalid Request: a line longer than ${MCP_MESSAGE_BYTES} bytes`,
      data: { code: 'ERR_MCP_LINE_TOO_LONG', max_bytes: MCP_MESSAGE_BYTES },
    });
    expect((answers[2] as Rpc).error?.code).toBe(-32700);
    expect((answers[3] as Rpc[]).map((a) => a.id)).toEqual([1, 2, 3]);
    // The last line had no newline before the end of the input: answered all the same.
    expect((answers[4] as Rpc).id).toBe(2);
    expect((answers[4] as Rpc).result).toBeDefined();
  }, 60_000);
});
