// How the list's search index is made and read: the fields indexed, the tokenising, the matching
// options, and the MiniSearch internals the packed form (list-bundle.ts PackedSearchIndex) mirrors.
// The build packs an index with these (src/emit/list/search-index.ts); the list engine unpacks it
// and searches it the same way (src/list/search.ts).
import type { Options, SearchOptions } from 'minisearch';
import { tokenize } from './text.ts';

/** The fields indexed for each record. */
export interface SearchDocument {
  id: number;
  name: string;
  slug: string;
  provider: string;
  display: string;
  /** The provider's group and every label the sources write for it (data/provider-aliases.json), and the game's studio, so a search finds a game by each. */
  also?: string;
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
  fields: ['name', 'slug', 'provider', 'display', 'also'],
  idField: 'id',
  tokenize,
  processTerm: (term) => term,
  searchOptions: SEARCH_OPTIONS,
};

/** A node of the term tree: [edge label, child node or term number (at the leaf label '')]. */
export type PackedNode = Array<[string, PackedNode | number]>;

export interface PackedHead {
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  dirtCount: number;
  tree: PackedNode;
}

/** MiniSearch's internals read and written here (stable within its major version 7). */
export interface MiniSearchInternals {
  _index: { _tree: Map<string, unknown>; constructor: new (tree: Map<string, unknown>) => unknown };
  _documentCount: number;
  _nextId: number;
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _dirtCount: number;
  _documentIds: Map<number, unknown>;
  _idToShortId: Map<unknown, number>;
  _fieldLength: Map<number, number[]>;
  _storedFields: Map<number, unknown>;
}

/** The label of a term's leaf in MiniSearch's radix tree. */
export const LEAF = '';

/** The result of one search: matching record indexes ascending, and the same ordered by relevance. */
export interface SearchMatch {
  ids: Int32Array;
  byRelevance: Int32Array;
}
