// POST /mcp bodies as a hostile client sends them, against the real server: a request takes a place
// in flight only once its whole body is read, so a client's stalled bodies hold places of its own
// address only (4 per address, 256 in the process, `ERR_MCP_BODIES_BUSY` past either) and never
// keep another address's requests out; whole requests in flight are bounded at 16 (`ERR_MCP_BUSY`).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_BATCH_MESSAGES } from '../../src/schemas/rpc.ts';
import { MCP_IN_FLIGHT, MCP_READING, MCP_READING_PER_ADDRESS } from '../../src/server/mcp-http.ts';
import { type Server, startServer } from '../helpers/server.ts';

const portOf = (server: Server) => Number(new URL(server.url).port);
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
type Rpc = { jsonrpc: '2.0'; id: number | string | null; error?: { code: number; message: string; data?: Record<string, unknown> } };

const search = (id: number, limit = 50) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_games', arguments: { limit, offset: id } } });
const batch = (n: number, limit = 50) => Array.from({ length: n }, (_, k) => search(k + 1, limit));

async function post(server: Server, body: unknown): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(`${server.url}/mcp`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** A POST /mcp through `agent`: `flushed` once the request is handed to the kernel, `answer` with the status and body. */
function postVia(server: Server, agent: http.Agent, body: unknown): { flushed: Promise<void>; answer: Promise<{ status: number; text: string }> } {
  let flushed!: () => void;
  const done = new Promise<void>((resolve) => (flushed = resolve));
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: portOf(server), path: '/mcp', method: 'POST', agent, headers: JSON_HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body), () => flushed());
  });
  return { flushed: done, answer };
}

/** Stops (SIGSTOP) or resumes (SIGCONT) the server, and waits until /proc shows it so. */
async function frozen(pid: number, stop: boolean): Promise<void> {
  process.kill(pid, stop ? 'SIGSTOP' : 'SIGCONT');
  const state = () => /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
  while ((state() === 'T') !== stop) await new Promise((resolve) => setImmediate(resolve));
}

describe('MCP bodies and work in flight', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '1000000' } });
  });
  afterAll(async () => server?.stop());

  it(`MCP work in flight is bounded: ${MCP_IN_FLIGHT} whole requests being answered, the next a 503 (ERR_MCP_BUSY)`, async () => {
    const pool = Array.from({ length: MCP_IN_FLIGHT + 1 }, (_, k) => new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.11.${k + 1}` }));
    // Each connection open and answered once, so the server reads from it already.
    for (const agent of pool) expect((await postVia(server, agent, { jsonrpc: '2.0', id: 0, method: 'ping' }).answer).status).toBe(200);
    // Frozen, the server is sent every request whole; resumed, it reads them all in one turn of its
    // event loop, and each 20-call batch takes 20 turns to answer.
    await frozen(server.pid, true);
    const sent = pool.map((agent) => postVia(server, agent, batch(MCP_BATCH_MESSAGES, 1)));
    await Promise.all(sent.map((r) => r.flushed));
    await frozen(server.pid, false);
    const answers = await Promise.all(sent.map((r) => r.answer));
    const busy = answers.filter((a) => a.status === 503);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(MCP_IN_FLIGHT);
    expect(busy).toHaveLength(1);
    expect(JSON.parse(busy[0]!.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32002,
        message: `server busy: at most ${MCP_IN_FLIGHT} MCP requests in flight; retry after 1 s`,
        data: { code: 'ERR_MCP_BUSY', retry_after: 1 },
      },
    });
    for (const agent of pool) agent.destroy();
  }, 30_000);

  it(`16 stalled bodies from one address: past ${MCP_READING_PER_ADDRESS}, its own get a 503 (ERR_MCP_BODIES_BUSY); another address's tools/list answers 200 while they are awaited`, async () => {
    // Each sends 10 of its 100 bytes and stops.
    const stalled: net.Socket[] = [];
    const refused: Promise<string>[] = [];
    for (let k = 0; k < 16; k++) {
      stalled.push(
        await new Promise<net.Socket>((resolve) => {
          const socket = net.connect({ port: portOf(server), host: '127.0.0.1', localAddress: '127.0.9.1' }, () => {
            socket.write('POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"');
            resolve(socket);
          });
          const chunks: Buffer[] = [];
          socket.on('data', (c: Buffer) => chunks.push(c));
          refused.push(new Promise((done) => socket.once('close', () => done(Buffer.concat(chunks).toString('utf8')))));
          socket.on('error', () => undefined);
        }),
      );
    }
    // The address's bodies past its bound are refused at once, each with the stable code.
    const answers = await Promise.all(refused.slice(MCP_READING_PER_ADDRESS));
    for (const text of answers) {
      expect(text).toMatch(/^HTTP\/1\.1 503 /);
      expect(text).toMatch(/\r\nretry-after: 1\r\n/i);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Rpc;
      expect(body.error).toEqual({
        code: -32002,
        message: `server busy: at most ${MCP_READING_PER_ADDRESS} MCP request bodies being received from one client at a time; retry after 1 s`,
        data: { code: 'ERR_MCP_BODIES_BUSY', retry_after: 1 },
      });
    }
    // Its first bodies are still being waited for, and hold no place another client needs.
    expect(stalled.slice(0, MCP_READING_PER_ADDRESS).every((s) => !s.destroyed)).toBe(true);
    const list = await post(server, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(list.status).toBe(200);
    // Answered while those bodies are still awaited (event order, not a clock bound): it waited for none of them.
    expect(stalled.slice(0, MCP_READING_PER_ADDRESS).every((s) => !s.destroyed)).toBe(true);
    expect((JSON.parse(list.text) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    for (const s of stalled) s.destroy();
  });

  it(`bodies being received are bounded in the process: past ${MCP_READING}, a 503 (ERR_MCP_BODIES_BUSY); once they go, requests are answered`, async () => {
    const addresses = MCP_READING / MCP_READING_PER_ADDRESS;
    const slow: net.Socket[] = [];
    const opened: Promise<void>[] = [];
    for (let a = 0; a < addresses; a++) {
      for (let k = 0; k < MCP_READING_PER_ADDRESS; k++) {
        opened.push(
          new Promise<void>((resolve) => {
            const socket = net.connect({ port: portOf(server), host: '127.0.0.1', localAddress: `127.0.10.${a + 1}` }, () => {
              socket.write('POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
              resolve();
            });
            socket.on('error', () => undefined);
            slow.push(socket);
          }),
        );
      }
    }
    await Promise.all(opened);
    // Once every head has reached the server, the next MCP request is refused.
    let busy = await post(server, search(1));
    for (let k = 0; k < 100 && busy.status !== 503; k++) busy = await post(server, search(1));
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.headers.get('x-content-type-options')).toBe('nosniff');
    expect(JSON.parse(busy.text)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32002,
        message: `server busy: at most ${MCP_READING} MCP request bodies being received at a time; retry after 1 s`,
        data: { code: 'ERR_MCP_BODIES_BUSY', retry_after: 1 },
      },
    });
    const closing = slow.map((s) => new Promise((resolve) => s.once('close', resolve)));
    for (const s of slow) s.destroy();
    await Promise.all(closing);
    // Their places are given back once their clients leave.
    let ok = await post(server, search(1));
    for (let k = 0; k < 100 && ok.status !== 200; k++) ok = await post(server, search(1));
    expect(ok.status).toBe(200);
  }, 60_000);
});
