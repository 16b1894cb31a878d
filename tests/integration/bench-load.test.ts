// The bench's load generator: loopback only, and each connection standing for its own client (X-Forwarded-For).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESSES, runLoad } from '../../scripts/bench/load.ts';

let server: http.Server;
let base: string;
/** Client addresses seen per path (each case its own path: a late request of one run does not count for the next). */
const seen = new Map<string, Set<string>>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (!seen.has(url)) seen.set(url, new Set());
    seen.get(url)!.add(String(req.headers['x-forwarded-for']));
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('runLoad', () => {
  it.each([
    ['a path per request', '/next', {}],
    ['one fixed path', '/fixed', { fixedPath: '/fixed' }],
  ])('sends each connection with the next client address in X-Forwarded-For (%s)', async (_, path, fixed) => {
    const run = await runLoad({ baseUrl: base, connections: 4, durationS: 0.3, next: () => path, ...fixed });
    expect(run.requests).toBeGreaterThan(0);
    expect(run.non2xx + run.errors).toBe(0);
    const addresses = seen.get(path) ?? new Set();
    expect(addresses.size).toBe(4);
    for (const address of addresses) expect(CLIENT_ADDRESSES).toContain(address);
  });

  it('refuses anything but loopback', async () => {
    await expect(runLoad({ baseUrl: 'http://192.0.2.1:80', connections: 1, durationS: 0.1, next: () => '/' })).rejects.toThrow(/loopback only/);
  });
});
