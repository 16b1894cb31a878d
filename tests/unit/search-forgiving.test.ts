// Search that forgives: the planner of the forgiving reading, and the real misspellings people type
// (tests/fixtures/misspellings.ts) finding the game they mean in the top 3 of sort=relevance.
import { beforeAll, describe, expect, it } from 'vitest';
import { compileListBundle } from '../../src/emit/list/list-bundle.ts';
import { forgivingDistance, isOptional, numeralForms, planForgiving, splitRunTogether, type TermLookup } from '../../src/list/forgive.ts';
import { createMemoryEngine } from '../../src/list/memory-engine.ts';
import type { ListEngine } from '../../src/list/engine.ts';
import { parseListQuery } from '../../src/list/query.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { MISSPELLINGS } from '../fixtures/misspellings.ts';

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

  it('tolerates one edit in words of 3-4 letters, two from 5, and never fewer than as typed', () => {
    expect(['of', 'bok', 'dedd', 'olymp', 'starbrust', 'abcdefghijklm'].map(forgivingDistance)).toEqual([0, 1, 1, 2, 2, 3]);
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

  it('splits only words that neither start nor nearly are an index word', () => {
    expect(planForgiving(['starbrust'], index).map((p) => p.forms[0]!.term)).toEqual(['starbrust']);
    expect(planForgiving(['firejoker', '2'], index).map((p) => p.forms.map((f) => f.term))).toEqual([['fire'], ['joker'], ['2', 'ii']]);
  });
});

describe('real misspellings over the shipped registry', () => {
  let bundle: RegistryBundle;
  let engine: ListEngine;
  beforeAll(async () => {
    bundle = makeBundle(await loadRegistryOrThrow('data'));
    engine = createMemoryEngine(compileListBundle(bundle, Buffer.from(JSON.stringify(bundle))));
  });

  const top = (q: string, sort = 'relevance', limit = 3): string[] => {
    const parsed = parseListQuery(`q=${encodeURIComponent(q)}&sort=${sort}&limit=${limit}`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    return Array.from(engine.run(parsed.query).items, (i) => bundle.records[i]!.canonical_slug);
  };

  it('covers at least 50 misspellings of games the registry has, of every kind of slip', () => {
    expect(new Set(MISSPELLINGS.map((m) => m.q)).size).toBeGreaterThanOrEqual(50);
    expect(new Set(MISSPELLINGS.map((m) => m.slip))).toEqual(new Set(['wrong letter', 'two letters', 'missing letter', 'doubled letter', 'no spaces', 'apostrophe', 'of the', 'numeral']));
    const slugs = new Set(bundle.records.map((r) => r.canonical_slug));
    expect(MISSPELLINGS.filter((m) => !slugs.has(m.slug))).toEqual([]);
  });

  it.each(MISSPELLINGS.map((m) => [m.q, m.slug, m.slip] as const))('%s finds %s in the top 3 (%s)', (q, slug) => {
    expect(top(q)).toContain(slug);
  });

  it('leaves a query that matches as typed as it was: the right name is still first', () => {
    expect(top('book of dead')[0]).toBe('book-of-dead');
    expect(top('starburst')).toEqual(['starburst', 'slingo-starburst', 'starburst-galaxy']);
  });
});
