// Build phase: timed `astro build` runs of the code under test (peak RSS via GNU time), each
// followed by the plain file-writing baseline (baseline-writer.ts) for the same files.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUILD_WRITER_THREADS, manifestOf } from './baseline-writer.ts';
import type { DataSet } from './data.ts';
import { type SpawnOptions, spawnBounded } from './procs.ts';
import type { VocabularyRecord } from './query-mix.ts';
import type { BuildRow, PhaseResult } from './results.ts';
import { pairedRatios, summarize } from './stats.ts';

const ASTRO_BIN = 'node_modules/astro/bin/astro.mjs';
/** GNU time, for the peak RSS of a build (Debian's `time` package); without it the build's peak RSS is not reported. */
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
export const BUNDLE_REL = 'server/registry-bundle.json';

/** The public records of the registry built in `outDir` (its list bundle). */
export function bundleRecords(outDir: string): Array<VocabularyRecord & { canonical_slug: string }> {
  return (JSON.parse(readFileSync(path.join(outDir, BUNDLE_REL), 'utf8')) as { records: Array<VocabularyRecord & { canonical_slug: string }> }).records;
}

const GiB = 1024 ** 3;
/** The file system's block: a small file takes one whole. */
const BLOCK = 4096;

/**
 * Why a build run of `games` games cannot be afforded in `dir`'s file system, or null when it can:
 * the run writes a build and its baseline, each estimated from the largest build so far (its bytes
 * and a block per file, per game), and must leave 2 GiB free. Unknown (before the first build): null.
 */
export function diskShortfall(dir: string, games: number, bytesPerGame: number): string | null {
  if (bytesPerGame === 0) return null;
  const fs = statfsSync(dir);
  const free = fs.bavail * fs.bsize;
  const need = 2 * bytesPerGame * games + 2 * GiB;
  return free >= need ? null : `${(free / GiB).toFixed(1)} GiB free, about ${(need / GiB).toFixed(1)} GiB needed (a build and its baseline)`;
}

/** Runs a command into a fresh `outDir`; wall time around the child process. */
async function timed(outDir: string, cmd: string, args: string[], opts: SpawnOptions) {
  // Untimed: dirty pages flushed, so a run neither pays for the last one's writeback nor leaves its own.
  rmSync(outDir, { recursive: true, force: true });
  spawnSync('sync', { timeout: 300_000 });
  const t = performance.now();
  const p = spawnBounded(cmd, args, opts);
  const code = await p.exited;
  return { code, seconds: (performance.now() - t) / 1000, out: p.output() };
}

/** Runs `astro build` in `codeRoot` for one registry into a fresh `outDir`. */
async function timedBuild(codeRoot: string, dataDir: string, outDir: string, timeoutMs: number) {
  const env = { ...process.env, RTP_DATA_DIR: dataDir, RTP_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1' };
  const astro = [path.join(codeRoot, ASTRO_BIN), 'build'];
  const [cmd, args] = GNU_TIME ? [GNU_TIME, ['-v', process.execPath, ...astro]] : [process.execPath, astro];
  const { code, seconds, out } = await timed(outDir, cmd, args, { cwd: codeRoot, env, timeoutMs });
  const maxRss = GNU_TIME ? /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(out) : null; // GNU time -v
  const peakRssMiB = maxRss ? Number(maxRss[1]) / 1024 : undefined;
  const ok = code === 0 && existsSync(path.join(outDir, BUNDLE_REL));
  return { ok, seconds, ...(peakRssMiB === undefined ? {} : { peakRssMiB }), tail: out.slice(-3000) };
}

/** Runs the baseline writer as its own Node process for the file list in `manifestFile`, into a fresh `outDir`. */
async function timedBaseline(benchRoot: string, manifestFile: string, outDir: string, timeoutMs: number) {
  const writer = [path.join(benchRoot, 'scripts/bench/baseline-writer.ts'), manifestFile, outDir];
  const { code, seconds, out } = await timed(outDir, process.execPath, writer, { cwd: benchRoot, timeoutMs });
  return { ok: code === 0, seconds, tail: out.slice(-3000) };
}

export interface BuildContext {
  benchRoot: string;
  codeRoot: string;
  work: string;
  runs: number;
  timeoutMs: number;
  log: (s: string) => void;
  problems: string[];
  /** Output folders of successful builds by data set label, for the later phases. */
  built: Map<string, string>;
}

/** Builds and times each data set `runs` times, each build paired with a baseline run. */
export async function buildPhase(ctx: BuildContext, sets: readonly DataSet[]): Promise<PhaseResult<'build'>> {
  const rows: BuildRow[] = [];
  /** Output bytes per game of the largest build so far (the sets go from small to large). */
  let bytesPerGame = 0;
  for (const ds of sets) {
    const builds: number[] = [];
    const baselines: number[] = [];
    const rss: number[] = [];
    let files = 0;
    let bytes = 0;
    let error: string | undefined;
    const manifestFile = path.join(ctx.work, `manifest-${ds.label}.json`);
    for (let run = 1; run <= ctx.runs && error === undefined; run++) {
      ctx.log(`build ${ds.label} run ${run}/${ctx.runs}`);
      // Every run writes into folders that never existed; nothing is deleted while the suite measures
      // (deleting a build's files before the next run slowed that run down, by up to 20x on this disk).
      const short = diskShortfall(ctx.work, ds.games, bytesPerGame);
      if (short !== null) {
        error = `not enough disk space for run ${run}: ${short}`;
        ctx.problems.push(`build ${ds.label}: ${error}`);
        break;
      }
      const outDir = path.join(ctx.work, `out-${ds.label}-${run}`);
      const b = await timedBuild(ctx.codeRoot, ds.dir, outDir, ctx.timeoutMs);
      if (!b.ok) {
        error = `astro build failed in run ${run}`;
        ctx.problems.push(`build ${ds.label} run ${run} failed: ${b.tail.trim().slice(-1500)}`);
        break;
      }
      const manifest = manifestOf(outDir);
      writeFileSync(manifestFile, JSON.stringify(manifest));
      if (run === 1) [files, bytes] = [manifest.length, manifest.reduce((s, [, n]) => s + n, 0)];
      bytesPerGame = Math.max(bytesPerGame, (bytes + files * BLOCK) / ds.games);
      const base = await timedBaseline(ctx.benchRoot, manifestFile, path.join(ctx.work, `baseline-${ds.label}-${run}`), ctx.timeoutMs);
      if (!base.ok) {
        error = `baseline writer failed in run ${run}`;
        ctx.problems.push(`baseline ${ds.label} failed: ${base.tail.trim().slice(-800)}`);
        break;
      }
      builds.push(b.seconds);
      baselines.push(base.seconds);
      if (b.peakRssMiB !== undefined) rss.push(b.peakRssMiB);
      ctx.built.set(ds.label, outDir);
      ctx.log(`  build ${b.seconds.toFixed(2)} s (peak RSS ${b.peakRssMiB?.toFixed(0) ?? '?'} MiB), baseline ${base.seconds.toFixed(2)} s, ${files} files`);
    }
    if (builds.length === 0) continue;
    rows.push({
      label: ds.label,
      games: ds.games,
      files,
      bytes,
      buildS: summarize(builds),
      baselineS: summarize(baselines),
      ratio: pairedRatios(builds, baselines),
      ...(rss.length > 0 ? { peakRssMiB: summarize(rss) } : {}),
      ...(error === undefined ? {} : { error }),
    });
  }
  return {
    rows,
    notes: [
      `${ctx.runs} build run(s) per registry into fresh folders under ${os.tmpdir()}; after each, the baseline (one Node process writing the same relative paths with the same sizes from as many threads as the build writes from: ${BUILD_WRITER_THREADS}) into another fresh folder on the same disk. \`sync\` runs (untimed) before each timed run; nothing is deleted until all measurements are done.`,
      'The build also reads and validates the registry, shapes and checks every response, compiles the list bundle and runs Astro and Vite; the ratio is per pair, so disk drift between runs cancels.',
    ],
  };
}

/** Builds each data set once, untimed, when no timed build left an output for it (for the list and memory phases). */
export async function buildOnce(ctx: BuildContext, sets: readonly DataSet[]): Promise<void> {
  for (const ds of sets) {
    if (ctx.built.has(ds.label)) continue;
    const outDir = path.join(ctx.work, `out-${ds.label}`);
    ctx.log(`build ${ds.label} (untimed, for the later phases)`);
    const b = await timedBuild(ctx.codeRoot, ds.dir, outDir, ctx.timeoutMs);
    if (b.ok) ctx.built.set(ds.label, outDir);
    else ctx.problems.push(`build ${ds.label} failed: ${b.tail.trim().slice(-800)}`);
  }
}
