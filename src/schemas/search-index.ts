// How the list's search index is made and read: the fields indexed, the matching and scoring
// options, and the shape of the index's head in the list bundle (list-bundle.ts PackedSearchIndex).
// The build makes the index (src/emit/list/search-index.ts), the list engine searches it
// (src/list/search.ts); both read these, and the options are written in MiniSearch's vocabulary so
// that MiniSearch's own `search` over the same documents answers alike (the tests compare the two).
import type { SearchOptions } from 'minisearch';
import { z } from 'zod';

/** The fields indexed for each record. */
export interface SearchDocument {
  /** The record's index (slug order); the index's postings name records by it. */
  id: number;
  name: string;
  slug: string;
  provider: string;
  display: string;
  /** The provider's group and every label the sources write for it (data/provider-aliases.json), and the game's studio, so a search finds a game by each. */
  also?: string;
}

/** The indexed fields, in the order the postings and field lengths are laid out (field id = position). */
export const SEARCH_FIELDS = ['name', 'slug', 'provider', 'display', 'also'] as const satisfies ReadonlyArray<keyof SearchDocument>;

/**
 * Prefix matching on every word (`book` finds "Book of Dead"); typo tolerance (edit distance
 * 0.2 × length, so 1 for 5-7 letters, at most `maxFuzzy`) only for words of 5 letters or more, so
 * short words do not fuzz; every word of the query must match (AND). Name matches weigh double for
 * `sort=relevance`; a term reached as a longer word (prefix) or with typos (fuzzy) weighs less than
 * the word as typed (`weights`, see src/list/search.ts); each match is scored by BM25+ (`bm25`).
 * MiniSearch's defaults for weights and bm25, written out so the scores do not depend on them; maxFuzzy
 * is 2, not its default 6: a walk at 6 edits visits most of the index's words for one long word, and
 * no typo of a game name needs more than 2 (docs/security.md, Search work).
 */
export const SEARCH_OPTIONS = {
  prefix: true,
  fuzzy: (term: string) => (term.length >= 5 ? 0.2 : false),
  combineWith: 'AND',
  boost: { name: 2 },
  weights: { prefix: 0.375, fuzzy: 0.45 },
  maxFuzzy: 2,
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
} as const satisfies SearchOptions;

/** The index's head (the list bundle's `search_head` section, JSON): what scoring needs besides the postings. */
export const SearchIndexHeadSchema = z.strictObject({
  documentCount: z.int().min(0),
  /** Per field (SEARCH_FIELDS order), the running mean of its length in distinct terms, as BM25 reads it. */
  averageFieldLength: z.array(z.number().min(0)).length(SEARCH_FIELDS.length),
});
export type SearchIndexHead = z.output<typeof SearchIndexHeadSchema>;

/** The result of one search: matching record indexes ascending, and the same ordered by relevance. */
export interface SearchMatch {
  ids: Int32Array;
  byRelevance: Int32Array;
  /** Bytes the match keeps besides `ids` until its relevance order is made (what that order is made from), for a cache's weight. */
  heldBytes: number;
}
