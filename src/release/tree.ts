// Content hashes of a built release: one SHA-256 per served file (client/**) plus the server's
// registry bundle and build record, kept as `files.sha256` (sha256sum format) in the release folder.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { IO_CONCURRENCY } from '../lib/write.ts';
import { BUILD_INFO_FILE, BUNDLE_FILE } from '../schemas/dist.ts';

/** Relative path (posix, `client/…` or `server/…`) → lowercase hex SHA-256 of the file. */
export type FileHashes = Map<string, string>;

/** Server files that belong to the content (the rest of server/ is code, with build-folder paths baked in). */
export const HASHED_SERVER_FILES = [`server/${BUNDLE_FILE}`, `server/${BUILD_INFO_FILE}`] as const;

async function listFiles(root: string, rel: string, out: string[]): Promise<void> {
  const entries = await readdir(path.join(root, rel), { withFileTypes: true });
  for (const entry of entries) {
    const child = `${rel}/${entry.name}`;
    if (entry.isDirectory()) await listFiles(root, child, out);
    else if (entry.isFile()) out.push(child);
    // Symbolic links and other special files are never part of a release (the server refuses them too).
  }
}

/** Hashes every file under `outDir/client` and the content files of `outDir/server`. */
export async function hashTree(outDir: string): Promise<FileHashes> {
  const files: string[] = [];
  await listFiles(outDir, 'client', files);
  files.push(...HASHED_SERVER_FILES);
  files.sort(compareBytes);
  const hashes = await pLimit(IO_CONCURRENCY).map(files, async (rel) =>
    createHash('sha256')
      .update(await readFile(path.join(outDir, rel)))
      .digest('hex'),
  );
  return new Map(files.map((f, i) => [f, hashes[i]!]));
}

/** Plain code-unit order, the same on every machine and locale. */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `files.sha256` text: `<hash>  <path>` per line, sorted by path (checkable with `sha256sum -c`). */
export function formatHashes(hashes: FileHashes): string {
  return [...hashes.keys()]
    .sort(compareBytes)
    .map((f) => `${hashes.get(f)!}  ${f}\n`)
    .join('');
}

/** Parses `files.sha256`; throws on a malformed line. */
export function parseHashes(text: string): FileHashes {
  const out: FileHashes = new Map();
  for (const [k, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const m = /^([0-9a-f]{64}) {2}(\S(?:.*\S)?)$/.exec(line);
    if (m === null) throw new Error(`files.sha256 line ${k + 1} is not "<sha256>  <path>"`);
    out.set(m[2]!, m[1]!);
  }
  return out;
}

/** The release's content hash: SHA-256 of its `files.sha256` text. */
export function contentHash(hashes: FileHashes): string {
  return createHash('sha256').update(formatHashes(hashes)).digest('hex');
}
