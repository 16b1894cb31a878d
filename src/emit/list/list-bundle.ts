// Writes dist/server/list-bundle.bin (src/schemas/list-bundle.ts): the registry bundle compiled once
// at build time, so the server reads one file at start instead of parsing and indexing 40 MB of
// JSON. It names the registry bundle file it was made from (SHA-256 and size); dist-check verifies
// that and the records' digest.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RegistryBundle } from '../../registry/bundle.ts';
import { LIST_BUNDLE_FILE } from '../../schemas/dist.ts';
import type { ListBundle, ListBundleSource } from '../../schemas/list-bundle.ts';
import { decodeListBundle, encodeListBundle } from '../../schemas/list-bundle-file.ts';
import { compileColumns, digestRecords, searchDocuments, sortedRecords } from './compile.ts';
import { buildSearchIndex } from './search-index.ts';

/** SHA-256 and size of a registry bundle file's bytes. */
export function sourceOf(bundleBytes: Uint8Array): ListBundleSource {
  return { sha256: createHash('sha256').update(bundleBytes).digest('hex'), bytes: bundleBytes.byteLength };
}

/** Compiles `bundle`, whose registry bundle file holds `bundleBytes`, into its list bundle. */
export function compileListBundle(bundle: RegistryBundle, bundleBytes: Uint8Array): ListBundle {
  const records = sortedRecords(bundle);
  return {
    ...compileColumns(bundle, records),
    searchIndex: buildSearchIndex(searchDocuments(records, bundle.providers)),
    meta: bundle.meta,
    history: bundle.history,
    source: sourceOf(bundleBytes),
  };
}

/** The list bundle file's bytes for `bundle` (one buffer). Deterministic: same data, same bytes. */
export function listBundleBytes(bundle: RegistryBundle, bundleBytes: Uint8Array): Uint8Array {
  const chunks = encodeListBundle(compileListBundle(bundle, bundleBytes));
  const out = new Uint8Array(chunks.reduce((sum, c) => sum + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Writes the list bundle's bytes (from worker.ts) into `serverDir`. */
export async function writeListBundle(serverDir: string, bytes: Uint8Array): Promise<void> {
  await writeFile(path.join(serverDir, LIST_BUNDLE_FILE), bytes);
}

/**
 * dist-check's test of a list bundle against the registry bundle file's bytes: null when it was
 * compiled from exactly those bytes and its records match their digest, else the problem.
 */
export function listBundleProblem(listBytes: Uint8Array, bundleBytes: Uint8Array): string | null {
  let data: ListBundle;
  try {
    data = decodeListBundle(listBytes);
  } catch (err) {
    return `cannot be read (${(err as Error).message})`;
  }
  if (digestRecords(data.offsets, data.recordBytes, data.itemOffsets, data.itemBytes) !== data.recordsDigest)
    return 'is damaged: its records do not match their digest';
  const source = sourceOf(bundleBytes);
  if (data.source.sha256 !== source.sha256 || data.source.bytes !== source.bytes) return 'is stale: it was compiled from another registry-bundle.json';
  return null;
}
