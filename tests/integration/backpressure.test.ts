// Unsent answer bytes (src/server/backpressure.ts): counted per connection and in all from the
// moment a response writes what the kernel does not take until Node has handed it over or the
// connection closed, and the verdict on a request arriving: serve, wait, close its connection, or shed it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countedResponse, MAX_WAITING_PER_CONNECTION, UnsentLedger } from '../../src/server/backpressure.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

describe('UnsentLedger', () => {
  it('gives a verdict from the bounds, and every hold back once', () => {
    const ledger = new UnsentLedger({ connectionBytes: 100, processBytes: 150 });
    const a = new net.Socket();
    const b = new net.Socket();
    const giveA = ledger.hold(a, 80);
    expect(ledger.admit(a)).toBe('serve');
    const giveA2 = ledger.hold(a, 30);
    expect(ledger.of(a)).toBe(110);
    expect(ledger.admit(a)).toBe('wait');
    expect(ledger.admit(a, true)).toBe('serve');
    expect(ledger.admit(b)).toBe('serve');
    ledger.hold(b, 50);
    expect(ledger.bytes).toBe(160);
    expect(ledger.admit(b)).toBe('shed');
    giveA2();
    giveA2();
    expect(ledger.bytes).toBe(130);
    giveA();
    expect(ledger.of(a)).toBe(0);
    expect(ledger.admit(b)).toBe('serve');
    a.destroy();
    expect(ledger.admit(a)).toBe('close');
  });

  it('runs the requests waiting on a connection, in order, once it is back within its bound; a full line is refused', async () => {
    const ledger = new UnsentLedger({ connectionBytes: 100, processBytes: 1e9 });
    const a = new net.Socket();
    const give = ledger.hold(a, 150);
    const ran: number[] = [];
    for (let k = 0; k < MAX_WAITING_PER_CONNECTION; k++) {
      expect(ledger.admit(a)).toBe('wait');
      expect(ledger.wait(a, () => ran.push(k))).toBe(true);
    }
    expect(ledger.wait(a, () => ran.push(-1))).toBe(false);
    expect(ran).toEqual([]);
    give();
    await vi.waitFor(() => expect(ran).toHaveLength(MAX_WAITING_PER_CONNECTION));
    expect(ran).toEqual(Array.from({ length: MAX_WAITING_PER_CONNECTION }, (_, k) => k));
  });

  it('keeps a connection paused while its requests wait, even when something else resumed it, and resumes it once they ran', async () => {
    const ledger = new UnsentLedger({ connectionBytes: 100, processBytes: 1e9 });
    const a = new net.Socket();
    const give = ledger.hold(a, 150);
    const ran: number[] = [];
    expect(ledger.wait(a, () => ran.push(0))).toBe(true);
    expect(a.isPaused()).toBe(true);
    // Node resumes a socket on 'drain' by itself; the next request that waits pauses it again.
    a.resume();
    expect(ledger.wait(a, () => ran.push(1))).toBe(true);
    expect(a.isPaused()).toBe(true);
    give();
    await vi.waitFor(() => expect(ran).toEqual([0, 1]));
    expect(a.isPaused()).toBe(false);
  });

  it('a closed connection gives back all it held', () => {
    const ledger = new UnsentLedger({ connectionBytes: 100, processBytes: 150 });
    const a = new net.Socket();
    const give = ledger.hold(a, 90);
    a.emit('close');
    expect(ledger.bytes).toBe(0);
    give();
    expect(ledger.bytes).toBe(0);
    ledger.hold(a, 10);
    expect(ledger.bytes).toBe(0);
  });
});

describe('countedResponse', () => {
  it('counts the answers a client leaves unread, and nothing once they are read', async () => {
    const ledger = new UnsentLedger({ connectionBytes: 1e12, processBytes: 1e12 });
    const body = Buffer.alloc(200_000, 0x61);
    let handled = 0;
    const server = http.createServer({ ServerResponse: countedResponse(ledger) }, (_req, res) => {
      handled++;
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const socket = net.connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' });
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100));
    await vi.waitFor(() => expect(handled).toBe(100));
    // 20 MB of answers: more than the kernel takes from an unread connection.
    await vi.waitFor(() => expect(ledger.bytes).toBeGreaterThan(5_000_000));
    let read = 0;
    socket.on('data', (c: Buffer) => (read += c.length));
    socket.resume();
    await vi.waitFor(() => expect(read).toBeGreaterThanOrEqual(100 * body.length));
    await vi.waitFor(() => expect(ledger.bytes).toBe(0));
    socket.destroy();
  });

  it('gives back what a connection held when its client leaves', async () => {
    const ledger = new UnsentLedger({ connectionBytes: 1e12, processBytes: 1e12 });
    const body = Buffer.alloc(200_000, 0x61);
    const server = http.createServer({ ServerResponse: countedResponse(ledger) }, (_req, res) => res.end(body));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const socket = net.connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' });
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(100));
    await vi.waitFor(() => expect(ledger.bytes).toBeGreaterThan(5_000_000));
    socket.destroy();
    await vi.waitFor(() => expect(ledger.bytes).toBe(0));
  });

  it('a client that pipelines and reads gets every answer: past the bound its requests wait, then run', async () => {
    const ledger = new UnsentLedger({ connectionBytes: 1024 * 1024, processBytes: 1e12 });
    const body = Buffer.alloc(200_000, 0x61);
    let closed = 0;
    const handle = (req: http.IncomingMessage, res: http.ServerResponse, resumed = false): void => {
      if (ledger.admit(req.socket, resumed) === 'wait') {
        if (!ledger.wait(req.socket, () => handle(req, res, true))) {
          closed++;
          req.socket.destroy();
        }
        return;
      }
      res.end(body);
    };
    const server = http.createServer({ ServerResponse: countedResponse(ledger) }, (req, res) => handle(req, res));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const socket = net.connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1' });
    let read = 0;
    socket.on('data', (c: Buffer) => (read += c.length));
    // Ten answers of 200 KB asked for in one write: 2 MB in one tick of the server.
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(10));
    await vi.waitFor(() => expect(read).toBeGreaterThanOrEqual(10 * body.length));
    expect(closed).toBe(0);
    socket.destroy();
  });
});
