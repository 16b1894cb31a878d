// Full-text matching for `q` with MiniSearch: name, slug words, provider key and display name.
import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import { tokenize } from './text.ts';

/** The fields indexed for each record. */
export interface SearchDocument {
  id: number;
  name: string;
  slug: string;
  provider: string;
  display: string;
}

/**
 * Prefix matching on every word (`book` finds "Book of Dead"); typo tolerance (edit distance
 * 0.2 × length, so 1 for 5-7 letters) only for words of 5 letters or more, so short words do not
 * fuzz; every word of the query must match (AND). Name matches weigh double for `sort=relevance`.
 */
export const SEARCH_OPTIONS: SearchOptions = {
  prefix: true,
  fuzzy: (term: string) => (term.length >= 5 ? 0.2 : false),
  combineWith: 'AND',
  boost: { name: 2 },
};

/** Index options; text is folded by `tokenize`, so terms need no further processing. */
export const INDEX_OPTIONS: Options<SearchDocument> = {
  fields: ['name', 'slug', 'provider', 'display'],
  idField: 'id',
  tokenize,
  processTerm: (term) => term,
  searchOptions: SEARCH_OPTIONS,
};

/** The result of one search: matching record indexes ascending, and the same ordered by relevance. */
export interface SearchMatch {
  ids: Int32Array;
  byRelevance: Int32Array;
}

/** Builds the index over `docs` (id = record index). */
export function buildSearchIndex(docs: Iterable<SearchDocument>): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>(INDEX_OPTIONS);
  for (const doc of docs) index.add(doc);
  return index;
}

/** Restores an index serialised with `JSON.stringify(index)`. */
export function loadSearchIndex(json: string): MiniSearch<SearchDocument> {
  return MiniSearch.loadJSON<SearchDocument>(json, INDEX_OPTIONS);
}

/**
 * Records matching every one of `terms` (already tokenised by `queryTerms`). Relevance order is
 * MiniSearch's score, descending, ties by record index (= slug order).
 */
export function search(index: MiniSearch<SearchDocument>, terms: readonly string[]): SearchMatch {
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
