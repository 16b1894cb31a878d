// The list's own search index (src/emit/list/search-index.ts) and its search (src/list/search.ts) on a
// small catalogue: words found as typed, as prefixes and with typos, in the order the scores give,
// and the index itself equal to the one MiniSearch builds over the same documents (its public toJSON).
import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../src/emit/list/search-index.ts';
import { PostingSearch } from '../../src/list/search.ts';
import { SEARCH_FIELDS, SearchIndexHeadSchema, type SearchDocument } from '../../src/schemas/search-index.ts';
import { queryTerms } from '../../src/schemas/text.ts';
import { referenceIndex, referenceSearch } from '../helpers/minisearch-reference.ts';

const game = (id: number, name: string, provider: string, display: string, also?: string): SearchDocument => ({
  id,
  name,
  slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  provider,
  display,
  ...(also === undefined ? {} : { also }),
});

const DOCS: SearchDocument[] = [
  game(0, 'Book of Dead', 'playngo', "Play'n GO"),
  game(1, 'Bookworm Bonanza', 'pragmatic-play', 'Pragmatic Play'),
  game(2, 'Legacy of Dead', 'playngo', "Play'n GO"),
  game(3, 'Sweet Bonanza', 'pragmatic-play', 'Pragmatic Play'),
  game(4, 'Pragmatic Gems', 'gems-studio', 'Gems Studio', 'Gems Group'),
  game(5, 'Gold Gold Gold', 'gems-studio', 'Gems Studio', 'Gems Group'),
  game(6, 'Mega Joker', 'novomatic', 'Novomatic'),
  game(7, 'Hot Fruits', 'joker', 'Joker'),
];

const packed = buildSearchIndex(DOCS);
const search = new PostingSearch(packed);
const typed = (q: string) => search.matchAsTyped(queryTerms(q));
const ranked = (q: string) => [...typed(q).byRelevance];
const found = (q: string) => [...typed(q).ids];

describe('the search index finds', () => {
  it('a word as typed first, then words it starts', () => {
    expect(ranked('book')).toEqual([0, 1]); // "Book" itself, then "Bookworm"
    expect(found('bonan')).toEqual([1, 3]);
    expect(found('dea')).toEqual([0, 2]);
  });

  it('words within the typo tolerance from 5 letters (0.2 × length edits), none below', () => {
    expect(found('bonanzza')).toEqual([1, 3]); // 8 letters: 2 edits
    expect(found('sweat')).toEqual([3]); // 5 letters: 1 edit
    expect(found('swet')).toEqual([]); // 4 letters: none as typed
    expect(found('ded')).toEqual([]);
    expect([...search.match(queryTerms('swet')).ids]).toEqual([3]); // the forgiving reading allows one
  });

  it('only records that match every word, in any field', () => {
    expect(found('book bonanza')).toEqual([1]);
    expect(found('dead bonanza')).toEqual([]);
    expect(found('dead playngo')).toEqual([0, 2]);
    expect(found('gems group gold')).toEqual([5]);
  });

  it('a name match above matches in other fields, an exact word above one it starts or is near', () => {
    expect(ranked('pragmatic')[0]).toBe(4); // its name, not its provider
    expect(ranked('gems')).toEqual([4, 5]); // "Pragmatic Gems" by name, "Gold Gold Gold" only by provider
    expect(ranked('joker')).toEqual([6, 7]); // in name and slug, over provider key and display name: the name weighs double
    expect(ranked('gold')).toEqual([5]);
    expect(ranked('legacy dead')).toEqual([2]);
  });

  it('with the scores MiniSearch gives the same documents: same records, same relevance order', () => {
    const reference = referenceIndex(DOCS);
    const words = [...new Set(DOCS.flatMap((d) => queryTerms(`${d.name} ${d.provider} ${d.display} ${d.also ?? ''}`)))];
    const queries = [...words, ...words.flatMap((w) => [w.slice(0, 2), `${w}s`, `${w.slice(0, -1)}x`]), 'book bonanza', 'of dead', 'pragmatic play', 'bonanzza'];
    let matched = 0;
    for (const q of queries) {
      const expected = referenceSearch(reference, queryTerms(q));
      const actual = typed(q);
      expect([...actual.ids], q).toEqual([...expected.ids]);
      expect([...actual.byRelevance], q).toEqual([...expected.byRelevance]);
      matched += expected.ids.length;
    }
    expect(matched).toBeGreaterThan(50);
  });
});

describe('the search index', () => {
  const head = SearchIndexHeadSchema.parse(JSON.parse(packed.head));
  const F = SEARCH_FIELDS.length;
  const postings = (word: string, field: (typeof SEARCH_FIELDS)[number]) => {
    const at = head.terms.indexOf(word) * F + SEARCH_FIELDS.indexOf(field);
    const from = packed.postingStart[at]!;
    const to = packed.postingStart[at + 1]!;
    return [...packed.postingIds.slice(from, to)].map((id, k) => [id, packed.postingFreqs[from + k]]);
  };

  it('numbers the words in the order the records first use them, and lists per word and field the records and counts', () => {
    expect(head.terms.slice(0, 7)).toEqual(['book', 'of', 'dead', 'playngo', 'playn', 'go', 'bookworm']);
    expect(postings('dead', 'name')).toEqual([[0, 1], [2, 1]]);
    expect(postings('gold', 'name')).toEqual([[5, 3]]);
    expect(postings('gems', 'name')).toEqual([[4, 1]]);
    expect(postings('gems', 'display')).toEqual([[4, 1], [5, 1]]);
    expect(postings('gold', 'also')).toEqual([]);
    expect(packed.postingStart.at(-1)).toBe(packed.postingIds.length);
  });

  it('equals the index MiniSearch builds over the same documents, read through its public toJSON', () => {
    const json = referenceIndex(DOCS).toJSON();
    expect(head.documentCount).toBe(json.documentCount);
    expect(head.averageFieldLength).toEqual(json.averageFieldLength);
    expect(json.fieldIds).toEqual(Object.fromEntries(SEARCH_FIELDS.map((f, id) => [f, id])));
    for (const [shortId, lengths] of Object.entries(json.fieldLength)) {
      const id = json.documentIds[shortId];
      expect([...packed.fieldLength.slice(Number(id) * F, (Number(id) + 1) * F)], String(id)).toEqual(SEARCH_FIELDS.map((_, f) => lengths[f] ?? 0));
    }
    expect([...head.terms].sort()).toEqual(json.index.map(([term]) => term).sort());
    for (const [term, byField] of json.index) {
      for (const field of SEARCH_FIELDS) {
        const expected = Object.entries(byField[SEARCH_FIELDS.indexOf(field)] ?? {}).map(([shortId, freq]) => [json.documentIds[shortId], freq]);
        expect(postings(term, field), `${term} in ${field}`).toEqual(expected);
      }
    }
  });

  it('is refused when a document is not at its record index, or its head does not parse', () => {
    expect(() => buildSearchIndex([DOCS[1]!])).toThrow('buildSearchIndex: document 0 has id 1; ids must be the record indexes in order');
    expect(() => new PostingSearch({ ...packed, head: JSON.stringify({ ...head, terms: [''] }) })).toThrow(/^list bundle search index head: terms\.0: /);
  });
});
