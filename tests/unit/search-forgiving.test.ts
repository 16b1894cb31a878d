// Search that forgives: the planner of the forgiving reading, and the real misspellings people type
// (tests/fixtures/misspellings.ts) finding the game they mean in the top 3 of sort=relevance.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileListBundle } from '../../src/emit/list/list-bundle.ts';
import type { ListEngine } from '../../src/list/engine.ts';
import {
  forgivingDistance,
  isOptional,
  MAX_RUN_TOGETHER_LENGTH,
  numeralForms,
  planForgiving,
  splitRunTogether,
  splitWhole,
  type TermLookup,
} from '../../src/list/forgive.ts';
import { createMemoryEngine } from '../../src/list/memory-engine.ts';
import { parseListQuery } from '../../src/list/query.ts';
import { PostingSearch } from '../../src/list/search.ts';
import type { RegistryBundle } from '../../src/registry/bundle.ts';
import { MISSPELLINGS } from '../fixtures/misspellings.ts';
import { shippedBundle } from '../helpers/shipped.ts';

/** A lookup over a word list (the planner's view of the index). */
function lookup(words: string[]): TermLookup {
  const set = new Set(words);
  return {
    has: (t) => set.has(t),
    hasPrefix: (p) => words.some((w) => w.startsWith(p)),
    hasNear: (t, d) => words.some((w) => Math.abs(w.length - t.length) <= d && [...t].filter((c, i) => w[i] !== c).length <= d),
  };
}

describe('the forgiving reading', () => {
  const index = lookup(['book', 'of', 'dead', 'wolf', 'gold', 'fire', 'joker', 'ii', '2', 'starburst']);

  it('tolerates one edit in words of 3-4 letters, two from 5, and never more than SEARCH_OPTIONS.maxFuzzy', () => {
    expect(['of', 'bok', 'dedd', 'olymp', 'starbrust', 'abcdefghijklm', 'x'.repeat(200)].map(forgivingDistance)).toEqual([0, 1, 1, 2, 2, 2, 2]);
    expect(forgivingDistance('1000')).toBe(0); // numbers only as typed
  });

  it('reads numerals both ways, 2 to 20', () => {
    expect(numeralForms('2')).toEqual(['2', 'ii']);
    expect(numeralForms('xiv')).toEqual(['xiv', '14']);
    expect(numeralForms('20')).toEqual(['20', 'xx']);
    expect(numeralForms('i')).toEqual(['i']);
    expect(numeralForms('1')).toEqual(['1']);
    expect(numeralForms('21')).toEqual(['21']);
    expect(numeralForms('xxi')).toEqual(['xxi']);
  });

  it('splits a run-together word into index words, fewest parts first, a misspelt tail kept for typos', () => {
    expect(splitRunTogether('bookofdead', index)).toEqual(['book', 'of', 'dead']);
    expect(splitRunTogether('wolfgold', index)).toEqual(['wolf', 'gold']);
    expect(splitRunTogether('bookofded', index)).toEqual(['book', 'of', 'ded']);
    expect(splitRunTogether('zzzzzz', index)).toBeNull();
    expect(splitRunTogether('book', index)).toBeNull(); // one part is no split
  });

  it('makes small words and lone letters optional, unless the query has nothing else', () => {
    expect(['of', 'the', 's', 'x', '2', 'book'].map(isOptional)).toEqual([true, true, true, true, false, false]);
    const plan = planForgiving(['book', 'of', 'the', 'dead'], index);
    expect(plan.map((p) => p.required)).toEqual([true, false, false, true]);
    expect(planForgiving(['of', 'the'], index).every((p) => p.required)).toBe(true);
  });

  it('reads a repeated word once, and leaves a run too long for a name unsplit', () => {
    // A run of one small word, split, is that word once: its expansions are matched and weighed once.
    expect(planForgiving(['of'.repeat(20)], index).map((p) => p.forms[0]!.term)).toEqual(['of']);
    expect(planForgiving(['book', 'bookofdead', 'dead'], index).map((p) => p.forms[0]!.term)).toEqual(['book', 'of', 'dead']);
    const long = 'book'.repeat(11); // 44 letters: past MAX_RUN_TOGETHER_LENGTH
    expect(long.length).toBeGreaterThan(MAX_RUN_TOGETHER_LENGTH);
    expect(planForgiving([long], index).map((p) => p.forms[0]!.term)).toEqual([long]);
    expect(planForgiving(['book'.repeat(10)], index).map((p) => p.forms[0]!.term)).toEqual(['book']);
  });

  it('splits a word near an index word only when it splits wholly into index words', () => {
    const near = lookup(['wolf', 'gold', 'wolfwood', 'book', 'of', 'dead']);
    expect(splitWhole('wolfgold', near)).toEqual(['wolf', 'gold']);
    expect(splitWhole('wolfwo', near)).toBeNull(); // starts an index word
    expect(splitWhole('bookofded', near)).toBeNull(); // a misspelt tail is no whole split
    expect(planForgiving(['wolfgold'], near).map((p) => p.forms[0]!.term)).toEqual(['wolf', 'gold']);
  });

  it('splits only words that neither start nor nearly are an index word', () => {
    expect(planForgiving(['starbrust'], index).map((p) => p.forms[0]!.term)).toEqual(['starbrust']);
    expect(planForgiving(['firejoker', '2'], index).map((p) => p.forms.map((f) => f.term))).toEqual([['fire'], ['joker'], ['2', 'ii']]);
  });
});

describe('real misspellings over the shipped registry', () => {
  let bundle: RegistryBundle;
  let engine: ListEngine;
  beforeAll(async () => {
    bundle = shippedBundle();
    engine = createMemoryEngine(compileListBundle(bundle, Buffer.from(JSON.stringify(bundle))));
  });

  const top = (q: string, sort = 'relevance', limit = 3): string[] => {
    const parsed = parseListQuery(`q=${encodeURIComponent(q)}&sort=${sort}&limit=${limit}`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return Array.from(engine.run(parsed.query).items, (i) => bundle.records[i]!.canonical_slug);
  };

  it('covers at least 50 misspellings of games the registry has, of every kind of slip', () => {
    expect(new Set(MISSPELLINGS.map((m) => m.q)).size).toBeGreaterThanOrEqual(50);
    expect(new Set(MISSPELLINGS.map((m) => m.slip))).toEqual(
      new Set(['wrong letter', 'two letters', 'missing letter', 'doubled letter', 'no spaces', 'apostrophe', 'of the', 'numeral']),
    );
    const slugs = new Set(bundle.records.map((r) => r.canonical_slug));
    expect(MISSPELLINGS.filter((m) => !slugs.has(m.slug))).toEqual([]);
  });

  it.each(MISSPELLINGS.map((m) => [m.q, m.slug, m.slip] as const))('%s finds %s in the top 3 (%s)', (q, slug) => {
    expect(top(q)).toContain(slug);
  });

  it('a run of one letter costs what the letter costs, and a kept match weighs what it holds', () => {
    const search = new PostingSearch(compileListBundle(bundle, Buffer.from(JSON.stringify(bundle))).searchIndex);
    const letter = search.match(['a']);
    const run = search.match(['a'.repeat(40)]); // split, then read as the one word it repeats
    expect([...run.ids]).toEqual([...letter.ids]);
    expect(run.heldBytes).toBeGreaterThan(letter.ids.byteLength);
    expect(run.heldBytes).toBe(letter.heldBytes);
    expect([...run.byRelevance]).toEqual([...letter.byRelevance]);
    expect(run.heldBytes).toBe(0); // let go once the order is made
    // Past the longest run split, no reading is tried: nothing matches, nothing is held.
    const long = search.match(['a'.repeat(200)]);
    expect(long.ids.length).toBe(0);
  });

  it('leaves a query that matches as typed as it was: the right name is still first', () => {
    expect(top('book of dead')[0]).toBe('book-of-dead');
    expect(top('starburst')).toEqual(['starburst', 'slingo-starburst', 'starburst-galaxy']);
  });
});
