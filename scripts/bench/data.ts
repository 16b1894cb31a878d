// Benchmark data: synthetic registries from `npm run data:synth`, cached by count, seed and generator hash.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { spawnBounded } from './procs.ts';

const SYNTH_SCRIPT = 'scripts/synth.ts';
const CACHE_ROOT = path.join(os.tmpdir(), 'rtp-bench-cache');

/** Relative paths of every file under `dir`, sorted (forward slashes). */
export function listFiles(dir: string): string[] {
  return fg.sync('**', { cwd: dir, dot: true, onlyFiles: true }).sort();
}

/** sha256 of a source file and, recursively, the relative modules it imports (so a generator change invalidates the cache). */
export function sourceHash(entry: string): string {
  const seen = new Set<string>();
  const h = createHash('sha256');
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    h.update(file);
    h.update(text);
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) visit(path.resolve(path.dirname(file), m[1]!));
  };
  visit(path.resolve(entry));
  return h.digest('hex').slice(0, 16);
}

export interface DataSet {
  /** "1k", "10k", "50k", "real", or the count for other sizes. */
  label: string;
  dir: string;
  games: number;
  /** How the data came to be: generated now, reused from the cache, or the shipped registry. */
  origin: 'generated' | 'cached' | 'shipped';
}

/** Counts the game files of a registry directory (data/games/<provider>/<slug>.json). */
export function countGames(dir: string): number {
  return fg.sync('games/*/*.json', { cwd: dir, onlyFiles: true }).length;
}

/** Human label of a game count: 1000 -> "1k". */
export function sizeLabel(count: number): string {
  return count % 1000 === 0 ? `${count / 1000}k` : String(count);
}

/**
 * A synthetic registry of `count` games: reused from the cache when it has an entry of its count, seed
 * and generator hash (an entry appears whole, by rename, or not at all), else generated.
 */
export async function synthRegistry(cwd: string, count: number, seed: number, log: (s: string) => void): Promise<DataSet> {
  const gen = sourceHash(path.join(cwd, SYNTH_SCRIPT));
  const key = `synth-${count}-${seed}-${gen}`;
  const dir = path.join(CACHE_ROOT, key);
  const label = sizeLabel(count);
  if (existsSync(dir)) {
    log(`data ${label}: cached ${dir}`);
    return { label, dir, games: count, origin: 'cached' };
  }
  mkdirSync(CACHE_ROOT, { recursive: true });
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const args = [SYNTH_SCRIPT, '--count', String(count), '--out', tmp, '--seed', String(seed)];
  const t = performance.now();
  const p = spawnBounded(process.execPath, args, { cwd, timeoutMs: 5 * 60_000 });
  const code = await p.exited;
  const generateMs = performance.now() - t;
  const games = code === 0 ? countGames(tmp) : 0;
  if (games !== count) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`data:synth --count ${count} ${code === 0 ? `wrote ${games} games` : `exited ${code}: ${p.output().slice(-2000)}`}`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`data ${label}: generated in ${(generateMs / 1000).toFixed(1)} s -> ${dir}`);
  // Entries of this size and seed made by other versions of the generator are never read again (at 250k games each is gigabytes).
  const stale = readdirSync(CACHE_ROOT).filter((name) => name.startsWith(`synth-${count}-${seed}-`) && !name.startsWith(key));
  for (const name of stale) rmSync(path.join(CACHE_ROOT, name), { recursive: true, force: true });
  if (stale.length > 0) log(`data ${label}: removed ${stale.length} cache entries of earlier generator versions`);
  return { label, dir, games, origin: 'generated' };
}

/** The shipped registry (data/). */
export function realRegistry(cwd: string): DataSet {
  const dir = path.join(cwd, 'data');
  return { label: 'real', dir, games: countGames(dir), origin: 'shipped' };
}
