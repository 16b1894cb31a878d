// Hostile searches against the real server: the sequence that once filled the heap (a run of one
// letter, 161-200 long, each length twice, sorted by relevance) leaves the server up, every answer
// quick and memory bounded, because the search's own work is bounded (docs/security.md, Search work).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from '../helpers/load.ts';
import { cpuMs, type Server, startServer } from '../helpers/server.ts';

describe('bounded search work', () => {
  let server: Server;
  beforeAll(async () => {
    // A budget no client reaches: every request gets past the limiter to the search.
    server = await startServer({ env: { RATE_LIMIT: '1000000' } });
  });
  afterAll(async () => server?.stop());

  it('240 runs of one letter from one address: every answer 200 for under 1 s of server CPU, the server up, RSS under 300 MB', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const slowest: number[] = [];
    const statuses = new Map<number, number>();
    for (const letter of ['a', 'e', 'o']) {
      for (let pass = 0; pass < 2; pass++) {
        for (let n = 161; n <= 200; n++) {
          const before = cpuMs(server.pid);
          const r = await get(`${server.url}/api/rtp/list?q=${letter.repeat(n)}&sort=relevance&limit=1`, { agent });
          slowest.push(cpuMs(server.pid) - before);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      }
    }
    agent.destroy();
    expect(Object.fromEntries(statuses)).toEqual({ 200: 240 });
    // One second of the server's CPU (/proc, not the wall clock, so another busy process does not
    // count) is two orders of magnitude above what such a query costs: a bound on the work.
    expect(Math.max(...slowest)).toBeLessThan(1000);
    expect(server.rssKiB()).toBeLessThan(300 * 1024);
    expect(server.output()).not.toContain('FATAL');
    const normal = await get(`${server.url}/api/rtp/list?q=book%20of%20dead&limit=1`);
    expect(normal.status).toBe(200);
    expect(JSON.parse(normal.body).items[0].canonical_slug).toBe('book-of-dead');
  }, 180_000);

  it('the forgiving search still forgives typos and run-together names', async () => {
    for (const [q, slug] of [
      ['bookofdead', 'book-of-dead'],
      ['starbrust', 'starburst'],
    ] as const) {
      const r = await get(`${server.url}/api/rtp/list?q=${q}&sort=relevance&limit=3`);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).items.map((i: { canonical_slug: string }) => i.canonical_slug)).toContain(slug);
    }
  });
});
