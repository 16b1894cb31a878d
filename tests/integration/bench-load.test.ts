// The bench's load generator: loopback only, and each connection from its own client address.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESSES, runLoad } from '../../scripts/bench/load.ts';

let server: http.Server;
let base: string;
const seen = new Set<string>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.add(req.socket.remoteAddress ?? '');
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('runLoad', () => {
  it('connects each connection from the next client address', async () => {
    const run = await runLoad({ baseUrl: base, connections: 4, durationS: 0.3, next: () => '/x' });
    expect(run.requests).toBeGreaterThan(0);
    expect(run.non2xx + run.errors).toBe(0);
    expect(seen.size).toBe(4);
    for (const address of seen) expect(CLIENT_ADDRESSES).toContain(address);
  });

  it('refuses anything but loopback', async () => {
    await expect(runLoad({ baseUrl: 'http://192.0.2.1:80', connections: 1, durationS: 0.1, next: () => '/' })).rejects.toThrow(/loopback only/);
  });
});
