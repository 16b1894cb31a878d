// Preview cards as a hostile client uses them, against the real server: 300 distinct cards at
// concurrency 8 from rotating client addresses (each drawn once, renders bounded), RSS under
// 300 MB, a normal list request meanwhile answered; the same 300 again, and again after a restart
// over the same CARD_CACHE_DIR, at most 3 ms of server CPU each (docs/security.md, Preview cards).
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/routes/paths.ts';
import { agents, get } from '../helpers/load.ts';
import { cpuMs, type Server, startServer, testOutDir } from '../helpers/server.ts';

const CARDS = 300;
const CONCURRENCY = 8;
/** The first `n` slugs of the build, by their slot files. */
function slugs(n: number): string[] {
  const dir = path.join(testOutDir(), 'client', 'api', 'rtp');
  return readdirSync(dir)
    .filter((f) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(f) && statSync(path.join(dir, f)).isFile())
    .slice(0, n);
}

/** Fetches every card, `CONCURRENCY` at a time, each from the next of 40 client addresses; resolves the count of each status and the highest RSS seen. */
async function fetchCards(server: Server, cards: readonly string[]): Promise<{ statuses: Map<number, number>; maxRssKiB: number; bytes: Map<string, string> }> {
  const pool = agents(40, 20);
  const statuses = new Map<number, number>();
  const bytes = new Map<string, string>();
  let maxRssKiB = 0;
  let next = 0;
  const worker = async () => {
    while (next < cards.length) {
      const k = next++;
      const r = await get(server.url + paths.ogImage(cards[k]!), { agent: pool[k % pool.length] });
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      bytes.set(cards[k]!, r.headers.etag ?? '');
      maxRssKiB = Math.max(maxRssKiB, server.rssKiB());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  for (const a of pool) a.destroy();
  return { statuses, maxRssKiB, bytes };
}

describe(`${CARDS} distinct preview cards at concurrency ${CONCURRENCY}`, () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'rtp-cards-'));
  let server: Server;
  const cards = slugs(CARDS);
  let first: Map<string, string>;
  beforeAll(async () => {
    server = await startServer({ env: { CARD_CACHE_DIR: cacheDir, RATE_LIMIT: '1000000' } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('each drawn once: all 200, RSS under 300 MB, a list request meanwhile answered', async () => {
    expect(cards).toHaveLength(CARDS);
    let drawing = true;
    const latencies: number[] = [];
    const listStatuses = new Set<number>();
    const lists = (async () => {
      while (drawing) {
        const r = await get(`${server.url}/api/rtp/list?limit=20`, { localAddress: '127.0.0.2' });
        listStatuses.add(r.status);
        latencies.push(r.ms);
      }
    })();
    const cpuBefore = cpuMs(server.pid);
    const pass = await fetchCards(server, cards);
    const cpuEach = (cpuMs(server.pid) - cpuBefore) / CARDS;
    drawing = false;
    await lists;
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]!;
    console.log(
      `cards, first pass: ${cpuEach.toFixed(1)} ms of server CPU each (the list requests included), peak RSS ${(pass.maxRssKiB / 1024).toFixed(0)} MiB; ${latencies.length} list requests meanwhile, p50 ${latencies[latencies.length >> 1]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    );
    expect(pass.statuses).toEqual(new Map([[200, CARDS]]));
    expect([...listStatuses]).toEqual([200]);
    expect(pass.maxRssKiB).toBeLessThan(300 * 1024);
    // A wide margin: the figure the bound is written for (250 ms) is reported above.
    expect(p99).toBeLessThan(2000);
    expect(readdirSync(readdirSync(cacheDir).map((d) => path.join(cacheDir, d))[0]!)).toHaveLength(CARDS);
    first = pass.bytes;
  }, 240_000);

  it('the same cards again: at most 3 ms of server CPU each, same ETags', async () => {
    const before = cpuMs(server.pid);
    const pass = await fetchCards(server, cards);
    const each = (cpuMs(server.pid) - before) / CARDS;
    console.log(`cards, second pass: ${each.toFixed(2)} ms of server CPU each`);
    expect(pass.statuses).toEqual(new Map([[200, CARDS]]));
    expect(pass.bytes).toEqual(first);
    expect(each).toBeLessThanOrEqual(3);
  }, 120_000);

  it('after a restart over the same CARD_CACHE_DIR: read from disk, at most 3 ms of server CPU each', async () => {
    await server.stop();
    server = await startServer({ env: { CARD_CACHE_DIR: cacheDir, RATE_LIMIT: '1000000' } });
    const before = cpuMs(server.pid);
    const pass = await fetchCards(server, cards);
    const each = (cpuMs(server.pid) - before) / CARDS;
    console.log(`cards, after a restart: ${each.toFixed(2)} ms of server CPU each`);
    expect(pass.statuses).toEqual(new Map([[200, CARDS]]));
    expect(pass.bytes).toEqual(first);
    expect(each).toBeLessThanOrEqual(3);
  }, 120_000);
});

describe('a CARD_CACHE_DIR that cannot be written', () => {
  let server: Server;
  beforeAll(async () => {
    // A folder under a plain file can never be made, whoever runs the test (root included).
    server = await startServer({ env: { CARD_CACHE_DIR: path.join(testOutDir(), 'server', 'build-info.json', 'cards') } });
  });
  afterAll(async () => server?.stop());

  it('cards are still drawn and answered, kept in memory, and the reason logged once', async () => {
    const r = await get(server.url + paths.ogImage('book-of-dead'));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('image/png');
    await server.waitForOutput((out) => out.includes('preview cards: not kept on disk'));
    expect(server.output()).toContain('ENOTDIR');
  });
});
