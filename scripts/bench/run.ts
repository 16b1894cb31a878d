// `npm run bench`: measures the build, server start and memory, the list route under load and the
// search in process, writes the run to bench/results/<date>-<commit>.json and renders BENCHMARKS.md
// from every result file there. `--root <dir>` measures another checkout's code (e.g. the commit
// before a change) with this bench, for before/after figures from one machine and one method.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs as parseArgv } from 'node:util';
import { alive } from '../../src/lib/write.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { buildOnce, buildPhase, BUNDLE_REL, type BuildContext } from './build.ts';
import { realRegistry, synthRegistry, type DataSet } from './data.ts';
import { listPhase, serverEntry, type LoadSettings } from './list.ts';
import { memoryPhase } from './memory.ts';
import { CORES, killAll, withLoadGeneratorPinned } from './procs.ts';
import { renderBenchmarks, renderSummary } from './render.ts';
import { environment, readResults, resultsDir, writeResult, type BenchResult } from './results.ts';
import { searchPhase } from './search-bench.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PHASES = ['build', 'memory', 'list', 'search'] as const;
type Phase = (typeof PHASES)[number];
const USAGE = 'use --quick, --only <build,memory,list,search>, --list-registry <synthetic|real>, --list-games <n>, --root <checkout>, --out <folder>, --keep';
/** Most synthetic games the list phase accepts (the largest size of the build phase). */
const MAX_LIST_GAMES = 250_000;

export interface Config {
  mode: BenchResult['mode'];
  only: Set<Phase>;
  /** The checkout whose code is measured (its astro build and its bundled server). */
  codeRoot: string;
  /** Where the result file goes: bench/results for full and partial runs, a temp folder for quick ones. */
  outDir: string;
  sizes: number[];
  real: boolean;
  buildRuns: number;
  memoryStarts: number;
  listGames: number;
  /** The list phase's registry: the synthetic one of `listGames` games, or the shipped one (data/). */
  listRegistry: 'synthetic' | 'real';
  load: LoadSettings;
  keep: boolean;
}

/** Parses the command line; throws with the usage on anything unknown. */
export function parseArgs(argv: readonly string[]): Config {
  let values: { quick?: boolean; only?: string; root?: string; out?: string; keep?: boolean; 'list-registry'?: string; 'list-games'?: string };
  try {
    ({ values } = parseArgv({ args: [...argv], options: { quick: { type: 'boolean' }, only: { type: 'string' }, root: { type: 'string' }, out: { type: 'string' }, keep: { type: 'boolean' }, 'list-registry': { type: 'string' }, 'list-games': { type: 'string' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new Error(`${(err as Error).message} (${USAGE})`);
  }
  const only = new Set<Phase>();
  for (const p of values.only?.split(',') ?? []) {
    if (!(PHASES as readonly string[]).includes(p)) throw new Error(`--only: unknown phase "${p}" (one of ${PHASES.join(', ')})`);
    only.add(p as Phase);
  }
  const quick = values.quick === true;
  const listRegistry = values['list-registry'] ?? 'synthetic';
  if (listRegistry !== 'synthetic' && listRegistry !== 'real') throw new Error(`--list-registry: "${listRegistry.slice(0, 40)}" is neither synthetic nor real`);
  const listGames = values['list-games'] === undefined ? (quick ? 200 : 50_000) : Number(values['list-games']);
  if (!Number.isInteger(listGames) || listGames < 1 || listGames > MAX_LIST_GAMES) throw new Error(`--list-games: "${String(values['list-games']).slice(0, 40)}" is not a whole number from 1 to ${MAX_LIST_GAMES}`);
  const mode = quick ? 'quick' : only.size > 0 ? 'partial' : 'full';
  const sizes = quick ? [200] : [5000, 50_000, 250_000];
  // With other phases the list phase uses their registries: its size must be one of theirs.
  const onlyList = only.size === 1 && only.has('list');
  if (values['list-games'] !== undefined && !onlyList && !sizes.includes(listGames)) throw new Error(`--list-games: with phases other than list, one of ${sizes.join(', ')}`);
  return {
    mode,
    only: only.size > 0 ? only : new Set(PHASES),
    codeRoot: path.resolve(values.root ?? ROOT),
    outDir: path.resolve(values.out ?? (quick ? path.join(os.tmpdir(), 'rtp-bench-quick') : resultsDir(ROOT))),
    sizes,
    real: !quick,
    buildRuns: quick ? 1 : 3,
    memoryStarts: quick ? 1 : 3,
    listGames,
    listRegistry,
    load: { connections: 10, warmupS: quick ? 0.5 : 1.5, rounds: quick ? 1 : 3, roundS: quick ? 1 : 3.5, mixCount: quick ? 1000 : 3000, seed: 20261121 },
    keep: values.keep === true,
  };
}

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const WORK_PREFIX = 'rtp-bench-work-';
const RM_MARKER = '.rm-pid';

/**
 * Waits for an earlier run's background deletion (its `<work>.rm-pid` names the process; a quick run
 * does not wait) and deletes work folders of runs that were killed, so nothing is measured while
 * the disk is busy deleting.
 */
async function removeStaleWork(wait: boolean): Promise<void> {
  const tmp = os.tmpdir();
  const busy = new Set<string>();
  for (const name of readdirSync(tmp).filter((n) => n.startsWith(WORK_PREFIX) && n.endsWith(RM_MARKER))) {
    const marker = path.join(tmp, name);
    const pid = Number(readFileSync(marker, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
      if (!wait) {
        busy.add(name.slice(0, -RM_MARKER.length));
        continue;
      }
      log(`waiting for the previous run's background cleanup (pid ${pid})`);
      const t = performance.now();
      while (alive(pid) && existsSync(marker) && performance.now() - t < 15 * 60_000) await sleep(1000);
    }
    rmSync(marker, { force: true });
  }
  for (const name of readdirSync(tmp)) {
    const m = new RegExp(`^${WORK_PREFIX}(\\d+)-[^.]*$`).exec(name);
    if (m && !busy.has(name) && !alive(Number(m[1]))) rmSync(path.join(tmp, name), { recursive: true, force: true, maxRetries: 5 });
  }
}

/** Deletes the work folder: at once for quick runs, else by a detached low-priority rm (a full run leaves ~1.5 million files). */
function cleanUp(work: string, now: boolean): void {
  if (now) return rmSync(work, { recursive: true, force: true });
  const child = spawn('nice', ['-n', '19', 'sh', '-c', 'rm -rf -- "$0"; rm -f -- "$0$1"', work, RM_MARKER], { detached: true, stdio: 'ignore' });
  child.on('error', () => rmSync(work, { recursive: true, force: true }));
  if (child.pid !== undefined) writeFileSync(`${work}${RM_MARKER}`, String(child.pid));
  child.unref();
  log(`deleting ${work} in the background (pid ${child.pid}); the next run waits for it`);
}

async function main(): Promise<number> {
  const cfg = parseArgs(process.argv.slice(2));
  await removeStaleWork(cfg.mode !== 'quick');
  const t0 = performance.now();
  const load0 = os.loadavg()[0]!;
  const limitS = cfg.mode === 'quick' ? 180 : 30 * 60;
  const deadline = setTimeout(() => {
    console.error(`bench: exceeded ${limitS} s, killing every child process`);
    killAll();
    process.exit(1);
  }, limitS * 1000);
  deadline.unref();
  const env = environment(ROOT, cfg.codeRoot);
  const work = mkdtempSync(path.join(os.tmpdir(), `${WORK_PREFIX}${process.pid}-`));
  const problems: string[] = [];
  log(`mode ${cfg.mode}, phases ${[...cfg.only].join(',')}, code ${cfg.codeRoot} (${env.code}), temp ${work}`);

  const onlyList = !cfg.only.has('build') && !cfg.only.has('memory') && !cfg.only.has('search');
  const sets: DataSet[] = [];
  const listOnReal = cfg.listRegistry === 'real';
  for (const count of onlyList ? (listOnReal ? [] : [cfg.listGames]) : cfg.sizes) {
    try {
      sets.push(await synthRegistry(ROOT, count, cfg.load.seed, log));
    } catch (err) {
      problems.push(`synthetic registry of ${count}: ${(err as Error).message.slice(0, 800)}`);
    }
  }
  if ((cfg.real && !onlyList) || listOnReal) sets.push(realRegistry(ROOT));
  const ctx: BuildContext = { benchRoot: ROOT, codeRoot: cfg.codeRoot, work, runs: cfg.buildRuns, timeoutMs: cfg.mode === 'quick' ? 120_000 : 600_000, log, problems, built: new Map() };
  const server = { benchRoot: ROOT, codeRoot: cfg.codeRoot, entry: await serverEntry(cfg.codeRoot, work), log, problems };
  log(`server under test: ${path.relative(work, server.entry).startsWith('..') ? server.entry : `${path.relative(work, server.entry)} (bundled from ${cfg.codeRoot})`}`);
  const result: BenchResult = {
    format: 1,
    env,
    mode: cfg.mode,
    elapsedS: 0,
    settings: {
      load: `autocannon, ${cfg.load.connections} connections, ${cfg.load.rounds} round(s) of ${cfg.load.roundS} s per scenario`,
      'query mix': `${cfg.load.mixCount} distinct queries, seed ${cfg.load.seed}`,
    },
    data: sets.map((d) => ({ label: d.label, games: d.games, origin: d.origin })),
    problems,
  };
  try {
    if (cfg.only.has('build')) result.build = await buildPhase(ctx, sets);
    if (cfg.only.has('memory')) {
      await buildOnce(ctx, sets);
      result.memory = await memoryPhase(server, sets, ctx.built, cfg.memoryStarts, cfg.load);
    }
    const listSet = listOnReal ? sets.find((d) => d.origin === 'shipped') : sets.find((d) => d.games === cfg.listGames && d.origin !== 'shipped');
    if (cfg.only.has('list') && listSet !== undefined) {
      await buildOnce(ctx, [listSet]);
      const outDir = ctx.built.get(listSet.label);
      if (outDir !== undefined) {
        try {
          result.list = await withLoadGeneratorPinned(async (pinned) => {
            result.settings.cores = pinned
              ? `list phase: the load generator (the bench process) on CPU ${CORES.loadGenerator}, server, ceiling and peer on CPU ${CORES.servers} (taskset); the other phases unpinned`
              : 'not pinned (one core, or no taskset): the load generator and the servers share the cores';
            return listPhase(server, outDir, listSet.games, work, cfg.load);
          });
        } catch (err) {
          problems.push(`list phase: ${(err as Error).message.slice(0, 1000)}`);
        }
      }
    }
    if (cfg.only.has('search')) {
      const bundleOf = (ds: DataSet) => async (): Promise<RegistryBundle> => {
        const out = ctx.built.get(ds.label);
        return out !== undefined ? (JSON.parse(readFileSync(path.join(out, BUNDLE_REL), 'utf8')) as RegistryBundle) : makeBundle(await loadRegistryOrThrow(ds.dir));
      };
      result.search = await searchPhase(sets.map((ds) => ({ label: ds.label, games: ds.games, bundle: bundleOf(ds) })), cfg.load.mixCount, cfg.load.seed, log);
    }
  } finally {
    killAll();
  }
  result.elapsedS = (performance.now() - t0) / 1000;
  result.settings['load average'] = `${load0.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end (1-minute averages)`;
  const file = await writeResult(cfg.outDir, result);
  console.log(renderSummary(result));
  console.log(`result: ${file}`);
  if (cfg.mode !== 'quick' && cfg.outDir === resultsDir(ROOT)) {
    writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), renderBenchmarks(readResults(cfg.outDir)));
    console.log('report: BENCHMARKS.md');
  }
  if (cfg.keep) log(`kept ${work}`);
  else cleanUp(work, cfg.mode === 'quick');
  const failed = problems.length > 0 || (result.list?.scenarios.some((s) => s.non2xx + s.errors > 0) ?? false) || (result.build?.rows.some((b) => b.error !== undefined) ?? false);
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
