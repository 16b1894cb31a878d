// Build baseline: a plain Node script that writes the same number of files, with the same relative paths and sizes, as a built output.
// Usage: node scripts/bench/baseline-writer.ts <manifest.json> <out-dir>   (manifest: [[relative path, bytes], ...])
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { listFiles } from './data.ts';

export type Manifest = Array<[string, number]>;

/** The relative path and size of every file under `dir`, in path order. */
export function manifestOf(dir: string): Manifest {
  return listFiles(dir).map((f) => [f, statSync(path.join(dir, f)).size]);
}

/** Writes one file per manifest entry under `outDir` (directories created once each); returns the bytes written. */
export function writeLike(manifest: Manifest, outDir: string): number {
  const largest = manifest.reduce((m, [, size]) => Math.max(m, size), 0);
  const filler = Buffer.alloc(largest, 0x61);
  const made = new Set<string>();
  let bytes = 0;
  for (const [rel, size] of manifest) {
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [manifestFile, outDir] = process.argv.slice(2);
  if (!manifestFile || !outDir) {
    console.error('usage: node scripts/bench/baseline-writer.ts <manifest.json> <out-dir>');
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const bytes = writeLike(manifest, outDir);
  console.log(`baseline: wrote ${manifest.length} files, ${bytes} bytes`);
}
