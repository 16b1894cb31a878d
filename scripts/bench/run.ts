// `npm run bench`: measures the build, server start and memory and the list route under load, writes the run to bench/results/<date>-<commit>.json and renders BENCHMARKS.md
// from every result file there. `--root <dir>` measures another checkout's code (e.g. the commit
// before a change) with this bench, for before/after figures from one machine and one method.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs as parseArgv } from 'node:util';
import { alive } from '../../src/lib/write.ts';
import { type BuildContext, buildOnce, buildPhase } from './build.ts';
import { type DataSet, realRegistry, synthRegistry } from './data.ts';
import { type LoadSettings, listPhase, type ServerContext, serverEntry } from './list.ts';
import { memoryPhase } from './memory.ts';
import { CORES, killAll, withLoadGeneratorPinned } from './procs.ts';
import { renderBenchmarks, renderRunLog, renderSummary } from './render.ts';
import { type BenchResult, environment, readResults, resultsDir, writeResult } from './results.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PHASES = ['build', 'memory', 'list'] as const;
type Phase = (typeof PHASES)[number];
const USAGE =
  'use --render, --quick, --only <build,memory,list>, --list-registry <synthetic|real>, --list-games <n>, --root <checkout>, --out <folder>, --keep';
/** Most synthetic games the list phase accepts (the largest size of the build phase). */
const MAX_LIST_GAMES = 250_000;

const [flag, text] = [{ type: 'boolean' }, { type: 'string' }] as const;
const OPTIONS = { render: flag, quick: flag, only: text, root: text, out: text, keep: flag, 'list-registry': text, 'list-games': text };

/** Parses the command line; throws with the usage on anything unknown. */
export function parseArgs(argv: readonly string[]) {
  const values = (() => {
    try {
      return parseArgv({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
    } catch (err) {
      throw new Error(`${(err as Error).message} (${USAGE})`);
    }
  })();
  const only = new Set<Phase>();
  for (const p of values.only?.split(',') ?? []) {
    if (!(PHASES as readonly string[]).includes(p)) throw new Error(`--only: unknown phase "${p}" (one of ${PHASES.join(', ')})`);
    only.add(p as Phase);
  }
  const quick = values.quick === true;
  const listRegistry = values['list-registry'] ?? 'synthetic';
  if (listRegistry !== 'synthetic' && listRegistry !== 'real') throw new Error(`--list-registry: "${listRegistry.slice(0, 40)}" is neither synthetic nor real`);
  const listGames = values['list-games'] === undefined ? (quick ? 200 : 50_000) : Number(values['list-games']);
  if (!Number.isInteger(listGames) || listGames < 1 || listGames > MAX_LIST_GAMES)
    throw new Error(`--list-games: "${String(values['list-games']).slice(0, 40)}" is not a whole number from 1 to ${MAX_LIST_GAMES}`);
  const mode: BenchResult['mode'] = quick ? 'quick' : only.size > 0 ? 'partial' : 'full';
  const sizes = quick ? [200] : [5000, 50_000, 250_000];
  // With other phases the list phase uses their registries: its size must be one of theirs.
  const onlyList = only.size === 1 && only.has('list');
  if (values['list-games'] !== undefined && !onlyList && !sizes.includes(listGames))
    throw new Error(`--list-games: with phases other than list, one of ${sizes.join(', ')}`);
  return {
    /** Only render BENCHMARKS.md and bench/runs.md again from bench/results (no measurement). */
    render: values.render === true,
    mode,
    only: only.size > 0 ? only : new Set(PHASES),
    /** The checkout whose code is measured (its astro build and its bundled server). */
    codeRoot: path.resolve(values.root ?? ROOT),
    /** Where the result file goes: bench/results for full and partial runs, a temp folder for quick ones. */
    outDir: path.resolve(values.out ?? (quick ? path.join(os.tmpdir(), 'rtp-bench-quick') : resultsDir(ROOT))),
    sizes,
    real: !quick,
    buildRuns: quick ? 1 : 3,
    memoryStarts: quick ? 1 : 3,
    listGames,
    /** The list phase's registry: the synthetic one of `listGames` games, or the shipped one (data/). */
    listRegistry: listRegistry as 'synthetic' | 'real',
    load: {
      connections: 10,
      warmupS: quick ? 0.5 : 1.5,
      rounds: quick ? 1 : 3,
      roundS: quick ? 1 : 3.5,
      mixCount: quick ? 1000 : 3000,
      seed: 20261121,
    } satisfies LoadSettings,
    keep: values.keep === true,
  };
}

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const WORK_PREFIX = 'rtp-bench-work-';

/**
 * Deletes the work folders of runs that were killed (their process gone). A run deletes its own
 * only after its last measurement: on this disk deleting a build's files slows what runs beside it.
 */
function removeStaleWork(): void {
  for (const name of readdirSync(os.tmpdir())) {
    const m = new RegExp(`^${WORK_PREFIX}(\\d+)-`).exec(name);
    if (m && !alive(Number(m[1]))) rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true, maxRetries: 5 });
  }
}

/** Renders BENCHMARKS.md and bench/runs.md from every result file in bench/results. */
function writeReports(): void {
  const runs = readResults(resultsDir(ROOT));
  writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), renderBenchmarks(runs));
  writeFileSync(path.join(ROOT, 'bench', 'runs.md'), renderRunLog(runs));
  console.log('report: BENCHMARKS.md, bench/runs.md');
}

async function main(): Promise<number> {
  const cfg = parseArgs(process.argv.slice(2));
  if (cfg.render) {
    writeReports();
    return 0;
  }
  removeStaleWork();
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

  const onlyList = !cfg.only.has('build') && !cfg.only.has('memory');
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
  const ctx: BuildContext & ServerContext = {
    entry: await serverEntry(cfg.codeRoot, work),
    benchRoot: ROOT,
    codeRoot: cfg.codeRoot,
    work,
    runs: cfg.buildRuns,
    timeoutMs: cfg.mode === 'quick' ? 120_000 : 600_000,
    log,
    problems,
    built: new Map(),
  };
  log(`server under test: ${path.relative(work, ctx.entry).startsWith('..') ? ctx.entry : `${path.relative(work, ctx.entry)} (bundled from ${cfg.codeRoot})`}`);
  const result: BenchResult = {
    format: 1,
    env,
    mode: cfg.mode,
    elapsedS: 0,
    settings: {
      load: `autocannon in the bench process, ${cfg.load.connections} connections; per scenario a ${cfg.load.warmupS} s warm-up, then ${cfg.load.rounds} round(s) of ${cfg.load.roundS} s, scenarios interleaved round by round`,
      'query mix': `${cfg.load.mixCount} distinct queries, seed ${cfg.load.seed}`,
    },
    data: sets.map((d) => ({ label: d.label, games: d.games, origin: d.origin })),
    problems,
  };
  try {
    if (cfg.only.has('build')) result.build = await buildPhase(ctx, sets);
    if (cfg.only.has('memory')) {
      await buildOnce(ctx, sets);
      result.memory = await memoryPhase(ctx, sets, cfg.memoryStarts, cfg.load);
    }
    const listSet = listOnReal ? sets.find((d) => d.origin === 'shipped') : sets.find((d) => d.games === cfg.listGames && d.origin !== 'shipped');
    if (cfg.only.has('list') && listSet !== undefined) {
      await buildOnce(ctx, [listSet]);
      const outDir = ctx.built.get(listSet.label);
      if (outDir !== undefined) {
        try {
          result.list = await withLoadGeneratorPinned(async (pinned) => {
            result.settings.cores = pinned
              ? `list phase: the load generator (the bench process) on CPU ${CORES.loadGenerator}, server and ceiling on CPU ${CORES.servers} (taskset); the other phases unpinned`
              : 'not pinned (one core, or no taskset): the load generator and the servers share the cores';
            return listPhase(ctx, outDir, listSet.games, work, cfg.load);
          });
        } catch (err) {
          problems.push(`list phase: ${(err as Error).message.slice(0, 1000)}`);
        }
      }
    }
  } finally {
    killAll();
  }
  result.elapsedS = (performance.now() - t0) / 1000;
  result.settings['load average'] = `${load0.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end (1-minute averages)`;
  const file = await writeResult(cfg.outDir, result);
  console.log(renderSummary(result));
  console.log(`result: ${file}`);
  if (cfg.mode !== 'quick' && cfg.outDir === resultsDir(ROOT)) writeReports();
  clearTimeout(deadline); // the measurements are done: deleting a full run's files takes minutes
  if (cfg.keep) log(`kept ${work}`);
  else {
    log(`deleting ${work}`);
    rmSync(work, { recursive: true, force: true, maxRetries: 5 });
  }
  const failed =
    problems.length > 0 ||
    (result.list?.scenarios.some((s) => s.non2xx + s.errors > 0) ?? false) ||
    (result.build?.rows.some((b) => b.error !== undefined) ?? false);
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
