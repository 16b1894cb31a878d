// `npm run bench`: builds, serves and loads synthetic and real registries, then writes BENCHMARKS.md (see docs/benchmarks.md).
// Options: --quick (smoke run, report to a temp file), --only build,list,memory,search, --out <file>, --keep (keep temp folders).
// Requests go to 127.0.0.1 only: /api/rtp/list, /api/rtp/<slug> on the project's server, the ceiling and the SQLite peer.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { alive } from '../../src/lib/write.ts';
import { timedBaseline, timedBuild, writeManifest, BUNDLE_REL } from './build-bench.ts';
import { realRegistry, synthInfo, synthRegistry, sizeLabel, type DataSet } from './data.ts';
import { environment } from './env.ts';
import { fetchRaw, pathSource, runLoad, type LoadRun, type Target as LoadTarget } from './load.ts';
import { killAll, pollUntil, rssMiB, spawnBounded, type Spawned } from './procs.ts';
import { distinctStream, mostFrequentWord, queryMix, toSearch, vocabularyOf, type VocabularyRecord } from './query-mix.ts';
import { carryHistory } from './history.ts';
import { renderReport, renderSummary, type BenchResults, type BuildRow, type ListSection, type MemoryRow, type ScenarioRow, type SearchSection } from './report.ts';
import { pairedRatios, summarize } from './stats.ts';
import { evaluateTargets, RATIO } from './targets.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The server under test; BENCH_SERVER names another entry with the same interface (e.g. an older build's server, for before/after figures). */
const SERVER_ENTRY = process.env.BENCH_SERVER ?? 'src/server/main.ts';
/** Node flags of `npm run serve` (package.json is their one source), so the benchmark runs the server as deployed. */
const SERVER_NODE_FLAGS: string[] = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve!
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'));
/** The load test would trip the public 1,000-per-day limit at once; the bench server runs with this instead. */
const BENCH_RATE_LIMIT = '1000000000';
const PHASES = ['build', 'memory', 'list', 'search'] as const;
type Phase = (typeof PHASES)[number];

export interface Config {
  mode: 'full' | 'quick' | 'partial';
  only: Set<Phase>;
  sizes: number[];
  real: boolean;
  buildRuns: number;
  memoryStarts: number;
  listGames: number;
  connections: number;
  warmupS: number;
  rounds: number;
  roundS: number;
  mixCount: number;
  seed: number;
  outFile: string;
  keep: boolean;
}

/** Reads the command line into a configuration (full, quick or partial run). */
export function parseArgs(argv: readonly string[]): Config {
  let values: { quick?: boolean; only?: string; out?: string; keep?: boolean };
  try {
    ({ values } = parseArgv({ args: [...argv], options: { quick: { type: 'boolean' }, only: { type: 'string' }, out: { type: 'string' }, keep: { type: 'boolean' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new Error(`${(err as Error).message} (use --quick, --only <phases>, --out <file>, --keep)`);
  }
  const quick = values.quick === true;
  const only = new Set<Phase>();
  if (values.only !== undefined) {
    for (const p of values.only.split(',')) {
      if (!(PHASES as readonly string[]).includes(p)) throw new Error(`--only: unknown phase "${p}" (one of ${PHASES.join(', ')})`);
      only.add(p as Phase);
    }
  }
  const outFile = values.out;
  const partial = only.size > 0;
  const mode = quick ? 'quick' : partial ? 'partial' : 'full';
  const tmpReport = path.join(os.tmpdir(), `rtp-bench-${mode}.md`);
  return {
    mode,
    only: partial ? only : new Set(PHASES),
    sizes: quick ? [200] : [1000, 10_000, 50_000],
    real: !quick,
    buildRuns: quick ? 1 : 3,
    memoryStarts: quick ? 1 : 3,
    listGames: quick ? 200 : 50_000,
    connections: 10,
    warmupS: quick ? 0.5 : 1.5,
    rounds: quick ? 1 : 3,
    roundS: quick ? 1 : 3.5,
    mixCount: quick ? 1000 : 2000,
    seed: 20261121,
    outFile: outFile ?? (mode === 'full' ? path.join(ROOT, 'BENCHMARKS.md') : tmpReport),
    keep: values.keep === true,
  };
}

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

interface Running {
  proc: Spawned;
  base: string;
  readyMs: number;
}

/** Spawns a server and polls `probePath` until it answers 200; readyMs is from spawn to that answer. */
async function startAndWait(what: string, args: string[], env: NodeJS.ProcessEnv, probePath: string, port: number, lifetimeMs: number): Promise<Running> {
  const base = `http://127.0.0.1:${port}`;
  const t = performance.now();
  const proc = spawnBounded(process.execPath, args, { cwd: ROOT, env, timeoutMs: lifetimeMs });
  let exited = false;
  void proc.exited.then(() => (exited = true));
  const ok = await pollUntil(
    async () => {
      if (exited) throw new Error('exited');
      return (await fetchRaw(base + probePath, 2000)).status === 200;
    },
    120_000,
    5,
  );
  const readyMs = performance.now() - t;
  if (!ok || exited) {
    await proc.stop();
    throw new Error(`${what} did not become ready: ${proc.output().slice(-1500).trim()}`);
  }
  return { proc, base, readyMs };
}

async function startServer(outDir: string, lifetimeMs: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<Running> {
  const port = await freePort();
  // ACCESS_LOG=off: the benchmark measures serving, not writing (and piping) a log line per request.
  const env = { ...process.env, RTP_OUT_DIR: outDir, HOST: '127.0.0.1', PORT: String(port), RATE_LIMIT: BENCH_RATE_LIMIT, ACCESS_LOG: 'off', ...extraEnv };
  return startAndWait('server', [...SERVER_NODE_FLAGS, SERVER_ENTRY], env, '/api/rtp/list?limit=1', port, lifetimeMs);
}

interface BundleFile {
  meta: { data_version: string; frozen_at: string };
  providers: Array<{ provider: string; display: string }>;
  records: Array<VocabularyRecord & { canonical_slug: string; [k: string]: unknown }>;
}

function readBundle(outDir: string): BundleFile {
  return JSON.parse(readFileSync(path.join(outDir, BUNDLE_REL), 'utf8')) as BundleFile;
}

// ---------------------------------------------------------------- build

async function buildPhase(cfg: Config, work: string, sets: DataSet[], built: Map<string, string>, problems: string[]): Promise<BenchResults['build']> {
  const rows: BuildRow[] = [];
  for (const ds of sets) {
    const builds: number[] = [];
    const baselines: number[] = [];
    const rss: number[] = [];
    let files = 0;
    let bytes = 0;
    let error: string | undefined;
    const manifestFile = path.join(work, `manifest-${ds.label}.json`);
    let lastOut: string | undefined;
    for (let run = 1; run <= cfg.buildRuns; run++) {
      log(`build ${ds.label} run ${run}/${cfg.buildRuns}`);
      // Every run writes into folders that never existed: nothing is deleted while the suite measures
      // (unlinking 200k files costs as much kernel time as creating them); see cleanUp().
      const outDir = path.join(work, `out-${ds.label}-${run}`);
      const baseDir = path.join(work, `baseline-${ds.label}-${run}`);
      const b = await timedBuild(ROOT, ds.dir, outDir, cfg.mode === 'quick' ? 120_000 : 600_000);
      if (!b.ok) {
        error = 'astro build failed';
        problems.push(`build ${ds.label} run ${run} failed:\n\n\`\`\`\n${b.tail.trim().slice(-1500)}\n\`\`\``);
        break;
      }
      const manifest = writeManifest(outDir, manifestFile);
      if (run === 1) {
        files = manifest.length;
        bytes = manifest.reduce((s, [, n]) => s + n, 0);
      } else if (manifest.length !== files) problems.push(`build ${ds.label}: run ${run} wrote ${manifest.length} files, run 1 wrote ${files}`);
      const base = await timedBaseline(ROOT, manifestFile, baseDir, 300_000);
      if (!base.ok) {
        error = 'baseline writer failed';
        problems.push(`baseline ${ds.label} failed: ${base.tail.trim().slice(-800)}`);
        break;
      }
      builds.push(b.seconds);
      baselines.push(base.seconds);
      lastOut = outDir;
      if (b.peakRssMiB !== undefined) rss.push(b.peakRssMiB);
      log(`  build ${b.seconds.toFixed(2)} s (peak RSS ${b.peakRssMiB?.toFixed(0) ?? '?'} MiB), baseline ${base.seconds.toFixed(2)} s, ${files} files`);
    }
    if (builds.length > 0) {
      if (!error && lastOut) built.set(ds.label, lastOut); // a failed later run leaves no usable output
      rows.push({
        label: ds.label,
        games: ds.games,
        files,
        bytes,
        build: summarize(builds),
        baseline: summarize(baselines),
        ratio: pairedRatios(builds, baselines),
        ...(rss.length > 0 ? { peakRssMiB: summarize(rss) } : {}),
        ...(error ? { error: `${error} after ${builds.length} run(s)` } : {}),
      });
    } else {
      rows.push({ label: ds.label, games: ds.games, files: 0, bytes: 0, build: summarize([0]), baseline: summarize([0]), ratio: summarize([0]), error: error ?? 'no run' });
    }
  }
  const notes = [
    `${cfg.buildRuns} build run(s) per registry, each into a fresh output folder under ${os.tmpdir()} (same disk for both); the baseline rewrites that output's file list (paths and sizes, filler bytes) into another fresh folder right after each build. Every run writes into folders that did not exist before; before each timed run \`sync\` flushes dirty pages (untimed), and nothing is deleted until all measurements are done.`,
    'The baseline is the floor for creating these files on this disk with Node; the build also reads and validates the registry, renders every file and runs Astro and Vite.',
  ];
  return { status: 'ok', rows, notes };
}

/** Builds each registry once, untimed (for --only list/memory/search). */
async function buildOnce(cfg: Config, work: string, sets: DataSet[], built: Map<string, string>, problems: string[]): Promise<void> {
  for (const ds of sets) {
    if (built.has(ds.label)) continue;
    const outDir = path.join(work, `out-${ds.label}`);
    log(`build ${ds.label} (untimed, for the later phases)`);
    const b = await timedBuild(ROOT, ds.dir, outDir, 600_000);
    if (b.ok) built.set(ds.label, outDir);
    else problems.push(`build ${ds.label} failed: ${b.tail.trim().slice(-800)}`);
  }
}

// ---------------------------------------------------------------- memory

async function memoryPhase(cfg: Config, sets: DataSet[], built: Map<string, string>): Promise<BenchResults['memory']> {
  if (!existsSync(path.resolve(ROOT, SERVER_ENTRY))) return { status: 'not available', reason: `${SERVER_ENTRY} does not exist yet.` };
  const rows: MemoryRow[] = [];
  const uncached: string[] = [];
  for (const ds of sets) {
    const outDir = built.get(ds.label);
    if (!outDir) continue;
    const ready: number[] = [];
    const rss: number[] = [];
    let error: string | undefined;
    for (let i = 1; i <= cfg.memoryStarts; i++) {
      try {
        const s = await startServer(outDir, 120_000);
        ready.push(s.readyMs);
        const r = rssMiB(s.proc.child.pid!);
        if (r !== undefined) rss.push(r);
        await s.proc.stop();
        log(`memory ${ds.label} start ${i}: ready in ${s.readyMs.toFixed(0)} ms, RSS ${r?.toFixed(0)} MiB`);
      } catch (err) {
        error = (err as Error).message.slice(0, 300);
        break;
      }
    }
    // One more start without Node's compile cache: what the very first start on a machine costs.
    if (error === undefined) {
      try {
        const s = await startServer(outDir, 120_000, { NODE_DISABLE_COMPILE_CACHE: '1' });
        await s.proc.stop();
        uncached.push(`${ds.label}: ${Math.round(s.readyMs)} ms`);
        log(`memory ${ds.label} start without the compile cache: ready in ${s.readyMs.toFixed(0)} ms`);
      } catch (err) {
        uncached.push(`${ds.label}: failed (${(err as Error).message.slice(0, 120)})`);
      }
    }
    rows.push({
      label: ds.label,
      games: ds.games,
      startToReadyMs: summarize(ready.length > 0 ? ready : [0]),
      rssMiB: summarize(rss.length > 0 ? rss : [0]),
      ...(error ? { error } : {}),
    });
  }
  return {
    status: 'ok',
    rows,
    notes: [
      `${cfg.memoryStarts} cold starts per registry (a fresh process each time; the files are in the page cache). The server runs with RATE_LIMIT=${BENCH_RATE_LIMIT} and ACCESS_LOG=off.`,
      `The starts use Node's on-disk compile cache, which src/server/main.ts turns on and the first start on a machine fills, as every later start or restart of a deployed server does. One start per registry with the cache off (NODE_DISABLE_COMPILE_CACHE=1), start to ready: ${uncached.join('; ')}.`,
    ],
  };
}

// ---------------------------------------------------------------- list

interface Scenario {
  id: string;
  title: string;
  server: ScenarioRow['server'];
  base: () => string;
  target: LoadTarget;
  what: string;
  runs: LoadRun[];
  next?: () => string;
}

async function listPhase(cfg: Config, work: string, ds: DataSet | undefined, outDir: string | undefined, problems: string[]): Promise<ListSection | { status: 'not available'; reason: string }> {
  if (!ds || !outDir) return { status: 'not available', reason: `no built ${sizeLabel(cfg.listGames)} registry (see the build section).` };
  if (!existsSync(path.resolve(ROOT, SERVER_ENTRY))) return { status: 'not available', reason: `${SERVER_ENTRY} does not exist yet, so the list route cannot be loaded.` };
  const bundlePath = path.join(outDir, BUNDLE_REL);
  const bundle = readBundle(outDir);
  const vocab = vocabularyOf(bundle.records);
  const mix = queryMix(vocab, cfg.mixCount, cfg.seed).map((q) => `/api/rtp/list?${toSearch(q)}`);
  const stream = distinctStream(vocab);
  const top = mostFrequentWord(bundle.records);
  const repeated = `/api/rtp/list?q=${encodeURIComponent(top)}&limit=20`;
  const n = bundle.records.length;
  const slugs = [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n - 1].map((i) => `/api/rtp/${bundle.records[i]!.canonical_slug}`);
  const lifetime = 20 * 60_000;
  const notes: string[] = [];

  log(`list: starting the server on ${ds.label}`);
  const server = await startServer(outDir, lifetime);
  let ceiling: Running | undefined;
  let peer: Running | undefined;
  try {
    // Sanity: every fixed path answers 200 before anything is timed.
    for (const p of [repeated, ...slugs, ...mix.slice(0, 20)]) {
      const r = await fetchRaw(server.base + p);
      if (r.status !== 200) throw new Error(`server answered ${r.status} to ${p}: ${r.body.toString('utf8').slice(0, 300)}`);
    }
    const fixtures: Record<string, { status: number; headers: Record<string, string>; body_base64: string }> = {};
    for (const p of [repeated, ...slugs]) {
      const r = await fetchRaw(server.base + p);
      fixtures[p] = { status: r.status, headers: r.headers, body_base64: r.body.toString('base64') };
    }
    const repeatedBytes = Buffer.from(fixtures[repeated]!.body_base64, 'base64').length;
    const slugBytes = slugs.map((s) => Buffer.from(fixtures[s]!.body_base64, 'base64').length);
    const fixturesFile = path.join(work, 'ceiling-fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify(fixtures));
    const cport = await freePort();
    ceiling = await startAndWait('ceiling', ['scripts/bench/ceiling.ts', fixturesFile, String(cport)], process.env, repeated, cport, lifetime);

    let peerDriver: string | undefined;
    let peerLoadMs: number | undefined;
    let peerRssLoadedMiB: number | undefined;
    let peerAgreement: string | undefined;
    try {
      const pport = await freePort();
      peer = await startAndWait('SQLite peer', ['scripts/bench/sqlite-peer.ts', bundlePath, String(pport)], process.env, '/api/rtp/list?limit=1', pport, lifetime);
      peerLoadMs = peer.readyMs;
      peerRssLoadedMiB = rssMiB(peer.proc.child.pid!);
      peerDriver = /\(([^)]*)\)/.exec(peer.proc.output())?.[1];
    } catch (err) {
      problems.push(`SQLite peer: ${(err as Error).message.slice(0, 500)}`);
    }
    if (peer) {
      try {
        peerAgreement = await compareWithPeer(server.base, peer.base, mix.slice(0, 200));
      } catch (err) {
        problems.push(`comparing the SQLite peer with the server: ${(err as Error).message.slice(0, 500)}`);
      }
    }

    const scenarios: Scenario[] = [];
    const add = (s: Omit<Scenario, 'runs'>) => scenarios.push({ ...s, runs: [] });
    const cursor = (base: string) => {
      let i = 0;
      return { next: () => `/api/rtp/list?${toSearch(stream.at(i++))}`, sent: () => i, base };
    };
    const serverStream = cursor(server.base);
    const peerStream = peer ? cursor(peer.base) : undefined;
    add({ id: 'a', title: 'mix of distinct queries', server: 'server', base: () => server.base, target: { kind: 'cycle', paths: mix }, what: `${mix.length} distinct list queries (generated from the registry's words, providers and types, every sort, deep offsets; limits mostly the default 50, from 10 to 200), cycled in order across all connections; after the first pass a response cache may answer them.` });
    add({ id: 'b', title: 'one repeated query', server: 'server', base: () => server.base, target: { kind: 'fixed', path: repeated }, what: `\`${repeated}\` every time (${repeatedBytes.toLocaleString('en-US')} bytes).` });
    add({ id: 'c', title: 'static slug JSON', server: 'server', base: () => server.base, target: { kind: 'cycle', paths: slugs }, what: `4 pre-rendered \`/api/rtp/<slug>\` files in turn (${slugBytes.map((b) => b.toLocaleString('en-US')).join(', ')} bytes).` });
    add({ id: 'u', title: 'uncached distinct queries', server: 'server', base: () => server.base, target: { kind: 'stream', next: serverStream.next }, what: `a deterministic combinatorial stream of distinct list queries (q word or prefix, or none, x sort x filter x limit x page; ${stream.size.toLocaleString('en-US')} distinct in all), never repeated within the run, so no response-cache hit (q values do repeat, the vocabulary being finite, so a cache of search results may still hit).` });
    add({ id: 'd', title: 'ceiling: same bytes as (b)', server: 'ceiling', base: () => ceiling!.base, target: { kind: 'fixed', path: repeated }, what: "`scripts/bench/ceiling.ts`, a bare `node:http` server answering (b)'s path with (b)'s recorded status, headers and body from a Map." });
    add({ id: "d'", title: 'ceiling: same bytes as (c)', server: 'ceiling', base: () => ceiling!.base, target: { kind: 'cycle', paths: slugs }, what: "the same bare server answering (c)'s four paths with their recorded responses." });
    if (peer && peerStream) {
      add({ id: 'pa', title: 'peer: mix of distinct queries', server: 'peer', base: () => peer!.base, target: { kind: 'cycle', paths: mix }, what: 'the SQLite FTS5 peer with the same mix as (a).' });
      add({ id: 'pu', title: 'peer: uncached distinct queries', server: 'peer', base: () => peer!.base, target: { kind: 'stream', next: peerStream.next }, what: "the SQLite FTS5 peer with the same distinct stream as (u), from its start." });
    }

    for (const s of scenarios) {
      s.next = pathSource(s.target);
      log(`load warm-up ${s.id} (${cfg.warmupS} s)`);
      await runLoad({ baseUrl: s.base(), connections: cfg.connections, durationS: cfg.warmupS, next: s.next, ...(s.target.kind === 'fixed' ? { fixedPath: s.target.path } : {}) });
    }
    for (let round = 1; round <= cfg.rounds; round++) {
      for (const s of scenarios) {
        const run = await runLoad({ baseUrl: s.base(), connections: cfg.connections, durationS: cfg.roundS, next: s.next!, ...(s.target.kind === 'fixed' ? { fixedPath: s.target.path } : {}) });
        s.runs.push(run);
        log(`load round ${round}/${cfg.rounds} ${s.id}: ${run.reqPerSec.toFixed(0)} req/s, p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms, non-2xx ${run.non2xx}, errors ${run.errors + run.timeouts}`);
      }
    }

    const rows: ScenarioRow[] = scenarios.map((s) => {
      const non2xx = s.runs.reduce((a, r) => a + r.non2xx, 0);
      const errors = s.runs.reduce((a, r) => a + r.errors + r.timeouts, 0);
      const statusCodes: Record<string, number> = {};
      for (const r of s.runs) for (const [c, k] of Object.entries(r.statusCodes)) statusCodes[c] = (statusCodes[c] ?? 0) + k;
      const okRuns = s.runs.filter((r) => Number.isFinite(r.p50));
      const lat = (f: (r: LoadRun) => number) => summarize(okRuns.length > 0 ? okRuns.map(f) : [0]);
      return {
        id: s.id,
        title: s.title,
        server: s.server,
        what: s.what,
        reqPerSec: summarize(s.runs.map((r) => r.reqPerSec)),
        p50Ms: lat((r) => r.p50),
        p99Ms: lat((r) => r.p99),
        requests: s.runs.reduce((a, r) => a + r.requests, 0),
        non2xx,
        errors,
        fail: non2xx > 0 || errors > 0 || okRuns.length === 0,
        statusCodes,
      };
    });
    const rps = (id: string) => scenarios.find((s) => s.id === id)?.runs.map((r) => r.reqPerSec);
    const ratios: ListSection['ratios'] = [];
    const pair = (label: string, a: string, b: string) => {
      const x = rps(a);
      const y = rps(b);
      if (x && y) ratios.push({ label, ratio: pairedRatios(x, y) });
    };
    pair(RATIO.mixCeiling, 'a', 'd');
    pair(RATIO.repeatedCeiling, 'b', 'd');
    pair(RATIO.slugCeiling, 'c', "d'");
    pair(RATIO.streamCeiling, 'u', 'd');
    pair(RATIO.mixPeer, 'a', 'pa');
    pair(RATIO.streamPeer, 'u', 'pu');
    pair(RATIO.peerMixCeiling, 'pa', 'd');

    const streamSent = serverStream.sent();
    const uRow = rows.find((r) => r.id === 'u');
    if (uRow) {
      uRow.note = `${streamSent.toLocaleString('en-US')} distinct queries sent to the server in this run (warm-up included)${streamSent > stream.size ? '; the stream WRAPPED, so some answers may have come from a cache' : ''}.`;
    }
    const serverRssAfterMiB = rssMiB(server.proc.child.pid!);
    const peerRssAfterMiB = peer ? rssMiB(peer.proc.child.pid!) : undefined;
    notes.push(
      `The server runs with RATE_LIMIT=${BENCH_RATE_LIMIT} (the public limit of 1,000 requests per day per IP would answer 429 after the first second of load). All requests come from 127.0.0.1.`,
      'The load generator (autocannon, in the benchmark process) shares the 2 cores with the server under test, as the ceiling does; figures are for this loopback setup, not for a network.',
      'Fixed-path scenarios use a pre-built request; cycled and streamed scenarios set each request path in `setupRequest`, which costs the load generator a little per request (the ceiling of (c) is cycled the same way, so (c)/(d\') compares like with like).',
    );
    if (!peer) notes.push('The SQLite peer did not start (see Problems), so the peer scenarios are not available.');
    return {
      status: 'ok',
      games: ds.games,
      scenarios: rows,
      ratios,
      ...(serverRssAfterMiB !== undefined ? { serverRssAfterMiB } : {}),
      ...(peerRssAfterMiB !== undefined ? { peerRssAfterMiB } : {}),
      ...(peerRssLoadedMiB !== undefined ? { peerRssLoadedMiB } : {}),
      ...(peerLoadMs !== undefined ? { peerLoadMs } : {}),
      ...(peerDriver !== undefined ? { peerDriver } : {}),
      ...(peerAgreement !== undefined ? { peerAgreement } : {}),
      streamSize: stream.size,
      streamSent,
      mixCount: mix.length,
      notes,
    };
  } finally {
    await Promise.all([server.proc.stop(), ceiling?.proc.stop(), peer?.proc.stop()]);
  }
}

interface ListBody {
  meta: { filtered: number; total: number; has_more: boolean };
  facets: { providers: Array<{ provider: string; count: number }>; game_types: Array<{ game_type: string; count: number }> };
  items: Array<{ canonical_slug: string }>;
}

/**
 * Compares the peer's answers with the server's on sample queries: filtered count, facet counts and
 * the page (slugs in order; for sort=relevance only the matching set, since the scores differ by design).
 */
async function compareWithPeer(serverBase: string, peerBase: string, paths: readonly string[]): Promise<string> {
  let same = 0;
  const differ: string[] = [];
  const facetKey = (b: ListBody) =>
    JSON.stringify([
      [...b.facets.providers].map((p) => `${p.provider}:${p.count}`).sort(),
      [...b.facets.game_types].map((t) => `${t.game_type}:${t.count}`).sort(),
    ]);
  for (const p of paths) {
    const [a, b] = await Promise.all([fetchRaw(serverBase + p), fetchRaw(peerBase + p)]);
    if (a.status !== 200 || b.status !== 200) {
      if (differ.length < 5) differ.push(`\`${p}\`: status ${a.status} vs ${b.status}`);
      continue;
    }
    const x = JSON.parse(a.body.toString('utf8')) as ListBody;
    const y = JSON.parse(b.body.toString('utf8')) as ListBody;
    const what: string[] = [];
    if (x.meta.filtered !== y.meta.filtered) what.push(`filtered ${x.meta.filtered} vs ${y.meta.filtered}`);
    else if (!/[?&]sort=relevance(&|$)/.test(p) && x.items.map((i) => i.canonical_slug).join() !== y.items.map((i) => i.canonical_slug).join()) what.push('page order');
    if (facetKey(x) !== facetKey(y)) what.push('facet counts');
    if (what.length === 0) same++;
    else if (differ.length < 5) differ.push(`\`${p}\`: ${what.join(', ')}`);
  }
  const head = `Conformance check before the load: on ${same} of the first ${paths.length} mix queries the peer gave the same status, filtered count, the same facet counts and the same page (slugs in order; under sort=relevance the order is the engine's own score, bm25 against MiniSearch's, and is not compared) as the server.`;
  return differ.length === 0
    ? head
    : `${head} Differences in the matches are expected from the route's typo tolerance (MiniSearch fuzzy matching for words of 5 letters or more), which FTS5 prefix terms do not have; the first differences:\n\n${differ.map((d) => `  - ${d}`).join('\n')}`;
}

// ---------------------------------------------------------------- search

async function searchPhase(cfg: Config, sets: DataSet[], built: Map<string, string>): Promise<SearchSection | { status: 'not available'; reason: string }> {
  let mod: typeof import('./search-bench.ts');
  try {
    mod = await import('./search-bench.ts');
  } catch (err) {
    return { status: 'not available', reason: `the list module's search functions could not be loaded: ${(err as Error).message}` };
  }
  const rows: SearchSection['rows'] = [];
  for (const ds of sets) {
    const outDir = built.get(ds.label);
    // Without a build, derive the same public records in-process from the registry files.
    const bundle = outDir ? readBundle(outDir) : (makeBundle(await loadRegistryOrThrow(ds.dir)) as unknown as BundleFile);
    const qs = queryMix(vocabularyOf(bundle.records), cfg.mixCount, cfg.seed)
      .map((q) => q.q)
      .filter((q): q is string => q !== undefined);
    const r = mod.benchSearch(bundle.records, qs);
    const mix = queryMix(vocabularyOf(bundle.records), cfg.mixCount, cfg.seed).map((q) => toSearch(q));
    const l = mod.benchListHandler(bundle as unknown as RegistryBundle, mix);
    rows.push({ label: ds.label, games: ds.games, queries: qs.length, indexMs: r.indexMs, searchP50Ms: r.p50, searchP99Ms: r.p99, listP50Ms: l.p50, listP99Ms: l.p99 });
    log(`search ${ds.label}: index ${r.indexMs.toFixed(0)} ms, search p50 ${r.p50.toFixed(3)} / p99 ${r.p99.toFixed(3)} ms (${qs.length} q), list handler p50 ${l.p50.toFixed(3)} / p99 ${l.p99.toFixed(3)} ms`);
  }
  return {
    status: 'ok',
    implementation:
      "The list route's own index and search (`buildSearchIndex` and `search` from src/list/search.ts: MiniSearch over name, slug, provider key and display name; prefix on every word, typo tolerance from 5 letters, all words required), called in the benchmark process over the q values of the same query mix. One untimed pass first (JIT warm-up), then one timed pass; p50/p99 are over queries.",
    rows,
    notes: [
      'The search time is the cost a request pays when its q is not cached. The whole list query is the route\'s handler (`createServices(bundle).list`: parameter parsing, engine, response bytes) over all queries of the mix, timed on fresh services after a warm-up pass on others, so no response or search-cache hit from the warm-up; no HTTP.',
    ],
  };
}

// ---------------------------------------------------------------- temp folders

const WORK_PREFIX = 'rtp-bench-work-';
const RM_MARKER = '.rm-pid';

/**
 * Waits for a background cleanup of an earlier run that is still deleting (its \`<work>.rm-pid\`
 * marker names the process; a quick run does not wait and leaves that folder alone), then deletes the work folders of earlier runs whose process has ended
 * (a run that was killed), so nothing is measured while the disk is busy deleting.
 */
async function removeStaleWork(wait: boolean): Promise<void> {
  const tmp = os.tmpdir();
  const busy = new Set<string>();
  for (const name of readdirSync(tmp)) {
    if (!name.startsWith(WORK_PREFIX) || !name.endsWith(RM_MARKER)) continue;
    const marker = path.join(tmp, name);
    const pid = Number(readFileSync(marker, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
      if (!wait) {
        busy.add(name.slice(0, -RM_MARKER.length)); // a smoke run measures nothing: leave the cleanup to it
        continue;
      }
      log(`waiting for the previous run's background cleanup (pid ${pid}) to finish`);
      const t = performance.now();
      while (alive(pid) && existsSync(marker) && performance.now() - t < 15 * 60_000) await sleep(1000);
      log(`  done after ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
    rmSync(marker, { force: true });
  }
  for (const name of readdirSync(tmp)) {
    const m = new RegExp(`^${WORK_PREFIX}(\\d+)-[^.]*$`).exec(name);
    if (!m || busy.has(name) || alive(Number(m[1]))) continue;
    const t = performance.now();
    try {
      rmSync(path.join(tmp, name), { recursive: true, force: true, maxRetries: 5 });
      log(`removed the leftover ${name} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    } catch (err) {
      log(`could not remove the leftover ${name}: ${(err as Error).message}`);
    }
  }
}

/**
 * Deletes the work folder: at once for small runs; for full runs in a detached, low-priority \`rm\`
 * after the report is written (a full run leaves ~1.5 million files, whose deletion takes minutes on
 * this disk), with a marker file holding its pid that the next run waits on.
 */
function cleanUp(work: string, when: 'now' | 'background'): void {
  if (when === 'now') {
    rmSync(work, { recursive: true, force: true });
    return;
  }
  const marker = `${work}${RM_MARKER}`;
  const child = spawn('nice', ['-n', '19', 'sh', '-c', 'rm -rf -- "$0"; rm -f -- "$0$1"', work, RM_MARKER], { detached: true, stdio: 'ignore' });
  child.on('error', () => rmSync(work, { recursive: true, force: true }));
  if (child.pid !== undefined) writeFileSync(marker, String(child.pid));
  child.unref();
  log(`deleting ${work} in the background (pid ${child.pid}); the next \`npm run bench\` waits for it before measuring`);
}

// ---------------------------------------------------------------- main

async function main(): Promise<number> {
  const cfg = parseArgs(process.argv.slice(2));
  await removeStaleWork(cfg.mode !== 'quick'); // before the clock starts: an earlier run's cleanup must not share the disk
  const t0 = performance.now();
  const load0 = os.loadavg()[0]!;
  // Hard cap on the whole suite, so a hung child or server can never keep it running.
  const deadline = setTimeout(() => {
    console.error(`bench: exceeded ${cfg.mode === 'quick' ? 120 : 20 * 60} s, killing every child process`);
    killAll();
    process.exit(1);
  }, (cfg.mode === 'quick' ? 120 : 20 * 60) * 1000);
  deadline.unref();
  const env = environment(ROOT);
  const work = mkdtempSync(path.join(os.tmpdir(), `${WORK_PREFIX}${process.pid}-`));
  const problems: string[] = [];
  log(`mode ${cfg.mode}, phases ${[...cfg.only].join(',')}, temp ${work}`);

  const sets: DataSet[] = [];
  const missing: string[] = [];
  if (!synthInfo(ROOT).available) missing.push('scripts/synth.ts (`npm run data:synth`) does not exist yet: no synthetic registry, so every figure at 1k/10k/50k is missing.');
  else {
    // A list-only run needs the list registry alone.
    const needAll = cfg.only.has('build') || cfg.only.has('memory') || cfg.only.has('search');
    for (const count of needAll ? cfg.sizes : cfg.sizes.filter((c) => c === cfg.listGames)) {
      try {
        sets.push(await synthRegistry(ROOT, count, cfg.seed, log));
      } catch (err) {
        problems.push(`synthetic registry of ${count}: ${(err as Error).message.slice(0, 800)}`);
      }
    }
  }
  if (cfg.real && (cfg.only.has('build') || cfg.only.has('memory') || cfg.only.has('search'))) sets.push(realRegistry(ROOT));

  const built = new Map<string, string>();
  const listSet = sets.find((d) => d.games === cfg.listGames && d.origin !== 'shipped');
  const results: BenchResults = {
    mode: cfg.mode,
    env,
    elapsedS: 0,
    settings: {
      build: `${cfg.buildRuns} run(s) per registry, each paired with a baseline run`,
      load: `autocannon, ${cfg.connections} connections, ${cfg.warmupS} s warm-up per scenario, then ${cfg.rounds} round(s) of ${cfg.roundS} s per scenario, scenarios interleaved round by round (${cfg.rounds * cfg.roundS} s timed per scenario).`,
      'rate limit': `RATE_LIMIT=${BENCH_RATE_LIMIT} and ACCESS_LOG=off for the benchmark server (its node flags: ${SERVER_NODE_FLAGS.join(' ')})`,
      'query mix': `${cfg.mixCount} distinct queries, seed ${cfg.seed}`,
      'temp folders': cfg.mode === 'quick' ? 'deleted at the end' : 'deleted after the report is written, by a detached low-priority rm (not part of the run time)',
    },
    data: sets.map((d) => ({ label: d.label, games: d.games, origin: d.origin })),
    build: undefined,
    memory: undefined,
    list: undefined,
    search: undefined,
    targets: [],
    problems,
    missing,
  };

  try {
    if (cfg.only.has('build')) results.build = sets.length > 0 ? await buildPhase(cfg, work, sets, built, problems) : { status: 'not available', reason: 'no registry to build.' };
    if (cfg.only.has('memory')) {
      await buildOnce(cfg, work, sets, built, problems);
      results.memory = await memoryPhase(cfg, sets, built);
    }
    if (cfg.only.has('list')) {
      if (listSet) await buildOnce(cfg, work, [listSet], built, problems);
      try {
        results.list = await listPhase(cfg, work, listSet, listSet ? built.get(listSet.label) : undefined, problems);
      } catch (err) {
        results.list = { status: 'not available', reason: `the list phase failed: ${(err as Error).message.slice(0, 1000)}` };
        problems.push(`list phase: ${(err as Error).message.slice(0, 1000)}`);
      }
    }
    if (cfg.only.has('search')) {
      results.search = await searchPhase(cfg, sets, built);
    }
  } finally {
    killAll();
  }

  results.elapsedS = (performance.now() - t0) / 1000;
  results.settings['load average'] = `${load0.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end (1-minute averages; the start figure shows other work on the machine, the end figure includes this suite's own load)`;
  results.targets = evaluateTargets(results, cfg.listGames);
  // A full run carries the previous full report's figures forward (before/after, history.ts).
  const history = cfg.mode === 'full' && existsSync(cfg.outFile) ? carryHistory(readFileSync(cfg.outFile, 'utf8')) : [];
  writeFileSync(cfg.outFile, renderReport(results, history));
  console.log(renderSummary(results));
  console.log(`report: ${cfg.outFile}`);
  if (cfg.keep) log(`kept ${work}`);
  else cleanUp(work, cfg.mode === 'quick' ? 'now' : 'background');
  const failed =
    problems.length > 0 ||
    (results.list?.status === 'ok' && results.list.scenarios.some((s) => s.fail)) ||
    (results.build?.status === 'ok' && results.build.rows.some((b) => b.error !== undefined));
  return failed ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      killAll();
      process.exit(1);
    },
  );
}
