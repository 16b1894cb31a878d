// MiniSearch itself, through its public API, over the same documents and options as the list's own
// index: the reference the owned index (src/emit/list/search-index.ts, src/list/search.ts) must
// answer exactly like, matches, scores and relevance order alike.
import MiniSearch from 'minisearch';
import { SEARCH_FIELDS, SEARCH_OPTIONS, type SearchDocument, type SearchMatch } from '../../src/schemas/search-index.ts';
import { tokenize } from '../../src/schemas/text.ts';

/** A MiniSearch index over `docs` with the list's fields, tokenising and search options. */
export function referenceIndex(docs: readonly SearchDocument[]): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>({
    fields: [...SEARCH_FIELDS],
    idField: 'id',
    tokenize,
    processTerm: (term) => term,
    searchOptions: SEARCH_OPTIONS,
  });
  index.addAll(docs);
  return index;
}

/** MiniSearch's scores for `terms` (already tokenised by `queryTerms`), by document id. */
export function referenceScores(index: MiniSearch<SearchDocument>, terms: readonly string[]): Map<number, number> {
  return new Map(terms.length === 0 ? [] : index.search(terms.join(' ')).map((r) => [r.id as number, r.score]));
}

/**
 * Records matching every one of `terms` (already tokenised by `queryTerms`), as MiniSearch's
 * `search` finds them; relevance order is its score, descending, ties by record index (= slug order).
 */
export function referenceSearch(index: MiniSearch<SearchDocument>, terms: readonly string[]): SearchMatch {
  const scores = referenceScores(index, terms);
  const ids = Int32Array.from(scores.keys()).sort();
  const byRelevance = Int32Array.from([...scores.keys()].sort((a, b) => scores.get(b)! - scores.get(a)! || a - b));
  return { ids, byRelevance, heldBytes: 0 };
}
