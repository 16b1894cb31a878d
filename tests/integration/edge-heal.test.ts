// `npm run edge` routing around trouble and healing itself, against real nginx, real instances and
// a real redis-server: no request lost when an instance is killed under load; a frozen instance
// (SIGSTOP) left out of rotation; every instance killed and started again, state.json naming them.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDGE_UPSTREAM_TIMEOUT_S } from '../../src/emit/nginx-edge.ts';
import type { RouteFamily } from '../../src/routes/paths.ts';
import { DYNAMIC_FAMILIES, FAST_UPSTREAM_TIMEOUT_MS } from '../../src/routes/routes.ts';
import { removeTemp, tempDir } from '../helpers/browser.ts';
import { readDataFiles } from '../helpers/data-files.ts';
import { type RunningEdge, startEdge } from '../helpers/edge.ts';
import { get, type Reply } from '../helpers/load.ts';
import { familySamples, MCP_CALL } from '../helpers/route-samples.ts';
import { testDataDir, testOutDir } from '../helpers/server.ts';

const data = readDataFiles(testDataDir());
const game = data.games.find((g) => g.provider === data.providers[0]!.provider)!;
const SAMPLES = familySamples({
  slug: game.canonical_slug,
  provider: game.provider,
  version: data.meta.data_version,
  asset: `/_astro/${readdirSync(path.join(testOutDir(), 'client/_astro')).sort()[0]!}`,
});
const DYNAMIC = (Object.keys(SAMPLES) as RouteFamily[]).filter((f) => DYNAMIC_FAMILIES.has(f));
const QUERIES = ['?limit=20', '?q=book&limit=10', `?provider=${game.provider}`, '?sort=rtp_desc&limit=50', '?has_variants=1&limit=5', '?q=gold&sort=name'];

describe('npm run edge: routing around trouble, healing itself', () => {
  let dir: string;
  let edge: RunningEdge;
  /** The instance `was` (its pid and port) logged as exited, then started again on its port. */
  const restarted = (was: { pid: number; port: number }, timeoutMs = 30_000) =>
    edge.waitFor(
      new RegExp(`\\(pid ${was.pid}\\) exited \\(SIGKILL\\); restarting it in \\d+ ms[^]*restarted \\(pid \\d+\\) on port ${was.port}\\b`),
      timeoutMs,
    );

  beforeAll(async () => {
    dir = await tempDir('rtp-edge-heal-');
    edge = await startEdge(dir, 2, { RATE_LIMIT: '0' });
  });

  afterAll(async () => {
    if (edge !== undefined) {
      // Nothing may stay frozen or running, whatever a test left.
      for (const pid of edge.running()) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Exited meanwhile.
        }
      }
      expect(await edge.stop()).toBe(0);
      expect(edge.running()).toEqual([]);
    }
    await removeTemp(dir);
  });

  it('loses no request when one of two instances is killed (SIGKILL) under list load at 10 connections, and starts it again', async () => {
    for (const q of QUERIES) expect((await get(`${edge.url}/api/rtp/list${q}`)).status, q).toBe(200);
    const victim = edge.state.instances[0]!;
    let responses = 0;
    let killedAt = -1;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const run = autocannon(
        { url: edge.url, connections: 10, amount: 6000, timeout: 10, requests: QUERIES.map((q) => ({ method: 'GET', path: `/api/rtp/list${q}` })) },
        (err, res) => (err ? reject(err) : resolve(res)),
      );
      run.on('response', () => {
        // A third of the way in, with every connection busy: the instance dies mid-flight.
        if (++responses === 2000) {
          killedAt = responses;
          process.kill(victim.pid, 'SIGKILL');
        }
      });
    });
    await edge.waitFor(new RegExp(`\\(pid ${victim.pid}\\) exited \\(SIGKILL\\); restarting it in \\d+ ms`));
    const detail = `${result['2xx']} answers, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts; killed after ${killedAt}`;
    expect(killedAt, detail).toBe(2000);
    expect(result.errors, detail).toBe(0);
    expect(result.timeouts, detail).toBe(0);
    expect(result.non2xx, detail).toBe(0);
    expect(result['2xx'], detail).toBe(6000);
    // Started again on its port; state.json names the new process.
    await restarted(victim);
    const now = edge.state.instances.find((i) => i.port === victim.port)!;
    expect(now.pid).not.toBe(victim.pid);
    expect(edge.running()).toContain(now.pid);
  });

  it('leaves a frozen instance (SIGSTOP) out of rotation: at 20 list requests/s for 6 s, at most 1% fail or wait past the short timeout', async () => {
    const victim = edge.state.instances[0]!;
    const replies: Reply[] = [];
    const RATE = 20;
    const TOTAL = 6 * RATE;
    const FREEZE_AT = RATE;
    let frozen = false;
    try {
      await new Promise<void>((resolve) => {
        let sent = 0;
        let answered = 0;
        // Paced by the clock: the load is a rate, and no verdict waits on this timer.
        const timer = setInterval(() => {
          if (sent === FREEZE_AT) {
            process.kill(victim.pid, 'SIGSTOP');
            frozen = true;
          }
          const q = QUERIES[sent % QUERIES.length]!;
          void get(`${edge.url}/api/rtp/list${q}`).then((r) => {
            replies.push(r);
            if (++answered === TOTAL) resolve();
          });
          if (++sent === TOTAL) clearInterval(timer);
        }, 1000 / RATE);
      });
    } finally {
      if (frozen) process.kill(victim.pid, 'SIGCONT');
    }
    // Given up on after the list route's short upstream timeout (1 s), not the edge's default (30 s):
    // a wide margin on both sides, so a busy machine does not turn a retried request into a failure.
    const SLOW_MS = (EDGE_UPSTREAM_TIMEOUT_S * 1000) / 3;
    expect(SLOW_MS).toBeGreaterThanOrEqual(5 * FAST_UPSTREAM_TIMEOUT_MS);
    const bad = replies.filter((r) => r.status !== 200 || r.ms > SLOW_MS);
    const detail = `${bad.length} of ${replies.length} failed or slow: ${bad.map((r) => `${r.status} in ${Math.round(r.ms)} ms`).join(', ')}`;
    expect(replies).toHaveLength(TOTAL);
    expect(bad.length, detail).toBeLessThanOrEqual(Math.floor(TOTAL / 100));
    // The frozen instance was asked and given up on (nginx's failure log, its path without the query string).
    expect(edge.output()).toMatch(new RegExp(`edge: GET /api/rtp/list answered 200 \\(instances: 127\\.0\\.0\\.1:${victim.port}, \\S+ answered 504, 200`));
    // Thawed, it answers again: never restarted, it was only frozen.
    expect(edge.state.instances.find((i) => i.port === victim.port)!.pid).toBe(victim.pid);
    expect((await get(`http://127.0.0.1:${victim.port}/api/rtp/list?limit=1`)).status).toBe(200);
  });

  it('starts every killed instance again: every dynamic route answers 200 within 15 s, state.json names the new processes', async () => {
    const before = edge.state.instances;
    const killed = performance.now();
    for (const i of before) process.kill(i.pid, 'SIGKILL');
    // Each restart logged, within 15 s of the kill.
    for (const i of before) await restarted(i, Math.max(1, 15_000 - (performance.now() - killed)));
    for (const family of DYNAMIC) {
      for (const url of SAMPLES[family]) {
        const res = await fetch(edge.url + url, family === 'mcp' ? MCP_CALL : {});
        await res.arrayBuffer();
        expect(res.status, url).toBe(200);
      }
    }
    expect(performance.now() - killed).toBeLessThan(15_000);
    const after = edge.state.instances;
    expect(after.map((i) => i.port)).toEqual(before.map((i) => i.port));
    for (const [k, i] of after.entries()) {
      expect(i.pid, String(i.port)).not.toBe(before[k]!.pid);
      expect(edge.running(), String(i.port)).toContain(i.pid);
    }
    expect(edge.running()).not.toContain(before[0]!.pid);
  });
});
