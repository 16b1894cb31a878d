// Builds the list's search index over the records, in the list bundle's form (src/schemas/list-bundle.ts
// PackedSearchIndex): the index is the registry's own, words -> records per field, counted as
// src/list/search.ts scores them (src/schemas/search-index.ts has the fields and options), and its
// words as a trie (src/list/term-trie.ts reads it).
import SearchableMap from 'minisearch/SearchableMap';
import type { PackedSearchIndex } from '../../schemas/list-bundle.ts';
import { SEARCH_FIELDS, type SearchDocument, type SearchIndexHead } from '../../schemas/search-index.ts';
import { compareStrings, tokenize } from '../../schemas/text.ts';

/**
 * Indexes `docs` (document k must have id k, its record index): each field's words (`tokenize`),
 * with the records holding them and how often, and the words' trie. A field a document lacks is
 * left out, as MiniSearch's `add` leaves it out, the mean field lengths are MiniSearch's running
 * means, and words are numbered in the order MiniSearch's term tree visits them (`termOrder`), so
 * the scores equal those of MiniSearch's own `search` over the same documents (the tests compare
 * them). Deterministic.
 */
export function buildSearchIndex(docs: Iterable<SearchDocument>): PackedSearchIndex {
  const F = SEARCH_FIELDS.length;
  const termOf = new Map<string, number>();
  const terms: string[] = [];
  // One entry per (term, field, record), in record order: key = term × F + field.
  const keys: number[] = [];
  const ids: number[] = [];
  const freqs: number[] = [];
  const fieldLength: number[] = [];
  const averageFieldLength = new Array<number>(F).fill(0);
  const entryOf = new Map<number, number>(); // term -> its entry in the current field
  let count = 0;
  for (const doc of docs) {
    if (doc.id !== count) throw new Error(`buildSearchIndex: document ${count} has id ${doc.id}; ids must be the record indexes in order`);
    for (let f = 0; f < F; f++) {
      const value = doc[SEARCH_FIELDS[f]!];
      fieldLength.push(0);
      if (value == null) continue;
      const tokens = tokenize(value);
      entryOf.clear();
      for (const token of tokens) {
        let term = termOf.get(token);
        if (term === undefined) {
          term = terms.length;
          termOf.set(token, term);
          terms.push(token);
        }
        const entry = entryOf.get(term);
        if (entry !== undefined) freqs[entry]!++;
        else {
          entryOf.set(term, keys.length);
          keys.push(term * F + f);
          ids.push(count);
          freqs.push(1);
        }
      }
      // Distinct terms, and MiniSearch's running mean over the documents so far (one that lacks the field leaves it as it is).
      fieldLength[count * F + f] = entryOf.size;
      averageFieldLength[f] = (averageFieldLength[f]! * count + entryOf.size) / (count + 1);
    }
    count++;
  }
  const rank = termOrder(terms);
  for (let e = 0; e < keys.length; e++) keys[e] = rank[Math.floor(keys[e]! / F)]! * F + (keys[e]! % F);
  // Counting sort by key: stable, so each posting range stays in record order.
  const postingStart = new Uint32Array(terms.length * F + 1);
  for (const key of keys) postingStart[key + 1]!++;
  for (let k = 1; k < postingStart.length; k++) postingStart[k]! += postingStart[k - 1]!;
  const next = postingStart.slice(0, -1);
  const postingIds = new Int32Array(keys.length);
  const postingFreqs = new Uint32Array(keys.length);
  for (let e = 0; e < keys.length; e++) {
    const at = next[keys[e]!]!++;
    postingIds[at] = ids[e]!;
    postingFreqs[at] = freqs[e]!;
  }
  const head: SearchIndexHead = { documentCount: count, averageFieldLength };
  return { head: JSON.stringify(head), postingStart, postingIds, postingFreqs, fieldLength: Uint32Array.from(fieldLength), ...termTrie(terms, rank) };
}

/**
 * Each word's number (`words` in the order the records first use them): its place in the order
 * MiniSearch's term tree, built from the same words in the same order, iterates them. MiniSearch
 * adds up a query word's prefix matches in that order and its fuzzy matches in the reverse, and
 * src/list/search.ts adds them up alike, so that relevance scores equal MiniSearch's to the last bit.
 */
function termOrder(words: readonly string[]): Int32Array {
  const rank = new Int32Array(words.length);
  let r = 0;
  for (const firstSeen of SearchableMap.from(words.map((w, k): [string, number] => [w, k])).values() as Iterable<number>) rank[firstSeen] = r++;
  return rank;
}

/** The trie of `words` (word k numbered `rank[k]`), laid out as src/list/term-trie.ts reads it. */
function termTrie(words: readonly string[], rank: Int32Array): Pick<PackedSearchIndex, 'trieChar' | 'trieEnd' | 'trieTerm'> {
  const order = words.map((_, k) => k).sort((a, b) => compareStrings(words[a]!, words[b]!));
  const chars: number[] = [0];
  const ends: number[] = [0];
  const terms: number[] = [-1];
  const open: number[] = [0]; // the nodes spelling the previous word's prefixes, root first
  let previous = '';
  for (const k of order) {
    const word = words[k]!;
    let common = 0;
    while (common < previous.length && common < word.length && previous[common] === word[common]) common++;
    while (open.length > common + 1) ends[open.pop()!] = chars.length;
    for (let at = common; at < word.length; at++) {
      open.push(chars.length);
      chars.push(word.charCodeAt(at));
      ends.push(0);
      terms.push(-1);
    }
    terms[open[open.length - 1]!] = rank[k]!;
    previous = word;
  }
  while (open.length > 0) ends[open.pop()!] = chars.length;
  return { trieChar: Uint16Array.from(chars), trieEnd: Int32Array.from(ends), trieTerm: Int32Array.from(terms) };
}
