// List phase: the built registry served by the server under test, a bare node:http ceiling sending
// the same bytes, and the SQLite FTS5 peer, under the same load scenarios, interleaved round by round.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveFlags } from '../node.mjs';
import { BUNDLE_REL } from './build.ts';
import { fetchRaw, pathSource, runLoad, type LoadRun, type Target } from './load.ts';
import { DEFAULT_PAGE_PATH, listPayload } from './payload.ts';
import { cpuMicros, freePort, rssMiB, startAndWait, type Running } from './procs.ts';
import { distinctStream, mostFrequentWord, queryMix, toSearch, vocabularyOf, type VocabularyRecord } from './query-mix.ts';
import type { BenchResult, ScenarioRow } from './results.ts';
import { pairedRatios, summarize } from './stats.ts';

/** The load test would trip the public 1,000-per-day limit at once; the bench server runs with this instead. */
export const BENCH_RATE_LIMIT = '1000000000';
/** The list cache of the (a+, u+) server: room for every response of the 3,000-query mix at 50k games (about 120 MiB). */
export const BIG_LIST_CACHE_MB = 160;

export interface ServerContext {
  benchRoot: string;
  /** The code under test: its server (`entry`) runs with the node flags of its `serve` script. */
  codeRoot: string;
  /** The server script: the code's bundled production server (serverEntry). */
  entry: string;
  log: (s: string) => void;
  problems: string[];
}

/**
 * The server the code under test runs in production: its bundle (src/emit/server-bundle.ts), made
 * into `work`; the sources' src/server/main.ts for code from before servers were bundled.
 */
export async function serverEntry(codeRoot: string, work: string): Promise<string> {
  const bundler = path.join(codeRoot, 'src/emit/server-bundle.ts');
  if (!existsSync(bundler)) return path.join(codeRoot, 'src/server/main.ts');
  const { bundleServer } = (await import(pathToFileURL(bundler).href)) as { bundleServer: (serverDir: string) => Promise<string | undefined> };
  const serverDir = path.join(work, 'server-under-test');
  // Bundlers before 989f254 returned nothing; their entry was runtime/server.mjs.
  return (await bundleServer(serverDir)) ?? path.join(serverDir, 'runtime/server.mjs');
}

const status = async (url: string) => (await fetchRaw(url, 2000)).status;

/** Starts the server under test on a built output folder; resolves when the list route answers. */
export async function startServer(ctx: ServerContext, outDir: string, lifetimeMs: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<Running> {
  const port = await freePort();
  // The access log is on, as in production; it goes to stdout, which is discarded (errors still come through stderr).
  const env = { ...process.env, RTP_OUT_DIR: outDir, HOST: '127.0.0.1', PORT: String(port), RATE_LIMIT: BENCH_RATE_LIMIT, ...extraEnv };
  return startAndWait('server', { args: [...serveFlags(ctx.codeRoot), ctx.entry], cwd: ctx.codeRoot, env, lifetimeMs, stdout: 'ignore' }, port, status, '/api/rtp/list?limit=1');
}

export interface Scenario {
  id: string;
  title: string;
  server: ScenarioRow['server'];
  /** The answering process, whose CPU time is read around each run. */
  pid: number;
  base: string;
  target: Target;
  what: string;
  runs: LoadRun[];
  /** Server CPU time per answered request in each run, µs. */
  cpu: number[];
}

export interface LoadSettings {
  connections: number;
  warmupS: number;
  rounds: number;
  roundS: number;
  mixCount: number;
  seed: number;
}

/** A scenario against a running process (whose CPU time is read); its runs start empty. */
export function scenario(id: string, title: string, server: ScenarioRow['server'], running: Running, target: Target, what: string): Scenario {
  return { id, title, server, pid: running.proc.child.pid!, base: running.base, target, what, runs: [], cpu: [] };
}

/** Runs every scenario: a warm-up each, then `rounds` rounds in turn, so drift hits them all alike. */
export async function measure(ctx: ServerContext, scenarios: Scenario[], load: LoadSettings): Promise<void> {
  const sources = new Map(scenarios.map((s) => [s, pathSource(s.target)]));
  const run = (s: Scenario, durationS: number) =>
    runLoad({ baseUrl: s.base, connections: load.connections, durationS, next: sources.get(s)!, ...(s.target.kind === 'fixed' ? { fixedPath: s.target.path } : {}) });
  for (const s of scenarios) await run(s, load.warmupS);
  for (let round = 1; round <= load.rounds; round++) {
    for (const s of scenarios) {
      const before = cpuMicros(s.pid);
      const r = await run(s, load.roundS);
      const after = cpuMicros(s.pid);
      s.runs.push(r);
      if (before !== undefined && after !== undefined && r.requests > 0) s.cpu.push((after - before) / r.requests);
      ctx.log(`load round ${round}/${load.rounds} ${s.id}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, CPU ${s.cpu.at(-1)?.toFixed(1) ?? '?'} µs/req, non-2xx ${r.non2xx}, errors ${r.errors + r.timeouts}`);
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
export async function listPhase(ctx: ServerContext, outDir: string, games: number, work: string, load: LoadSettings): Promise<NonNullable<BenchResult['list']>> {
  const bundle = JSON.parse(readFileSync(path.join(outDir, BUNDLE_REL), 'utf8')) as { records: Array<VocabularyRecord & { canonical_slug: string }> };
  const vocab = vocabularyOf(bundle.records);
  const mix = queryMix(vocab, load.mixCount, load.seed).map((q) => `/api/rtp/list?${toSearch(q)}`);
  const stream = distinctStream(vocab);
  const repeated = `/api/rtp/list?q=${encodeURIComponent(mostFrequentWord(bundle.records))}&limit=20`;
  const n = bundle.records.length;
  const slugs = [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n - 1].map((i) => `/api/rtp/${bundle.records[i]!.canonical_slug}`);
  const lifetimeMs = 20 * 60_000;
  const notes: string[] = [];
  ctx.log(`list: starting the server on ${games} games`);
  const server = await startServer(ctx, outDir, lifetimeMs);
  // The same server with its list caches off (what the cache is measured against), and with a cache
  // large enough for the whole mix (what the default's 8 MiB trades away for memory).
  let cold: Running | undefined;
  let big: Running | undefined;
  let ceiling: Running | undefined;
  let peer: Running | undefined;
  try {
    // Every fixed path must answer 200 before anything is timed; the ceiling replays those answers.
    // It replays all of the mix, not a sample: a sample small enough to sit in the CPU's cache would
    // be read faster than the mix's own bytes are.
    const fixtures: Record<string, { status: number; headers: Record<string, string>; body_base64: string }> = {};
    const bodyBytes = new Map<string, number>();
    for (const p of [repeated, ...slugs, ...mix]) {
      const r = await fetchRaw(server.base + p);
      if (r.status !== 200) throw new Error(`server answered ${r.status} to ${p}: ${r.body.toString('utf8').slice(0, 300)}`);
      fixtures[p] = { status: r.status, headers: r.headers, body_base64: r.body.toString('base64') };
      bodyBytes.set(p, r.body.length);
    }
    const mixBytes = mix.reduce((sum, p) => sum + bodyBytes.get(p)!, 0) / mix.length;
    const firstPage = await fetchRaw(server.base + DEFAULT_PAGE_PATH);
    if (firstPage.status !== 200) throw new Error(`server answered ${firstPage.status} to ${DEFAULT_PAGE_PATH}`);
    const payload = listPayload(firstPage.body, mix.map((p) => Buffer.from(fixtures[p]!.body_base64, 'base64')));
    const bytesOf = (p: string) => bodyBytes.get(p)!.toLocaleString('en-US');
    const fixturesFile = path.join(work, 'ceiling-fixtures.json');
    writeFileSync(fixturesFile, JSON.stringify(fixtures));
    const spawnIn = (args: string[]) => ({ args, cwd: ctx.benchRoot, env: process.env, lifetimeMs });
    cold = await startServer(ctx, outDir, lifetimeMs, { LIST_CACHE_MB: '0' });
    big = await startServer(ctx, outDir, lifetimeMs, { LIST_CACHE_MB: String(BIG_LIST_CACHE_MB) });
    const cport = await freePort();
    ceiling = await startAndWait('ceiling', spawnIn(['scripts/bench/ceiling.ts', fixturesFile, String(cport)]), cport, status, repeated);
    try {
      const pport = await freePort();
      peer = await startAndWait('SQLite peer', spawnIn(['scripts/bench/sqlite-peer.ts', path.join(outDir, BUNDLE_REL), String(pport)]), pport, status, '/api/rtp/list?limit=1');
      notes.push(`SQLite peer (${/\(([^)]*)\)/.exec(peer.proc.output())?.[1] ?? 'sqlite'}): ready in ${Math.round(peer.readyMs)} ms, RSS ${Math.round(rssMiB(peer.proc.child.pid!) ?? 0)} MiB. ${await compareWithPeer(server.base, peer.base, mix.slice(0, 200))}`);
    } catch (err) {
      ctx.problems.push(`SQLite peer: ${(err as Error).message.slice(0, 500)}`);
    }

    let sent = 0;
    let coldSent = 0;
    let bigSent = 0;
    const nextOf = () => () => `/api/rtp/list?${toSearch(stream.at(sent++))}`;
    const scenarios: Scenario[] = [
      scenario('a', 'mix of distinct queries', 'server', server, { kind: 'cycle', paths: mix }, `${mix.length} distinct list queries (the registry's words, providers and types, every sort, deep offsets, limits 10 to 200), cycled in order across all connections.`),
      scenario('b', 'one repeated query', 'server', server, { kind: 'fixed', path: repeated }, `\`${repeated}\` every time (${bytesOf(repeated)} bytes).`),
      scenario('c', 'static slug JSON', 'server', server, { kind: 'cycle', paths: slugs }, `4 pre-rendered \`/api/rtp/<slug>\` files in turn (${slugs.map(bytesOf).join(', ')} bytes).`),
      scenario('u', 'uncached distinct queries', 'server', server, { kind: 'stream', next: nextOf() }, `a stream of distinct list queries (${stream.size.toLocaleString('en-US')} in all) never repeated within the run, so no response-cache hit.`),
      scenario('a0', 'mix, list caches off', 'server', cold, { kind: 'cycle', paths: mix }, 'the mix of (a) on the same server started with LIST_CACHE_MB=0 (no response or page cache).'),
      scenario('u0', 'uncached, list caches off', 'server', cold, { kind: 'stream', next: () => `/api/rtp/list?${toSearch(stream.at(coldSent++))}` }, 'the stream of (u), from its start, on the server with LIST_CACHE_MB=0.'),
      scenario('a+', `mix, LIST_CACHE_MB=${BIG_LIST_CACHE_MB}`, 'server', big, { kind: 'cycle', paths: mix }, `the mix of (a) on the same server started with LIST_CACHE_MB=${BIG_LIST_CACHE_MB}, room for every response of the mix.`),
      scenario('u+', `uncached, LIST_CACHE_MB=${BIG_LIST_CACHE_MB}`, 'server', big, { kind: 'stream', next: () => `/api/rtp/list?${toSearch(stream.at(bigSent++))}` }, `the stream of (u), from its start, on the server with LIST_CACHE_MB=${BIG_LIST_CACHE_MB}.`),
      scenario('d', 'ceiling: same bytes as (b)', 'ceiling', ceiling, { kind: 'fixed', path: repeated }, "scripts/bench/ceiling.ts, a bare node:http server answering (b)'s path with (b)'s recorded status, headers and body."),
      scenario("d'", 'ceiling: same bytes as (c)', 'ceiling', ceiling, { kind: 'cycle', paths: slugs }, "the same bare server answering (c)'s four paths with their recorded responses."),
      scenario('e', 'ceiling: same bytes as (a)', 'ceiling', ceiling, { kind: 'cycle', paths: mix }, `the same bare server answering the ${mix.length} queries of (a) with their recorded responses (${Math.round(mixBytes).toLocaleString('en-US')} bytes on average), cycled in the same order.`),
    ];
    if (peer) {
      let peerSent = 0;
      scenarios.push(
        scenario('pa', 'peer: mix of distinct queries', 'peer', peer, { kind: 'cycle', paths: mix }, 'the SQLite FTS5 peer with the mix of (a).'),
        scenario('pu', 'peer: uncached distinct queries', 'peer', peer, { kind: 'stream', next: () => `/api/rtp/list?${toSearch(stream.at(peerSent++))}` }, 'the SQLite FTS5 peer with the stream of (u), from its start.'),
      );
    }
    await measure(ctx, scenarios, load);

    const rps = (id: string) => scenarios.find((s) => s.id === id)?.runs.map((r) => r.reqPerSec);
    const ratios: NonNullable<BenchResult['list']>['ratios'] = [];
    for (const [a, b, label] of [
      ['a', 'a0', 'mix (a) / the same mix, caches off (a0)'],
      ['u', 'u0', 'uncached (u) / caches off (u0)'],
      ['a+', 'a0', `mix with LIST_CACHE_MB=${BIG_LIST_CACHE_MB} (a+) / caches off (a0)`],
      ['u+', 'u0', `uncached with LIST_CACHE_MB=${BIG_LIST_CACHE_MB} (u+) / caches off (u0)`],
      ['a+', 'e', `mix with LIST_CACHE_MB=${BIG_LIST_CACHE_MB} (a+) / its ceiling (e)`],
      ['a', 'e', 'mix (a) / its ceiling (e)'],
      ['a', 'd', 'mix (a) / ceiling (d)'],
      ['b', 'd', 'repeated query (b) / ceiling (d)'],
      ['c', "d'", "static slug JSON (c) / ceiling (d')"],
      ['u', 'd', 'uncached (u) / ceiling (d)'],
      ['a', 'pa', 'mix (a) / SQLite peer (pa)'],
      ['u', 'pu', 'uncached (u) / SQLite peer (pu)'],
    ] as const) {
      const x = rps(a);
      const y = rps(b);
      if (x && y) ratios.push({ id: `${a}/${b}`, label, ratio: pairedRatios(x, y) });
    }
    const cpuOf = (id: string) => scenarios.find((s) => s.id === id)?.cpu;
    for (const [a, b, label] of [
      ['a', 'a0', 'server CPU per request: mix (a) / caches off (a0)'],
      ['u', 'u0', 'server CPU per request: uncached (u) / caches off (u0)'],
      ['a+', 'a0', `server CPU per request: mix with LIST_CACHE_MB=${BIG_LIST_CACHE_MB} (a+) / caches off (a0)`],
      // Against a ceiling the ceiling comes first, so these read as the req/s ratios do: 1.00x is the
      // bare server's cost per request, 0.50x twice it. Unlike req/s, they do not move when the load
      // generator, not the server, is what limits a run.
      ['e', 'a', 'server CPU per request: its ceiling (e) / mix (a)'],
      ['d', 'b', 'server CPU per request: ceiling (d) / repeated query (b)'],
      ["d'", 'c', "server CPU per request: ceiling (d') / static slug JSON (c)"],
      ['d', 'u', 'server CPU per request: ceiling (d) / uncached (u)'],
    ] as const) {
      const x = cpuOf(a);
      const y = cpuOf(b);
      if (x && y && x.length === y.length && x.length > 0) ratios.push({ id: `cpu ${a}/${b}`, label, ratio: pairedRatios(x, y) });
    }
    if (sent > stream.size) notes.push('The uncached stream wrapped around: some of its answers may have come from a cache.');
    notes.push(
      `The server runs with RATE_LIMIT=${BENCH_RATE_LIMIT} and its access log on (stdout, discarded), as in production; each connection comes from its own address (127.0.0.2 onwards, scripts/bench/load.ts), so the rate limiter and the log see many clients. CPU per request is the answering process's user + system time (/proc/<pid>/stat, all threads) over each run, divided by the responses of that run: it does not depend on who else shares the cores. The load generator is autocannon, ${load.connections} connections, in the bench process; which core ran what is under settings.`,
      `${load.rounds} round(s) of ${load.roundS} s per scenario after a ${load.warmupS} s warm-up each; scenarios interleaved round by round.`,
    );
    const after = rssMiB(server.proc.child.pid!);
    const bigAfter = rssMiB(big.proc.child.pid!);
    if (bigAfter !== undefined) notes.push(`RSS of the LIST_CACHE_MB=${BIG_LIST_CACHE_MB} server after all scenarios: ${Math.round(bigAfter)} MiB (the default server's is below the table).`);
    return { games, scenarios: scenarios.map(row), ratios, payload, ...(after === undefined ? {} : { serverRssAfterMiB: after }), notes };
  } finally {
    await Promise.all([server.proc.stop(), cold?.proc.stop(), big?.proc.stop(), ceiling?.proc.stop(), peer?.proc.stop()]);
  }
}

interface ListBody {
  meta: { filtered: number };
  facets: { providers: Array<{ provider: string; count: number }>; game_types: Array<{ game_type: string; count: number }> };
  items: Array<{ canonical_slug: string }>;
}

/**
 * Compares the peer's answers with the server's on sample queries: status, filtered count, facet
 * counts and the page (slugs in order, except under sort=relevance).
 */
async function compareWithPeer(serverBase: string, peerBase: string, paths: readonly string[]): Promise<string> {
  let same = 0;
  const facetKey = (b: ListBody) => JSON.stringify([b.facets.providers.map((p) => `${p.provider}:${p.count}`).sort(), b.facets.game_types.map((t) => `${t.game_type}:${t.count}`).sort()]);
  // Under sort=relevance the page depends on each engine's own scores: not compared.
  const slugsOf = (b: ListBody, p: string) => (/[?&]sort=relevance(&|$)/.test(p) ? '' : b.items.map((i) => i.canonical_slug).join());
  for (const p of paths) {
    const [a, b] = await Promise.all([fetchRaw(serverBase + p), fetchRaw(peerBase + p)]);
    if (a.status !== 200 || b.status !== 200) continue;
    const x = JSON.parse(a.body.toString('utf8')) as ListBody;
    const y = JSON.parse(b.body.toString('utf8')) as ListBody;
    if (x.meta.filtered === y.meta.filtered && facetKey(x) === facetKey(y) && slugsOf(x, p) === slugsOf(y, p)) same++;
  }
  return `It gave the server's status, filtered count, facet counts and page on ${same} of the first ${paths.length} mix queries (differences come from the route's typo tolerance, which FTS5 prefix terms do not have).`;
}
