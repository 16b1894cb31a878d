// Graceful shutdown in-process: pipelined responses still being flushed are completed, idle
// keep-alive sockets are closed, new connections refused, and the done callback runs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { makeGraceful } from '../../src/server/graceful.ts';

const BIG = Buffer.alloc(512 * 1024, 'x');

async function start() {
  const server = http.createServer();
  const graceful = makeGraceful(server, (_req, res) => {
    res.writeHead(200, { 'Content-Length': String(BIG.length) });
    res.end(BIG);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, graceful, port: (server.address() as AddressInfo).port };
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

describe('makeGraceful', () => {
  it('completes every response already received, then closes the connection and calls done', async () => {
    const { graceful, port } = await start();
    const socket = await connect(port);
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(20));
    await vi.waitFor(() => expect(graceful.inFlight).toBeGreaterThan(0), { timeout: 30_000, interval: 5 });
    const done = new Promise<void>((r) => graceful.shutdown(60_000, r));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.resume();
    await closed;
    await done;
    const text = Buffer.concat(chunks).toString('latin1');
    const bodies = text
      .split('HTTP/1.1 200 OK')
      .slice(1)
      .map((r) => r.slice(r.indexOf('\r\n\r\n') + 4));
    expect(bodies).toHaveLength(20);
    for (const body of bodies) expect(body.length).toBe(BIG.length);
    expect(graceful.inFlight).toBe(0);
  });

  it('closes idle keep-alive connections and refuses new ones', async () => {
    const { server, graceful, port } = await start();
    const socket = await connect(port);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    let received = 0;
    await new Promise<void>((r) =>
      socket.on('data', (c: Buffer) => {
        received += c.length;
        if (received >= BIG.length) r();
      }),
    );
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    const done = new Promise<void>((r) => graceful.shutdown(60_000, r));
    await closed;
    await done;
    expect(server.listening).toBe(false);
    await expect(connect(port)).rejects.toThrow();
  });

  it('forces open connections closed after the timeout', async () => {
    const { graceful, port } = await start();
    const socket = await connect(port);
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(20));
    await vi.waitFor(() => expect(graceful.inFlight).toBeGreaterThan(0), { timeout: 30_000, interval: 5 });
    let forced = false;
    const done = new Promise<void>((r) =>
      graceful.shutdown(100, r, () => {
        forced = true;
      }),
    );
    await done; // the client never reads, so only the timeout can end it
    expect(forced).toBe(true);
    socket.destroy();
  });

  it('forgets the socket of an aborted response: no entry is left behind when clients leave mid-request', async () => {
    const server = http.createServer();
    const held: http.ServerResponse[] = [];
    const graceful = makeGraceful(server, (_req, res) => {
      held.push(res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const serverSockets: net.Socket[] = [];
    server.on('connection', (s: net.Socket) => serverSockets.push(s));
    for (let k = 0; k < 10; k++) {
      const socket = await connect(port);
      socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n');
      await vi.waitFor(() => expect(held.length).toBeGreaterThanOrEqual(k + 1), { timeout: 30_000, interval: 5 });
      socket.destroy();
    }
    await vi.waitFor(() => expect(serverSockets.every((s) => s.destroyed)).toBe(true), { timeout: 30_000, interval: 5 });
    // The held responses finish after their sockets closed (a slow handler answering late).
    for (const res of held) res.end('late');
    await vi.waitFor(() => expect(graceful.sockets).toBe(0), { timeout: 30_000, interval: 10 });
    await new Promise<void>((r) => server.close(() => r()));
  });
});
