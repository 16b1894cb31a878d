// Clients that never read their answers, against the real server with the flags of `npm run serve`
// (docs/security.md, Clients that do not read their answers): an unread connection stops being
// parsed, its requests wait, and all are answered once it reads; a connection past its bound with
// too many requests waiting is closed; past the process bound new requests get a 503; and through
// unread pipelines the server stays up, small and quick for everyone else.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { get } from '../helpers/load.ts';
import { type Server, startServer } from '../helpers/server.ts';
import { unreadBytes } from '../helpers/tcp-queue.ts';

const portOf = (server: Server) => Number(new URL(server.url).port);

/** The idle timeout of these servers (REQUEST_TIMEOUT_MS, at its maximum): a close well before it is a bound's doing. */
const IDLE_MS = 600_000;
/** A close sooner than this is the bound's, by a wide margin either way: seconds of work, a fifth of the idle timeout. */
const BOUND_CLOSE_MS = IDLE_MS / 5;

/** A raw connection that reads nothing until told to. */
function unread(server: Server, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: portOf(server), host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.pause();
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

const closed = (socket: net.Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

const STATUS_LINE = 'HTTP/1.1 200 OK\r\n';

/** Counts the status lines of answers read from `socket` (a line may straddle two chunks). */
function countAnswers(socket: net.Socket, onCount: (n: number) => void): void {
  let count = 0;
  let tail = '';
  socket.on('data', (chunk: Buffer) => {
    const text = tail + chunk.toString('latin1');
    count += text.split(STATUS_LINE).length - 1;
    // Kept: the start of a line cut by the chunk's end; never a whole line, which would count twice.
    tail = text.slice(-(STATUS_LINE.length - 1));
    onCount(count);
  });
  socket.resume();
}

describe('backpressure', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '1000000', REQUEST_TIMEOUT_MS: String(IDLE_MS) } });
  });
  afterAll(async () => server?.stop());

  it('an unread connection stops being parsed, and every answer comes once it reads', async () => {
    const socket = await unread(server, '127.0.3.1');
    // 12,000 requests padded to 1 KiB (12 MB); their answers (about 30 MB) fill the kernel's
    // buffers long before the last request is parsed.
    const pad = 'p'.repeat(1000);
    const total = 12_000;
    let requests = '';
    for (let k = 0; k < total; k++) requests += `GET /api/rtp/book-of-dead?n=${k} HTTP/1.1\r\nHost: x\r\nX-Pad: ${pad}\r\n\r\n`;
    socket.write(requests);
    // The server stops reading: what the client sent piles up unread in the server's receive queue
    // (the kernel's count, /proc/net/tcp), and stays there, the connection open.
    const serverEnd = { address: '127.0.0.1', port: portOf(server) };
    const clientEnd = { address: '127.0.3.1', port: socket.localPort! };
    let last = -1;
    await vi.waitFor(
      () => {
        const queued = unreadBytes(serverEnd, clientEnd);
        const still = queued === last;
        last = queued ?? -1;
        expect(queued).toBeGreaterThan(0);
        expect(still).toBe(true);
      },
      { timeout: 30_000, interval: 500 },
    );
    expect(socket.destroyed).toBe(false);
    // Reading resumes the server: all 12,000 answered, in order, on the same connection.
    const done = new Promise<number>((resolve) => countAnswers(socket, (n) => n === total && resolve(n)));
    expect(await done).toBe(total);
    expect(unreadBytes(serverEnd, clientEnd)).toBe(0);
    expect(socket.destroyed).toBe(false);
    socket.destroy();
  }, 60_000);

  it('three unread pipelines of 2,000 list requests: closed by the bound, RSS under 300 MB, others answered meanwhile', async () => {
    const sockets = await Promise.all([1, 2, 3].map((k) => unread(server, `127.0.4.${k}`)));
    for (const socket of sockets) {
      let requests = '';
      for (let k = 0; k < 2000; k++) requests += `GET /api/rtp/list?limit=200&offset=${k} HTTP/1.1\r\nHost: x\r\n\r\n`;
      // A large last request keeps the client writing: a connection the server closes ends its write.
      socket.write(requests + `GET /api/rtp/list HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(8000)}\r\n\r\n`.repeat(800));
    }
    const started = performance.now();
    const served: number[] = [];
    let peak = 0;
    const all = Promise.all(sockets.map(closed));
    let finished = false;
    void all.then(() => (finished = true));
    while (!finished) {
      const r = await get(`${server.url}/api/rtp/list?q=book&limit=5`);
      expect(r.status).toBe(200);
      served.push(r.ms);
      peak = Math.max(peak, server.rssKiB());
      await new Promise((resolve) => setTimeout(resolve, 50)); // pacing of the normal client, not a wait for an event
    }
    await all;
    // Closed by the bound on unsent bytes (1 MiB each), not by the idle timeout (a wide margin).
    expect(performance.now() - started).toBeLessThan(BOUND_CLOSE_MS);
    // Every normal request was answered (200, asserted above), however long the machine took.
    expect(served.length).toBeGreaterThan(0);
    expect(peak).toBeLessThan(300 * 1024);
    expect(server.rssKiB()).toBeLessThan(300 * 1024);
    const after = await get(`${server.url}/api/rtp/list?q=book&limit=5`);
    expect(after.status).toBe(200);
    expect(server.output()).not.toContain('FATAL');
  }, 180_000);
});

describe('the bounds on unsent bytes', () => {
  let server: Server;
  beforeAll(async () => {
    // An idle connection lives 600 s: a close within the test is the bound's doing.
    server = await startServer({
      env: { RATE_LIMIT: '1000000', REQUEST_TIMEOUT_MS: String(IDLE_MS), MAX_UNSENT_KB_PER_CONNECTION: '1024', MAX_UNSENT_MB: '1024' },
    });
  });
  afterAll(async () => server?.stop());

  it('a connection past its bound of 1 MiB with more than 256 requests waiting is closed, they go unanswered', async () => {
    const socket = await unread(server, '127.0.5.1');
    let requests = '';
    for (let k = 0; k < 2000; k++) requests += `GET /api/rtp/list?limit=200&offset=${k} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const started = performance.now();
    socket.write(requests + `GET /api/rtp/list HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(8000)}\r\n\r\n`.repeat(800));
    await closed(socket);
    expect(performance.now() - started).toBeLessThan(BOUND_CLOSE_MS);
    const r = await get(`${server.url}/api/rtp/list?limit=1`);
    expect(r.status).toBe(200);
  }, 180_000);
});

describe('the bound on unsent bytes in the process', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT: '1000000', MAX_UNSENT_KB_PER_CONNECTION: '65536', MAX_UNSENT_MB: '2' } });
  });
  afterAll(async () => server?.stop());

  it('past it new requests get a JSON 503 with Retry-After, and are served again once the answers leave', async () => {
    // Twenty connections pipeline 100 answers of 200 KB each before reading any: the first answers
    // pass the bound of 2 MiB at once, the requests after them are shed.
    const sockets = await Promise.all(Array.from({ length: 20 }, (_, k) => unread(server, `127.0.6.${k + 1}`)));
    for (const socket of sockets) {
      let requests = '';
      for (let k = 0; k < 100; k++) requests += `GET /api/rtp/list?limit=200&offset=${k} HTTP/1.1\r\nHost: x\r\n\r\n`;
      socket.write(requests);
    }
    // Each client then reads all it is owed: 100 answers, 200s then 503s.
    const read = sockets.map(
      (socket) =>
        new Promise<string>((resolve) => {
          let text = '';
          socket.on('data', (chunk: Buffer) => {
            text += chunk.toString('latin1');
            // Every answer is in once the 100th status line and its whole body are.
            const statuses = [...text.matchAll(/HTTP\/1\.1 \d{3} [^\r]*\r\n/g)];
            if (statuses.length < 100) return;
            const last = text.slice(statuses[99]!.index);
            const head = last.indexOf('\r\n\r\n');
            const length = Number(/Content-Length: (\d+)/.exec(last)?.[1] ?? Number.NaN);
            if (head >= 0 && last.length - head - 4 >= length) resolve(text);
          });
          socket.resume();
        }),
    );
    const texts = await Promise.all(read);
    const shed = texts.map((t) => t.split('HTTP/1.1 503 ').length - 1).reduce((a, b) => a + b, 0);
    const served = texts.map((t) => t.split('HTTP/1.1 200 ').length - 1).reduce((a, b) => a + b, 0);
    expect(shed).toBeGreaterThan(0);
    expect(served).toBeGreaterThan(0);
    expect(shed + served).toBe(2000);
    const one = texts.find((t) => t.includes('HTTP/1.1 503 '))!;
    const answer = one.slice(one.indexOf('HTTP/1.1 503 '));
    const head = answer.slice(0, answer.indexOf('\r\n\r\n'));
    expect(head).toContain('Retry-After: 1');
    expect(head).toContain('Content-Type: application/json; charset=utf-8');
    expect(head).toContain('X-Content-Type-Options: nosniff');
    const length = Number(/Content-Length: (\d+)/.exec(head)![1]);
    const body = answer.slice(head.length + 4, head.length + 4 + length);
    expect(JSON.parse(body)).toEqual({ statusCode: 503, statusMessage: 'server busy: too many answers wait for their clients to read them; retry after 1 s' });
    for (const socket of sockets) socket.destroy();
    // Every answer has left: new work is served.
    const r = await get(`${server.url}/api/rtp/list?limit=1`);
    expect(r.status).toBe(200);
  }, 60_000);
});
