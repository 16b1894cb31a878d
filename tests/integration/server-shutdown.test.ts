// Graceful shutdown: on SIGTERM the server stops accepting, finishes the responses in flight,
// half-closes keep-alive connections once they have nothing left to send, and exits 0.
import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { startServer } from '../helpers/server.ts';

function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('graceful shutdown', () => {
  it('finishes a response in flight, then closes and exits 0', async () => {
    // The client reads only after the signal: its connection may hold all of its answers unsent.
    const server = await startServer({ env: { RATE_LIMIT: '1000000', MAX_UNSENT_KB_PER_CONNECTION: '65536' } });
    const socket = await connect(server.url);
    // Many large pipelined responses while the client does not read: the server is mid-write.
    const requests = Array.from({ length: 100 }, (_, i) => `GET /api/rtp/list?limit=200&offset=${i % 3} HTTP/1.1\r\nHost: x\r\n\r\n`).join('');
    const chunks: Buffer[] = [];
    // Paused-mode reading: 'readable' says the server has started answering, without consuming anything.
    const answering = new Promise<void>((r) => socket.once('readable', () => r()));
    socket.write(requests);
    await answering;
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    server.child.kill('SIGTERM');
    await vi.waitFor(() => expect(server.output()).toContain('SIGTERM: no new connections'), { timeout: 30_000, interval: 10 });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.resume();
    await closed;
    const text = Buffer.concat(chunks).toString('utf8');
    const responses = text.split('HTTP/1.1 ').slice(1);
    expect(responses.length).toBeGreaterThan(0);
    // Every response that started was completed: its body is the full JSON document.
    for (const response of responses) {
      expect(response.startsWith('200 OK')).toBe(true);
      const length = Number(/content-length: (\d+)/i.exec(response)![1]);
      const body = response.slice(response.indexOf('\r\n\r\n') + 4);
      expect(Buffer.byteLength(body)).toBe(length);
      const page = JSON.parse(body);
      expect(page.items).toHaveLength(Math.min(200, page.meta.filtered - page.meta.query.offset));
    }
    expect(await server.stop()).toBe(0);
    const inFlight = Number(/finishing (\d+) request\(s\) in flight/.exec(server.output())![1]);
    // Every request the server had received when the signal came was answered in full.
    expect(inFlight).toBeGreaterThan(0);
    expect(responses.length).toBeGreaterThanOrEqual(inFlight);
  });

  it('closes idle keep-alive connections and exits 0', async () => {
    const server = await startServer();
    const socket = await connect(server.url);
    socket.write('GET /api/rtp/history HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((r) => socket.once('data', () => r()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    server.child.kill('SIGTERM');
    await closed;
    expect(await server.stop()).toBe(0);
    // The access log is written asynchronously: its line for the request may land in between.
    expect(server.output()).toMatch(/finishing 0 request\(s\) in flight\n(?:\{"type":"access"[^\n]*\n)*stopped/);
  });

  it('refuses new connections once shutting down', async () => {
    const server = await startServer();
    server.child.kill('SIGTERM');
    expect(await server.stop()).toBe(0);
    await expect(fetch(`${server.url}/api/rtp/list`)).rejects.toThrow();
  });
});
