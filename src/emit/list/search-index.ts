// Builds the list's search index over the records and packs it for the list bundle
// (src/schemas/search-index.ts has the options and the MiniSearch internals read here), plus the
// reference search through MiniSearch's own API that tests and the benchmark compare against.
import MiniSearch from 'minisearch';
import type { PackedSearchIndex } from '../../schemas/list-bundle.ts';
import { INDEX_OPTIONS, LEAF, type MiniSearchInternals, type PackedHead, type PackedNode, type SearchDocument, type SearchMatch } from '../../schemas/search-index.ts';

/** Builds the index over `docs` (id = record index). */
export function buildSearchIndex(docs: Iterable<SearchDocument>): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
  for (const doc of docs) index.add(doc);
  return index;
}

/**
 * Records matching every one of `terms` (already tokenised by `queryTerms`). Relevance order is
 * MiniSearch's score, descending, ties by record index (= slug order).
 */
export function referenceSearch(index: MiniSearch<SearchDocument>, terms: readonly string[]): SearchMatch {
  if (terms.length === 0) return { ids: new Int32Array(0), byRelevance: new Int32Array(0) };
  const results = index.search(terms.join(' '));
  const n = results.length;
  const ids = new Int32Array(n);
  const scores = new Float64Array(n);
  const order: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = results[i]!;
    ids[i] = r.id as number;
    scores[i] = r.score;
    order[i] = i;
  }
  order.sort((a, b) => scores[b]! - scores[a]! || ids[a]! - ids[b]!);
  const byRelevance = new Int32Array(n);
  for (let i = 0; i < n; i++) byRelevance[i] = ids[order[i]!]!;
  ids.sort();
  return { ids, byRelevance };
}

/** Flattens an index built by `buildSearchIndex` (no stored fields, numeric ids). */
export function packSearchIndex(index: MiniSearch<SearchDocument>): PackedSearchIndex {
  const ms = index as unknown as MiniSearchInternals;
  const fields = Object.keys(ms._fieldIds).length;
  const ids: number[] = [];
  const freqs: number[] = [];
  const starts: number[] = [0];
  let terms = 0;
  const packNode = (node: Map<string, unknown>): PackedNode =>
    [...node].map(([key, value]): [string, PackedNode | number] => {
      if (key !== LEAF) return [key, packNode(value as Map<string, unknown>)];
      const data = value as Map<number, Map<number, number>>;
      const term = terms++;
      for (let f = 0; f < fields; f++) {
        for (const [id, freq] of data.get(f) ?? []) {
          ids.push(id);
          freqs.push(freq);
        }
        starts.push(ids.length);
      }
      return [LEAF, term];
    });
  const tree = packNode(ms._index._tree);
  const documentIds: number[] = [];
  const fieldLength: number[] = [];
  for (const [shortId, id] of ms._documentIds) {
    if (typeof id !== 'number') throw new Error('packSearchIndex: document ids must be numbers');
    documentIds.push(shortId, id);
    const lengths = ms._fieldLength.get(shortId)!;
    for (let f = 0; f < fields; f++) fieldLength.push(lengths[f] ?? 0);
  }
  if (ms._storedFields.size > 0 && [...ms._storedFields.values()].some((v) => v !== undefined && Object.keys(v as object).length > 0)) {
    throw new Error('packSearchIndex: stored fields are not supported');
  }
  const head: PackedHead = {
    documentCount: ms._documentCount,
    nextId: ms._nextId,
    fieldIds: ms._fieldIds,
    averageFieldLength: ms._avgFieldLength,
    dirtCount: ms._dirtCount,
    tree,
  };
  return {
    head: JSON.stringify(head),
    postingStart: Uint32Array.from(starts),
    postingIds: Int32Array.from(ids),
    postingFreqs: Uint32Array.from(freqs),
    documentIds: Int32Array.from(documentIds),
    fieldLength: Uint32Array.from(fieldLength),
  };
}
