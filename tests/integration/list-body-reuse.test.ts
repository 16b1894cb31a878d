// List answers are written into reused buffers (src/lib/body-pool.ts): many distinct answers in
// flight at once, clients that leave mid-answer, HEAD and 304 answers must never let one answer's
// bytes reach another's client.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListResponseSchema } from '../../src/schemas/list.ts';
import { type Server, startServer } from '../helpers/server.ts';

let server: Server;
let agent: http.Agent;
beforeAll(async () => {
  // Caches off: every answer is written afresh into a pooled buffer.
  server = await startServer({ env: { RATE_LIMIT: '0', LIST_CACHE_MB: '0', MAX_CONNECTIONS_PER_ADDRESS: '1000' } });
  agent = new http.Agent({ keepAlive: true, maxSockets: 48 });
});
afterAll(async () => {
  agent.destroy();
  expect(await server.stop()).toBe(0);
});

interface Answer {
  status: number;
  etag: string | undefined;
  body: Buffer;
}

function get(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { agent, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Starts a GET and closes its connection as soon as the first bytes of the answer arrive. */
function leaveEarly(path: string): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${server.url}${path}`, { agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
      res.once('end', () => resolve());
    });
    req.on('error', () => resolve());
    req.end();
  });
}

/**
 * Sends `paths` pipelined on one connection and reads nothing until `resume` settles, so the
 * server's writes of these answers wait on the socket meanwhile; then reads every answer's body.
 */
function stalledReader(paths: string[], resume: Promise<unknown>): Promise<Buffer[]> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: test\r\n\r\n`).join(''));
    });
    socket.on('error', reject);
    void resume.then(() => {
      let pending = Buffer.alloc(0);
      const bodies: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => {
        pending = Buffer.concat([pending, chunk]);
        for (;;) {
          const end = pending.indexOf('\r\n\r\n');
          if (end < 0) return;
          const length = Number(/content-length: *(\d+)/i.exec(pending.subarray(0, end).toString('latin1'))?.[1]);
          if (pending.length < end + 4 + length) return;
          bodies.push(pending.subarray(end + 4, end + 4 + length));
          pending = pending.subarray(end + 4 + length);
          if (bodies.length === paths.length) {
            socket.destroy();
            return resolve(bodies);
          }
        }
      });
    });
  });
}

/** Distinct queries of many sizes (a few hundred bytes to some 150 KB), from the registry's own providers. */
async function queries(): Promise<string[]> {
  const first = ListResponseSchema.parse(JSON.parse((await get('/api/rtp/list?limit=1')).body.toString('utf8')));
  const out: string[] = [];
  const providers = first.facets.providers.map((p) => p.provider).slice(0, 24);
  for (const [k, provider] of providers.entries()) {
    for (const sort of ['name', 'rtp_desc', 'recent'])
      out.push(`/api/rtp/list?provider=${encodeURIComponent(provider)}&sort=${sort}&limit=${[200, 50, 20][k % 3]}`);
  }
  for (const q of ['book', 'gold', 'fruit', 'wild', 'dog', 'king', 'hot']) for (const limit of [5, 100, 200]) out.push(`/api/rtp/list?q=${q}&limit=${limit}`);
  for (const sort of ['rtp_asc', 'name'])
    for (let offset = 0; offset < 1500; offset += 50) out.push(`/api/rtp/list?sort=${sort}&limit=${offset % 100 === 0 ? 200 : 40}&offset=${offset}`);
  return out;
}

describe('reused answer buffers', () => {
  it('answers many distinct queries in flight at once with the same bytes as one at a time, while clients leave mid-answer', async () => {
    const paths = await queries();
    expect(paths.length).toBeGreaterThan(100);
    const reference = new Map<string, Buffer>();
    for (const p of paths) {
      const answer = await get(p);
      expect(answer.status, p).toBe(200);
      reference.set(p, answer.body);
    }
    const sizes = [...reference.values()].map((b) => b.length);
    expect(Math.max(...sizes)).toBeGreaterThan(64 * 1024);
    expect(sizes.filter((s) => s > 4096).length).toBeGreaterThan(50);

    // The largest answers, asked by readers that stall: their buffers stay taken while the storm runs.
    const large = [...reference.entries()]
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 12)
      .map(([p]) => p);
    let stormDone: () => void = () => undefined;
    const storm = new Promise<void>((r) => (stormDone = r));
    const stalled = [0, 1, 2].map((k) => stalledReader([...large.slice(k * 4), ...large].slice(0, 16), storm));
    for (let round = 0; round < 3; round++) {
      const order = paths.map((_p, k) => paths[(k * 7 + round * 13) % paths.length]!);
      const answers = await Promise.all(
        order.map(async (p, k) => {
          // Every fifth request's twin leaves early; its buffer must not be reused while still being written.
          if (k % 5 === 0) void leaveEarly(p);
          return [p, await get(p)] as const;
        }),
      );
      for (const [p, answer] of answers) {
        expect(answer.status, p).toBe(200);
        expect(answer.body.equals(reference.get(p)!), p).toBe(true);
      }
    }
    stormDone();
    for (const [k, reader] of stalled.entries()) {
      const asked = [...large.slice(k * 4), ...large].slice(0, 16);
      const bodies = await reader;
      for (const [j, body] of bodies.entries()) expect(body.equals(reference.get(asked[j]!)!), asked[j]).toBe(true);
    }
  });

  it('gives HEAD and 304 answers no body, and the answers after them stay whole', async () => {
    const paths = (await queries()).slice(0, 40);
    const full = await Promise.all(paths.map((p) => get(p)));
    const mixed = await Promise.all(paths.flatMap((p, k) => [get(p, { method: 'HEAD' }), get(p, { headers: { 'if-none-match': full[k]!.etag! } }), get(p)]));
    for (let k = 0; k < paths.length; k++) {
      const [head, notModified, again] = mixed.slice(k * 3, k * 3 + 3);
      expect(head!.status).toBe(200);
      expect(head!.body.length).toBe(0);
      expect(notModified!.status).toBe(304);
      expect(notModified!.body.length).toBe(0);
      expect(again!.body.equals(full[k]!.body), paths[k]).toBe(true);
    }
  });
});
