import { describe, expect, it } from 'vitest';
import {
  distinctStream,
  mostFrequentWord,
  normalisedKey,
  queryMix,
  SORTS,
  toSearch,
  type VocabularyRecord,
  vocabularyOf,
} from '../../scripts/bench/query-mix.ts';
import { mulberry32 as prng } from '../../scripts/lib/synth.ts';
import { listQueryKey, parseListQuery } from '../../src/list/query.ts';

const NAMES = [
  'Book of Dead',
  'Book of Ra',
  'Gates of Olympus',
  'Sweet Bonanza',
  'Starburst',
  'Gonzo’s Quest',
  'Big Bass Bonanza',
  'Dead or Alive',
  'Café Royale',
  'Wolf Gold',
];
const PROVIDERS = [
  ['playngo', "Play'n GO"],
  ['pragmatic-play', 'Pragmatic Play'],
  ['netent', 'NetEnt'],
] as const;
const TYPES = ['slot', 'table', 'scratchcard'];

// Extra invented words so the stream's space is as large as on a real-sized registry.
const EXTRA = Array.from({ length: 60 }, (_, i) => `zar${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}ion`);

const records: VocabularyRecord[] = Array.from({ length: 300 }, (_, i) => {
  const [provider, provider_display] = PROVIDERS[i % PROVIDERS.length]!;
  return { canonical_name: `${NAMES[i % NAMES.length]} ${EXTRA[i % EXTRA.length]} ${i}`, provider, provider_display, game_type: TYPES[i % TYPES.length]! };
});
const vocab = vocabularyOf(records);

describe('vocabulary', () => {
  it('collects name words (3+ letters, no stop words or numbers), providers and types, sorted', () => {
    expect(vocab.words).toContain('book');
    expect(vocab.words).toContain('cafe');
    expect(vocab.words).not.toContain('of');
    expect(vocab.words).not.toContain('12');
    expect(vocab.words).toEqual([...vocab.words].sort());
    expect(vocab.providers.map((p) => p.key)).toEqual(['netent', 'playngo', 'pragmatic-play']);
    expect(vocab.gameTypes).toEqual(['scratchcard', 'slot', 'table']);
    expect(vocab.total).toBe(300);
  });
  it('takes its words as the search index does (accents, case and apostrophes folded)', () => {
    expect(vocab.words).toContain('royale');
    expect(vocab.words).toContain('gonzos');
    expect(vocab.words).not.toContain('gonzo');
  });
  it('finds the most frequent word', () => {
    expect(mostFrequentWord([{ canonical_name: 'Book of Dead' }, { canonical_name: 'Dead or Alive' }, { canonical_name: 'Wolf' }])).toBe('dead');
  });
});

describe('the seeded PRNG the mix draws from', () => {
  it('is deterministic per seed and differs between seeds', () => {
    const a = prng(7);
    const b = prng(7);
    const c = prng(8);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
});

describe('queryMix', () => {
  const mix = queryMix(vocab, 1000, 42);

  it('is deterministic in its seed', () => {
    expect(queryMix(vocab, 1000, 42).map(toSearch)).toEqual(mix.map(toSearch));
    expect(queryMix(vocab, 1000, 43).map(toSearch)).not.toEqual(mix.map(toSearch));
  });

  it('holds the requested number of distinct queries, distinct after normalisation too', () => {
    expect(mix).toHaveLength(1000);
    expect(new Set(mix.map(normalisedKey)).size).toBe(1000);
    expect(new Set(mix.map(toSearch)).size).toBe(1000);
  });

  it('covers every sort, the default sort, filters, q, limits and deep offsets', () => {
    for (const s of SORTS) expect(mix.some((q) => q.sort === s)).toBe(true);
    expect(mix.some((q) => q.sort === undefined)).toBe(true);
    expect(mix.every((q) => q.sort !== 'relevance' || q.q !== undefined)).toBe(true);
    expect(mix.some((q) => q.provider !== undefined)).toBe(true);
    expect(mix.some((q) => q.game_type !== undefined)).toBe(true);
    expect(mix.some((q) => q.has_variants)).toBe(true);
    expect(mix.filter((q) => q.q !== undefined).length).toBeGreaterThan(400);
    expect(new Set(mix.map((q) => q.limit)).size).toBeGreaterThan(4);
    expect(mix.some((q) => (q.offset ?? 0) >= 100)).toBe(true);
  });

  it('produces only queries the list route accepts', () => {
    for (const q of mix) expect(parseListQuery(toSearch(q)).ok).toBe(true);
  });

  it('refuses an empty vocabulary', () => {
    expect(() => queryMix({ words: [], providers: [], gameTypes: [], total: 0 }, 10)).toThrow('empty vocabulary');
  });
});

describe('distinctStream', () => {
  const stream = distinctStream(vocab);

  it('has a space of distinct queries and is deterministic', () => {
    expect(stream.size).toBeGreaterThan(100_000);
    expect(toSearch(distinctStream(vocab).at(12345))).toBe(toSearch(stream.at(12345)));
  });

  it('never repeats a normalised query (the route cache key) within its first 100k indices', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const parsed = parseListQuery(toSearch(stream.at(i)));
      if (!parsed.ok) throw new Error(`rejected: ${toSearch(stream.at(i))}`);
      seen.add(listQueryKey(parsed.query));
    }
    expect(seen.size).toBe(100_000);
  });

  it('varies consecutive queries and wraps modulo its size', () => {
    expect(toSearch(stream.at(0))).not.toBe(toSearch(stream.at(1)));
    expect(toSearch(stream.at(stream.size + 3))).toBe(toSearch(stream.at(3)));
  });
});

describe('toSearch', () => {
  it('writes parameters in a fixed order, escaped', () => {
    expect(toSearch({ offset: 20, sort: 'rtp_desc', q: "play'n go & co", has_variants: true, limit: 10, provider: 'netent', game_type: 'slot' })).toBe(
      "q=play'n%20go%20%26%20co&provider=netent&game_type=slot&has_variants=1&sort=rtp_desc&limit=10&offset=20",
    );
    expect(toSearch({})).toBe('');
  });
});
