// Build phase: timed `astro build` runs (peak RSS via GNU time) alternating with the plain file-writing baseline.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { manifestOf, type Manifest } from './baseline-writer.ts';
import { GNU_TIME, parseTimeMaxRss, spawnBounded, watchPeakRss } from './procs.ts';

export const ASTRO_BIN = 'node_modules/astro/bin/astro.mjs';
export const BUNDLE_REL = 'server/registry-bundle.json';

export interface TimedRun {
  ok: boolean;
  seconds: number;
  peakRssMiB?: number;
  tail: string;
}

/**
 * Removes `dir` and flushes dirty pages to disk (untimed), so a timed run neither pays for the
 * previous run's writeback nor leaves its own to the next one.
 */
export function freshFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  spawnSync('sync', { timeout: 300_000 });
}

/** Runs `astro build` for one registry into a fresh `outDir`; wall time measured around the child process. */
export async function timedBuild(cwd: string, dataDir: string, outDir: string, timeoutMs: number): Promise<TimedRun> {
  freshFolder(outDir);
  const env = { ...process.env, RTP_DATA_DIR: dataDir, RTP_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1' };
  const astro = [path.join(cwd, ASTRO_BIN), 'build'];
  const [cmd, args] = GNU_TIME ? [GNU_TIME, ['-v', process.execPath, ...astro]] : [process.execPath, astro];
  const t = performance.now();
  const p = spawnBounded(cmd, args, { cwd, env, timeoutMs });
  const stopWatch = GNU_TIME || p.child.pid === undefined ? undefined : watchPeakRss(p.child.pid);
  const code = await p.exited;
  const seconds = (performance.now() - t) / 1000;
  const out = p.output();
  const peakRssMiB = GNU_TIME ? parseTimeMaxRss(out) : stopWatch?.();
  const ok = code === 0 && existsSync(path.join(outDir, BUNDLE_REL));
  return { ok, seconds, ...(peakRssMiB === undefined ? {} : { peakRssMiB }), tail: out.slice(-3000) };
}

/** Runs the baseline writer as its own Node process for `manifest` into a fresh `outDir`. */
export async function timedBaseline(cwd: string, manifestFile: string, outDir: string, timeoutMs: number): Promise<TimedRun> {
  freshFolder(outDir);
  const t = performance.now();
  const p = spawnBounded(process.execPath, [path.join(cwd, 'scripts/bench/baseline-writer.ts'), manifestFile, outDir], { cwd, timeoutMs });
  const code = await p.exited;
  const seconds = (performance.now() - t) / 1000;
  return { ok: code === 0, seconds, tail: p.output().slice(-3000) };
}

/** Writes the built output's file list (relative paths and sizes) for the baseline; returns it. */
export function writeManifest(outDir: string, file: string): Manifest {
  const manifest = manifestOf(outDir);
  writeFileSync(file, JSON.stringify(manifest));
  return manifest;
}
