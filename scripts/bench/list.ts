// List phase: the built registry served by the server under test and a bare node:http ceiling
// sending the same bytes, under the same load scenarios, interleaved round by round.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../../src/edge/parts.ts';
import { serveFlags } from '../node.mjs';
import { type BuildContext, bundleRecords } from './build.ts';
import { fetchRaw, type LoadRun, pathSource, runLoad, type Target } from './load.ts';
import { DEFAULT_PAGE_PATH, listPayload } from './payload.ts';
import { cpuMicros, type Running, rssMiB, startAndWait } from './procs.ts';
import { distinctStream, listPath, mostFrequentWord, queryMix, vocabularyOf } from './query-mix.ts';
import type { PhaseResult, ScenarioRow } from './results.ts';
import { pairedRatios, summarize } from './stats.ts';

/** The load test would trip the public 1,000-per-day limit at once; the bench server runs with this instead. */
export const BENCH_RATE_LIMIT = '1000000000';

/** How the ratios name a scenario (else by its title). */
const RATIO_NAMES: Record<string, string> = {
  a: 'mix',
  a0: 'mix, caches off',
  u: 'uncached',
  u0: 'uncached, caches off',
  b: 'repeated query',
  d: 'ceiling',
  "d'": 'ceiling',
  e: 'its ceiling',
};

/** The run's context (build.ts) and the server under test: the code's bundled production server (serverEntry), run with the node flags of its `serve` script. */
export type ServerContext = Pick<BuildContext, 'benchRoot' | 'codeRoot' | 'log' | 'built'> & { entry: string };

/** The server the code under test runs in production: its bundle (src/emit/server-bundle.ts), made into `work`. */
export async function serverEntry(codeRoot: string, work: string): Promise<string> {
  const bundler = path.join(codeRoot, 'src/emit/server-bundle.ts');
  const { bundleServer } = (await import(pathToFileURL(bundler).href)) as { bundleServer: (serverDir: string) => Promise<string> };
  const serverDir = path.join(work, 'server-under-test');
  // The bundle leaves a few packages external (native or path-dependent): found through the code's node_modules, as from dist/.
  mkdirSync(serverDir, { recursive: true });
  symlinkSync(path.join(codeRoot, 'node_modules'), path.join(serverDir, 'node_modules'), 'dir');
  return bundleServer(serverDir);
}

/** Starts the server under test on a built output folder; resolves when the list route answers. */
export async function startServer(ctx: ServerContext, outDir: string, lifetimeMs: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<Running> {
  const port = await freePort('127.0.0.1');
  // As behind the edge: the access log on (to stdout, discarded; errors still come through stderr), the load's
  // X-Forwarded-For trusted from 127.0.0.1 (load.ts).
  const env = {
    ...process.env,
    RTP_OUT_DIR: outDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    RATE_LIMIT: BENCH_RATE_LIMIT,
    TRUST_PROXY: '127.0.0.1',
    ...extraEnv,
  };
  const opts = { cwd: ctx.codeRoot, env, timeoutMs: lifetimeMs, stdout: 'ignore' } as const;
  return startAndWait('server', port, '/api/rtp/list?limit=1', [...serveFlags(ctx.codeRoot), ctx.entry], opts);
}

/** A load scenario as measured: its result row's names, what it sends where, and its runs so far. */
export interface Scenario extends Pick<ScenarioRow, 'id' | 'title' | 'server' | 'what'> {
  /** The answering process, whose CPU time is read around each run. */
  pid: number;
  base: string;
  target: Target;
  runs: LoadRun[];
  /** Server CPU time per answered request in each run, µs. */
  cpu: number[];
}

/** How each scenario is loaded (run.ts sets it from the command line); `mixCount` distinct queries drawn with `seed`. */
export type LoadSettings = { connections: number; warmupS: number; rounds: number; roundS: number; mixCount: number; seed: number };

/** A scenario against a running process (whose CPU time is read); its runs start empty. */
export function scenario(id: string, title: string, server: ScenarioRow['server'], running: Running, target: Target, what: string): Scenario {
  return { id, title, server, pid: running.proc.child.pid!, base: running.base, target, what, runs: [], cpu: [] };
}

/** Runs every scenario: a warm-up each, then `rounds` rounds in turn, so drift hits them all alike. */
export async function measure(ctx: ServerContext, scenarios: Scenario[], load: LoadSettings): Promise<void> {
  const sources = new Map(scenarios.map((s) => [s, pathSource(s.target)]));
  const run = (s: Scenario, durationS: number) =>
    runLoad({
      baseUrl: s.base,
      connections: load.connections,
      durationS,
      next: sources.get(s)!,
      ...(s.target.kind === 'fixed' ? { fixedPath: s.target.path } : {}),
    });
  for (const s of scenarios) await run(s, load.warmupS);
  for (let round = 1; round <= load.rounds; round++) {
    for (const s of scenarios) {
      const before = cpuMicros(s.pid);
      const r = await run(s, load.roundS);
      const after = cpuMicros(s.pid);
      s.runs.push(r);
      if (before !== undefined && after !== undefined && r.requests > 0) s.cpu.push((after - before) / r.requests);
      ctx.log(
        `load round ${round}/${load.rounds} ${s.id}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, CPU ${s.cpu.at(-1)?.toFixed(1) ?? '?'} µs/req, non-2xx ${r.non2xx}, errors ${r.errors + r.timeouts}`,
      );
    }
  }
}

export function row(s: Scenario): ScenarioRow {
  const ok = s.runs.filter((r) => Number.isFinite(r.p50));
  const lat = (f: (r: LoadRun) => number) => summarize(ok.length > 0 ? ok.map(f) : [0]);
  return {
    id: s.id,
    title: s.title,
    server: s.server,
    what: s.what,
    reqPerSec: summarize(s.runs.map((r) => r.reqPerSec)),
    ...(s.cpu.length > 0 ? { cpuUsPerRequest: summarize(s.cpu) } : {}),
    p50Ms: lat((r) => r.p50),
    p99Ms: lat((r) => r.p99),
    requests: s.runs.reduce((a, r) => a + r.requests, 0),
    non2xx: s.runs.reduce((a, r) => a + r.non2xx, 0),
    errors: s.runs.reduce((a, r) => a + r.errors + r.timeouts, 0),
  };
}

/** The list phase over the output folder `outDir` of a `games`-game registry. */
export async function listPhase(ctx: ServerContext, outDir: string, games: number, work: string, load: LoadSettings): Promise<PhaseResult<'list'>> {
  const records = bundleRecords(outDir);
  const vocab = vocabularyOf(records);
  const mix = queryMix(vocab, load.mixCount, load.seed).map(listPath);
  const stream = distinctStream(vocab);
  const repeated = `/api/rtp/list?q=${encodeURIComponent(mostFrequentWord(records))}&limit=20`;
  const n = records.length;
  const slugs = [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n - 1].map((i) => `/api/rtp/${records[i]!.canonical_slug}`);
  const lifetimeMs = 20 * 60_000;
  const notes: string[] = [];
  ctx.log(`list: starting the server on ${games} games`);
  const server = await startServer(ctx, outDir, lifetimeMs);
  // The same server with its list caches off: what the cache is measured against.
  let cold: Running | undefined;
  let ceiling: Running | undefined;
  try {
    // Every fixed path must answer 200 before anything is timed; the ceiling replays those answers.
    // It replays all of the mix, not a sample: a sample small enough to sit in the CPU's cache would
    // be read faster than the mix's own bytes are.
    const answers = new Map<string, Awaited<ReturnType<typeof fetchRaw>>>();
    for (const p of [repeated, DEFAULT_PAGE_PATH, ...slugs, ...mix]) {
      const r = await fetchRaw(server.base + p);
      if (r.status !== 200) throw new Error(`server answered ${r.status} to ${p}: ${r.body.toString('utf8').slice(0, 300)}`);
      answers.set(p, r);
    }
    const bodyOf = (p: string) => answers.get(p)!.body;
    const mixBytes = mix.reduce((sum, p) => sum + bodyOf(p).length, 0) / mix.length;
    const payload = listPayload(bodyOf(DEFAULT_PAGE_PATH), mix.map(bodyOf));
    const bytesOf = (p: string) => bodyOf(p).length.toLocaleString('en-US');
    const fixturesFile = path.join(work, 'ceiling-fixtures.json');
    const fixtures = [...answers].map(([p, { status, headers, body }]) => [p, { status, headers, body_base64: body.toString('base64') }]);
    writeFileSync(fixturesFile, JSON.stringify(Object.fromEntries(fixtures)));
    cold = await startServer(ctx, outDir, lifetimeMs, { LIST_CACHE_MB: '0' });
    const cport = await freePort('127.0.0.1');
    const ceilingArgs = ['scripts/bench/ceiling.ts', fixturesFile, String(cport)];
    ceiling = await startAndWait('ceiling', cport, repeated, ceilingArgs, { cwd: ctx.benchRoot, timeoutMs: lifetimeMs });

    let sent = 0;
    let coldSent = 0;
    const what: Record<string, string> = {
      a: `${mix.length} distinct list queries (the registry's words, providers and types, every sort, deep offsets, limits 10 to 200), cycled in order across all connections.`,
      b: `\`${repeated}\` every time (${bytesOf(repeated)} bytes).`,
      c: `4 pre-rendered \`/api/rtp/<slug>\` files in turn (${slugs.map(bytesOf).join(', ')} bytes).`,
      u: `a stream of distinct list queries (${stream.size.toLocaleString('en-US')} in all) never repeated within the run, so no response-cache hit.`,
      a0: 'the mix of (a) on the same server started with LIST_CACHE_MB=0 (no response or page cache).',
      u0: 'the stream of (u), from its start, on the server with LIST_CACHE_MB=0.',
      d: "scripts/bench/ceiling.ts, a bare node:http server answering (b)'s path with (b)'s recorded status, headers and body.",
      "d'": "the same bare server answering (c)'s four paths with their recorded responses.",
      e: `the same bare server answering the ${mix.length} queries of (a) with their recorded responses (${Math.round(mixBytes).toLocaleString('en-US')} bytes on average), cycled in the same order.`,
    };
    const on = (running: Running, kind: ScenarioRow['server']) => (id: string, title: string, target: Target) =>
      scenario(id, title, kind, running, target, what[id]!);
    const [warm, coldServer, bare] = [on(server, 'server'), on(cold, 'server'), on(ceiling, 'ceiling')];
    const mixCycle: Target = { kind: 'cycle', paths: mix };
    const slugCycle: Target = { kind: 'cycle', paths: slugs };
    const scenarios: Scenario[] = [
      warm('a', 'mix of distinct queries', mixCycle),
      warm('b', 'one repeated query', { kind: 'fixed', path: repeated }),
      warm('c', 'static slug JSON', slugCycle),
      warm('u', 'uncached distinct queries', { kind: 'stream', next: () => listPath(stream.at(sent++)) }),
      coldServer('a0', 'mix, list caches off', mixCycle),
      coldServer('u0', 'uncached, list caches off', { kind: 'stream', next: () => listPath(stream.at(coldSent++)) }),
      bare('d', 'ceiling: same bytes as (b)', { kind: 'fixed', path: repeated }),
      bare("d'", 'ceiling: same bytes as (c)', slugCycle),
      bare('e', 'ceiling: same bytes as (a)', mixCycle),
    ];
    await measure(ctx, scenarios, load);

    // Req/s ratios, then CPU ratios. Against a ceiling the ceiling's CPU comes first, so a CPU ratio
    // reads as a req/s ratio does (1.00x is the bare server's cost per request, 0.50x twice it), and
    // unlike req/s it does not move when the load generator, not the server, limits a run.
    const byId = new Map(scenarios.map((x) => [x.id, x]));
    const name = (id: string) => `${RATIO_NAMES[id] ?? byId.get(id)!.title} (${id})`;
    const ratios: PhaseResult<'list'>['ratios'] = [];
    const runsOf = (id: string) => byId.get(id)!.runs.map((r) => r.reqPerSec);
    for (const [a, b] of ['a/a0', 'u/u0', 'a/e', 'a/d', 'b/d', "c/d'", 'u/d'].map((id) => id.split('/') as [string, string]))
      ratios.push({ id: `${a}/${b}`, label: `${name(a)} / ${name(b)}`, ratio: pairedRatios(runsOf(a), runsOf(b)) });
    for (const [a, b] of ['a/a0', 'u/u0', 'e/a', 'd/b', "d'/c", 'd/u'].map((id) => id.split('/') as [string, string])) {
      const [x, y] = [byId.get(a)!.cpu, byId.get(b)!.cpu];
      if (x.length === y.length && x.length > 0)
        ratios.push({ id: `cpu ${a}/${b}`, label: `server CPU per request: ${name(a)} / ${name(b)}`, ratio: pairedRatios(x, y) });
    }
    if (sent > stream.size) notes.push('The uncached stream wrapped around: some of its answers may have come from a cache.');
    notes.push(
      `The server runs with RATE_LIMIT=${BENCH_RATE_LIMIT} and its access log on (stdout, discarded), as in production; each connection stands for its own client (X-Forwarded-For, trusted from 127.0.0.1 as behind the edge; scripts/bench/load.ts), so the rate limiter and the log see many clients. CPU per request is the answering process's user + system time (/proc/<pid>/stat, all threads) over each run, divided by the responses of that run: it does not depend on who else shares the cores. The load and which core ran what are under settings.`,
    );
    const after = rssMiB(server.proc.child.pid!);
    return { games, scenarios: scenarios.map(row), ratios, payload, ...(after === undefined ? {} : { serverRssAfterMiB: after }), notes };
  } finally {
    await Promise.all([server.proc.stop(), cold?.proc.stop(), ceiling?.proc.stop()]);
  }
}
