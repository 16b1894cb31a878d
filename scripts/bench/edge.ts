// `npm run bench:edge`: what one request costs each part of the edge (src/edge/edge.ts) on this
// machine, for the capacity plan in docs/production.md. Starts the edge over the build in
// RTP_OUT_DIR (default dist/) with one instance on the Redis store (counting every list request),
// then runs, through nginx, the benchmark's list mix and a cycle of slug JSON files (nginx alone),
// each also straight to the instance, and prints per scenario: req/s, CPU µs per request of the
// instance, nginx and redis-server, and Redis commands per request (INFO commandstats). Loopback
// only; 10 connections; EDGE_BENCH_SECONDS (default 5) per scenario after a second of warm-up.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@redis/client';
import { startEdge } from '../../src/edge/edge.ts';
import { DEFAULT_REDIS_PREFIX, WINDOW_SCRIPT } from '../../src/server/rate-limit-redis.ts';
import { requireTool } from '../lib/system-tools.ts';
import { serveFlags } from '../node.mjs';
import { bundleRecords } from './build.ts';
import { BENCH_RATE_LIMIT } from './list.ts';
import { pathSource, runLoad } from './load.ts';
import { cpuMicros } from './procs.ts';
import { listPath, queryMix, vocabularyOf } from './query-mix.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DURATION_S = Number(process.env.EDGE_BENCH_SECONDS || 5);
const outDir = path.resolve(process.env.RTP_OUT_DIR || 'dist');

/** The processes whose parent is `pid` (nginx's workers), by procps' pgrep. */
const children = (pid: number): number[] =>
  execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8', timeout: 5000 })
    .split('\n')
    .filter(Boolean)
    .map(Number);

const cpu = (pids: readonly number[]) => pids.reduce((sum, pid) => sum + (cpuMicros(pid) ?? 0), 0);

const records = bundleRecords(outDir);
const mix = queryMix(vocabularyOf(records), 3000, 20261121).map(listPath);
const slugs = records.filter((_, k) => k % 7 === 0).map((r) => `/api/rtp/${r.canonical_slug}`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'rtp-bench-edge-'));
const log = createWriteStream(path.join(dir, 'output.log'));
const edge = await startEdge({
  outDir,
  stateDir: path.join(dir, 'edge'),
  host: '127.0.0.1',
  port: 0,
  instances: 1,
  // As deployed: the access log on (to a file here), every list request counted (a budget no run reaches).
  env: { ...process.env, RATE_LIMIT: BENCH_RATE_LIMIT, ACCESS_LOG: path.join(dir, 'access.log') },
  programs: { nginx: requireTool('nginx'), redisServer: requireTool('redis-server'), node: process.execPath },
  nodeArgs: serveFlags(ROOT),
  log: (line) => console.error(line),
  output: log,
  releasePollMs: 0,
});
const redis = createClient({ url: `redis://127.0.0.1:${edge.state.redis.port}` });
await redis.connect();
/** Commands Redis has run so far, by name (a script's own commands are counted beside EVALSHA). */
const commands = async () => new Map([...(await redis.info('commandstats')).matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]));
const delta = (after: Map<string, number>, before: Map<string, number>, requests: number) =>
  [...after]
    .map(([name, n]) => [name, n - (before.get(name) ?? 0) - (name === 'info' ? 1 : 0)] as const)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${(n / requests).toFixed(2)}`)
    .join(', ') || 'none';

try {
  const { nginx, redis: redisPart, instances } = edge.state;
  const workers = children(nginx.pid);
  console.log(`edge: ${records.length} games, nginx ${workers.length} worker(s), 1 instance, ${DURATION_S} s per scenario, 10 connections`);
  console.log('| scenario | req/s | instance CPU µs/req | nginx CPU µs/req | redis-server CPU µs/req | Redis commands per request | failures |');
  console.log('|---|---|---|---|---|---|---|');
  const direct = `http://127.0.0.1:${instances[0]!.port}`;
  const scenarios = [
    ['list mix (3,000 distinct queries), counted, through nginx', edge.url, mix],
    ['the same, straight to the instance', direct, mix],
    ['slug JSON files, through nginx (nginx alone)', edge.url, slugs],
    ['the same, straight to the instance (counted)', direct, slugs],
  ] as const;
  for (const [name, base, paths] of scenarios) {
    const next = pathSource({ kind: 'cycle', paths });
    // A warm-up of a second, then the measured run.
    await runLoad({ baseUrl: base, connections: 10, durationS: 1, next });
    const before = { instance: cpu(instances.map((x) => x.pid)), nginx: cpu(workers), redis: cpu([redisPart.pid]), commands: await commands() };
    const run = await runLoad({ baseUrl: base, connections: 10, durationS: DURATION_S, next });
    const after = { instance: cpu(instances.map((x) => x.pid)), nginx: cpu(workers), redis: cpu([redisPart.pid]), commands: await commands() };
    const per = (a: number, b: number) => ((a - b) / run.requests).toFixed(1);
    console.log(
      `| ${name} | ${Math.round(run.reqPerSec)} | ${per(after.instance, before.instance)} | ${per(after.nginx, before.nginx)} | ${per(after.redis, before.redis)} | ${delta(after.commands, before.commands, run.requests)} | ${run.non2xx + run.errors + run.timeouts === 0 ? 0 : `${run.non2xx + run.errors + run.timeouts}: ${JSON.stringify({ statuses: run.statusCodes, errors: run.errors, timeouts: run.timeouts })}`} |`,
    );
  }
  // Redis memory per client: the limiter's key of each of CLIENTS IPv4 clients, set by its own script.
  const CLIENTS = 100_000;
  const memory = async () => Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))![1]);
  const empty = await memory();
  for (let k = 0; k < CLIENTS; k += 1000) {
    await Promise.all(
      Array.from({ length: 1000 }, (_, j) =>
        redis.sendCommand(['EVAL', WINDOW_SCRIPT, '1', `${DEFAULT_REDIS_PREFIX}10.${(k + j) >> 16}.${((k + j) >> 8) & 255}.${(k + j) & 255}`, '86400000']),
      ),
    );
  }
  console.log(`\nRedis memory per client key (${CLIENTS.toLocaleString('en')} IPv4 clients, one window each): ${((await memory()) - empty) / CLIENTS} bytes`);
} finally {
  await redis.quit();
  await edge.stop();
  log.end();
  // nginx's and the instance's own lines (errors, warnings), for a run that had failures.
  const lines = readFileSync(path.join(dir, 'output.log'), 'utf8')
    .split('\n')
    .filter((l) => /\[(error|warn|crit)\]|WARNING|error/i.test(l));
  for (const line of lines.slice(-20)) console.error(line);
  rmSync(dir, { recursive: true, force: true });
}
