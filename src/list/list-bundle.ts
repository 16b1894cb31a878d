// The compiled list bundle, dist/server/list-bundle.bin: the build compiles the registry bundle once
// (records pre-encoded, filter columns, sort permutations, the serialised search index, meta and
// history; layout in compiled-file.ts) so the server reads one file at start instead of parsing
// and indexing 40 MB of JSON. It names the registry bundle it was made from (SHA-256 and size).
import { createHash } from 'node:crypto';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RegistryBundle } from '../registry/bundle.ts';
import { BUNDLE_FILE } from '../registry/bundle.ts';
import { compileColumns, digestRecords, searchDocuments, sortedRecords } from './compile.ts';
import { buildSearchIndex, packSearchIndex } from './search.ts';
import { decodeCompiled, encodeCompiled, type CompiledSource, type ServiceInputData } from './compiled-file.ts';

export const LIST_BUNDLE_FILE = 'list-bundle.bin';
/** The build record the server checks the list bundle against (written by src/build/emit.ts). */
const BUILD_INFO_FILE = 'build-info.json';

/** SHA-256 and size of a registry bundle file's bytes. */
export function sourceOf(bundleBytes: Uint8Array): CompiledSource {
  return { sha256: createHash('sha256').update(bundleBytes).digest('hex'), bytes: bundleBytes.byteLength };
}

/** The list bundle's bytes (chunks, in order) for `bundle`, whose file holds `bundleBytes`. */
export function encodeListBundle(bundle: RegistryBundle, bundleBytes: Uint8Array): Uint8Array[] {
  const records = sortedRecords(bundle);
  const compiled = { ...compileColumns(bundle, records), searchIndex: packSearchIndex(buildSearchIndex(searchDocuments(records))) };
  return encodeCompiled({ compiled, meta: bundle.meta, history: bundle.history, source: sourceOf(bundleBytes) });
}

/**
 * Writes `serverDir`/list-bundle.bin for `bundle`, which must be what `serverDir`/registry-bundle.json
 * holds (the build calls this right after writing that file). Deterministic: same data, same bytes.
 */
export async function writeListBundle(serverDir: string, bundle: RegistryBundle): Promise<void> {
  const chunks = encodeListBundle(bundle, await readFile(path.join(serverDir, BUNDLE_FILE)));
  const handle = await open(path.join(serverDir, LIST_BUNDLE_FILE), 'w');
  try {
    await handle.writev(chunks);
  } finally {
    await handle.close();
  }
}

/** Writes the list bundle's bytes (from src/build/workers.ts `compileListBundleInWorker`) into `serverDir`. */
export async function writeListBundleBytes(serverDir: string, bytes: Uint8Array): Promise<void> {
  await writeFile(path.join(serverDir, LIST_BUNDLE_FILE), bytes);
}

function rebuild(file: string, why: string): Error {
  return new Error(`The list bundle ${file} ${why}: rebuild with \`npm run build\`.`);
}

/**
 * Reads `serverDir`/list-bundle.bin and checks it belongs to this build: its data version, freeze
 * time and game count must equal build-info.json's, and the registry bundle file must have the size
 * it was compiled from (the full hash is dist-check's job). Throws a one-line error naming
 * `npm run build` otherwise. Returns null when there is no list bundle and no build-info.json
 * (a bundle file outside a build, e.g. in tests): the caller compiles the bundle instead.
 */
export async function readListBundle(serverDir: string): Promise<ServiceInputData | null> {
  const file = path.join(serverDir, LIST_BUNDLE_FILE);
  const infoFile = path.join(serverDir, BUILD_INFO_FILE);
  const [bytes, infoText, bundleStat] = await Promise.all([
    readFile(file).catch(() => null),
    readFile(infoFile, 'utf8').catch(() => null),
    stat(path.join(serverDir, BUNDLE_FILE)).catch(() => null),
  ]);
  if (bytes === null) {
    if (infoText === null) return null;
    throw rebuild(file, 'is missing');
  }
  let data: ServiceInputData;
  try {
    data = decodeCompiled(bytes);
  } catch (err) {
    throw rebuild(file, `cannot be read (${(err as Error).message})`);
  }
  if (data.source === undefined) throw rebuild(file, 'does not name the registry bundle it was compiled from');
  if (infoText === null) throw rebuild(file, `has no ${BUILD_INFO_FILE} beside it`);
  let info: { data_version?: unknown; frozen_at?: unknown; games?: unknown };
  try {
    info = JSON.parse(infoText) as typeof info;
  } catch {
    throw rebuild(file, `cannot be checked: ${infoFile} is not valid JSON`);
  }
  const c = data.compiled;
  if (info.data_version !== c.dataVersion || info.frozen_at !== c.frozenAt || info.games !== c.total) {
    throw rebuild(file, `does not match ${infoFile} (data ${c.dataVersion} frozen ${c.frozenAt}, ${c.total} games; build-info: data ${String(info.data_version)} frozen ${String(info.frozen_at)}, ${String(info.games)} games)`);
  }
  if (bundleStat === null || bundleStat.size !== data.source.bytes) {
    throw rebuild(file, `was compiled from another ${BUNDLE_FILE} (${data.source.bytes} bytes, found ${bundleStat === null ? 'none' : `${bundleStat.size} bytes`})`);
  }
  return data;
}

/**
 * dist-check's test of a list bundle against the registry bundle file's bytes: null when it was
 * compiled from exactly those bytes, else the problem.
 */
export function listBundleProblem(listBytes: Uint8Array, bundleBytes: Uint8Array): string | null {
  let data: ServiceInputData;
  try {
    data = decodeCompiled(Buffer.from(listBytes.buffer, listBytes.byteOffset, listBytes.byteLength));
  } catch {
    return 'is not a list bundle';
  }
  if (data.source === undefined || data.compiled.searchIndex === undefined) return 'is not a list bundle';
  const c = data.compiled;
  if (digestRecords(c.offsets, c.recordBytes) !== c.recordsDigest) return 'is damaged: its records do not match their digest';
  const source = sourceOf(bundleBytes);
  if (data.source.sha256 !== source.sha256 || data.source.bytes !== source.bytes) return `is stale: it was compiled from another ${BUNDLE_FILE}`;
  return null;
}
