// Build baseline: a plain Node script that writes the same number of files, with the same relative paths and sizes, as a built output,
// from as many threads as the build writes from (its main thread writes the game pages while a worker writes the JSON families).
// Usage: node scripts/bench/baseline-writer.ts <manifest.json> <out-dir>   (manifest: [[relative path, bytes], ...])
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { listFiles } from './data.ts';

/** Threads the build writes files from (src/emit/game-pages.ts on the main thread, src/emit/write-worker.ts). */
export const BUILD_WRITER_THREADS = 2;

export type Manifest = Array<[string, number]>;

/** The relative path and size of every file under `dir`, in path order. */
export function manifestOf(dir: string): Manifest {
  return listFiles(dir).map((f) => [f, statSync(path.join(dir, f)).size]);
}

/** Writes one file per manifest entry (every `parts`-th from `part`) under `outDir` (directories created once each); returns the bytes written. */
export function writeLike(manifest: Manifest, outDir: string, part = 0, parts = 1): number {
  const largest = manifest.reduce((m, [, size]) => Math.max(m, size), 0);
  const filler = Buffer.alloc(largest, 0x61);
  const made = new Set<string>();
  let bytes = 0;
  for (let k = part; k < manifest.length; k += parts) {
    const [rel, size] = manifest[k]!;
    const file = path.join(outDir, rel);
    const dir = path.dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, filler.subarray(0, size));
    bytes += size;
  }
  return bytes;
}

/** Writes the manifest from `threads` threads (this one and `threads - 1` workers), each every `threads`-th file. */
export async function writeLikeParallel(manifestFile: string, outDir: string, threads = BUILD_WRITER_THREADS): Promise<number> {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const self = fileURLToPath(import.meta.url);
  const others = Array.from(
    { length: threads - 1 },
    (_, k) =>
      new Promise<number>((resolve, reject) => {
        const worker = new Worker(self, { workerData: { manifestFile, outDir, part: k + 1, parts: threads } });
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
  );
  const mine = writeLike(manifest, outDir, 0, threads);
  return mine + (await Promise.all(others)).reduce((a, b) => a + b, 0);
}

if (!isMainThread) {
  const { manifestFile, outDir, part, parts } = workerData as { manifestFile: string; outDir: string; part: number; parts: number };
  const { parentPort } = await import('node:worker_threads');
  parentPort!.postMessage(writeLike(JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest, outDir, part, parts));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [manifestFile, outDir] = process.argv.slice(2) as [string, string];
  const bytes = await writeLikeParallel(manifestFile, outDir);
  console.log(`baseline: wrote ${bytes} bytes from ${BUILD_WRITER_THREADS} threads`);
}
