// The list's own search index (src/emit/list/search-index.ts) and its search (src/list/search.ts) on a
// small catalogue: words found as typed, as prefixes and with typos, in the order the scores give,
// the index itself equal to the one MiniSearch builds over the same documents (its public toJSON),
// and the word trie (src/list/term-trie.ts) finding what MiniSearch's SearchableMap finds.

import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../src/emit/list/search-index.ts';
import { FUZZY_MEMO_BYTES, PostingSearch } from '../../src/list/search.ts';
import { TermTrie } from '../../src/list/term-trie.ts';
import { SEARCH_FIELDS, type SearchDocument, SearchIndexHeadSchema } from '../../src/schemas/search-index.ts';
import { queryTerms } from '../../src/schemas/text.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';
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
    const queries = [
      ...words,
      ...words.flatMap((w) => [w.slice(0, 2), `${w}s`, `${w.slice(0, -1)}x`]),
      'book bonanza',
      'of dead',
      'pragmatic play',
      'bonanzza',
    ];
    let matched = 0;
    // Twice: the second pass reads the words' fuzzy expansions from the memo, and answers the same.
    for (const pass of [1, 2]) {
      for (const q of queries) {
        const expected = referenceSearch(reference, queryTerms(q));
        const actual = typed(q);
        expect([...actual.ids], `${q} (pass ${pass})`).toEqual([...expected.ids]);
        expect([...actual.byRelevance], `${q} (pass ${pass})`).toEqual([...expected.byRelevance]);
        matched += expected.ids.length;
      }
    }
    expect(matched).toBeGreaterThan(100);
  });

  it('keeps the fuzzy expansions of at most FUZZY_MEMO_BYTES of words, however many distinct words it is asked', () => {
    const own = new PostingSearch(packed);
    for (let k = 0; k < 40_000; k++) own.matchAsTyped([`bonanza${k.toString(36)}`]);
    expect(own.fuzzyMemoBytes()).toBeGreaterThan(FUZZY_MEMO_BYTES / 2);
    expect(own.fuzzyMemoBytes()).toBeLessThanOrEqual(FUZZY_MEMO_BYTES);
  });
});

describe('the search index', () => {
  const head = SearchIndexHeadSchema.parse(JSON.parse(packed.head));
  const words = new TermTrie(packed).words();
  const F = SEARCH_FIELDS.length;
  const postings = (word: string, field: (typeof SEARCH_FIELDS)[number]) => {
    const at = words.indexOf(word) * F + SEARCH_FIELDS.indexOf(field);
    const from = packed.postingStart[at]!;
    const to = packed.postingStart[at + 1]!;
    return [...packed.postingIds.slice(from, to)].map((id, k) => [id, packed.postingFreqs[from + k]]);
  };

  it('lists per word and field the records holding it and how often', () => {
    expect(postings('dead', 'name')).toEqual([
      [0, 1],
      [2, 1],
    ]);
    expect(postings('gold', 'name')).toEqual([[5, 3]]);
    expect(postings('gems', 'name')).toEqual([[4, 1]]);
    expect(postings('gems', 'display')).toEqual([
      [4, 1],
      [5, 1],
    ]);
    expect(postings('gold', 'also')).toEqual([]);
    expect(postings('playn', 'display')).toEqual([
      [0, 1],
      [2, 1],
    ]); // "Play'n GO": the apostrophe dropped
    expect(packed.postingStart.at(-1)).toBe(packed.postingIds.length);
  });

  it('equals the index MiniSearch builds over the same documents, read through its public toJSON: words in its order, postings, lengths', () => {
    const json = referenceIndex(DOCS).toJSON();
    expect(head.documentCount).toBe(json.documentCount);
    expect(head.averageFieldLength).toEqual(json.averageFieldLength);
    expect(json.fieldIds).toEqual(Object.fromEntries(SEARCH_FIELDS.map((f, id) => [f, id])));
    for (const [shortId, lengths] of Object.entries(json.fieldLength)) {
      const id = json.documentIds[shortId];
      expect([...packed.fieldLength.slice(Number(id) * F, (Number(id) + 1) * F)], String(id)).toEqual(SEARCH_FIELDS.map((_, f) => lengths[f] ?? 0));
    }
    // toJSON lists the words as MiniSearch's term tree iterates them: the order the scores are summed in.
    expect(words).toEqual(json.index.map(([term]) => term));
    for (const [term, byField] of json.index) {
      for (const field of SEARCH_FIELDS) {
        const expected = Object.entries(byField[SEARCH_FIELDS.indexOf(field)] ?? {}).map(([shortId, freq]) => [json.documentIds[shortId], freq]);
        expect(postings(term, field), `${term} in ${field}`).toEqual(expected);
      }
    }
  });

  it('is refused when a document is not at its record index, or its head or trie does not read', () => {
    expect(() => buildSearchIndex([DOCS[1]!])).toThrow('buildSearchIndex: document 0 has id 1; ids must be the record indexes in order');
    expect(() => new PostingSearch({ ...packed, head: JSON.stringify({ ...head, documentCount: -1 }) })).toThrow(
      /^list bundle search index head: documentCount: /,
    );
    const trieEnd = packed.trieEnd.slice();
    trieEnd[3] = 2;
    expect(() => new PostingSearch({ ...packed, trieEnd })).toThrow('list bundle search index: trie node 3 ends at 2');
    expect(() => new PostingSearch({ ...packed, trieTerm: packed.trieTerm.slice(1) })).toThrow('list bundle search index: the trie arrays differ in length');
  });
});

describe('the word trie', () => {
  // Words of the list fixture and a few beyond ASCII, looked up as typed, cut short, and with typos.
  const texts = fixtureBundle(400).records.map((r) => `${r.canonical_name} ${r.provider} ${r.provider_display}`);
  const vocabulary = [...new Set([...texts, 'Straße strasse 東京 東京都 x xx xxx'].flatMap(queryTerms))];
  const trie = new TermTrie(buildSearchIndex(vocabulary.map((name, id) => ({ id, name, slug: '', provider: '', display: '' }))));
  const words = trie.words();
  const map = SearchableMap.from(words.map((w, t): [string, number] => [w, t]));
  const probes = [
    ...new Set(vocabulary.flatMap((w) => [w, w.slice(0, -1), w.slice(1), `${w}s`, `${w.slice(0, 1)}q${w.slice(2)}`, w.slice(0, 2) + w.slice(3), 'zz', ''])),
  ];

  it('holds every word once, each under its term number', () => {
    expect([...words].sort()).toEqual([...vocabulary].sort());
    for (const [t, w] of words.entries()) expect(trie.get(w)).toBe(t);
    expect(trie.get('zzzz')).toBe(-1);
    expect(trie.get('東')).toBe(-1);
    // Folded as the index folds (ß is ss); a word beyond Latin letters is kept whole.
    expect(trie.get('strasse')).toBeGreaterThanOrEqual(0);
    expect(trie.get('東京')).toBeGreaterThanOrEqual(0);
  });

  it('finds the words a prefix starts as SearchableMap.atPrefix does', () => {
    for (const p of probes) {
      const expected = [...map.atPrefix(p)]
        .filter(([w]) => w !== p)
        .map(([w, t]) => `${t}:${w.length}`)
        .sort();
      expect(
        trie
          .prefixed(p)
          .map((w) => `${w.term}:${w.length}`)
          .sort(),
        p,
      ).toEqual(expected);
      expect(trie.hasPrefix(p), p).toBe(map.atPrefix(p).size > 0);
    }
  });

  it('finds the words within 1, 2 and 3 edits as SearchableMap.fuzzyGet does, with their distances', () => {
    let found = 0;
    for (const p of probes) {
      for (const d of [1, 2, 3]) {
        const expected = [...map.fuzzyGet(p, d)].map(([w, [t, distance]]) => `${t}:${w.length}:${distance}`).sort();
        expect(
          trie
            .near(p, d)
            .map((w) => `${w.term}:${w.length}:${w.distance}`)
            .sort(),
          `${p} ${d}`,
        ).toEqual(expected);
        const unprefixed = [...map.fuzzyGet(p, d)]
          .filter(([w]) => !w.startsWith(p))
          .map(([_w, [t, distance]]) => `${t}:${distance}`)
          .sort();
        expect(
          trie
            .near(p, d, { unprefixed: true })
            .map((w) => `${w.term}:${w.distance}`)
            .sort(),
          `${p} ${d} unprefixed`,
        ).toEqual(unprefixed);
        expect(trie.near(p, d, { first: true }).length, `${p} ${d} first`).toBe(Math.min(1, expected.length));
        found += expected.length;
      }
    }
    expect(found).toBeGreaterThan(1000);
  });
});
