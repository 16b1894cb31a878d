// Ingest over the real pinned sources (data/sources): adapters, matching of real tricky names,
// precedence between tiers, the lower-configuration rule, and every published figure traced to
// the very source line it cites.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueAdapter, citationUrl } from '../../src/ingest/adapters/catalogue.ts';
import { igtSlotsAdapter } from '../../src/ingest/adapters/igt-slots.ts';
import { ingestSources, type IngestResult } from '../../src/ingest/ingest.ts';
import { byPrecedence, mergeFacts } from '../../src/ingest/merge.ts';
import { mapVolatility, nameKey, parsePercent, providerKey, slugify } from '../../src/ingest/normalise.ts';
import type { SourceFact } from '../../src/ingest/source.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let result: IngestResult;
beforeAll(async () => {
  result = await ingestSources(path.join(ROOT, 'data'));
});

const gameOf = (provider: string, name: string) => result.games.find((g) => g.provider === provider && nameKey(g.name) === nameKey(name));

describe('normalisation', () => {
  it.each([
    ['Play’n GO', "Play'n GO"],
    ['CherryPop', 'Cherry Pop'],
    ['Wolf Gold™', 'Wolf Gold'],
    ['Stars and Stripes Hold and Win', 'Stars & Stripes Hold & Win'],
    ['Druid’s Fortune', "Druid's Fortune"],
    ['Éclair', 'Eclair'],
  ])('%s matches %s', (a, b) => expect(nameKey(a)).toBe(nameKey(b)));

  it.each([
    ['Big Bass Bonanza', 'Big Bass Bonanza Megaways'],
    ['Gates of Olympus', 'Gates of Olympus 1000'],
    ['Sweet Bonanza', 'Sweet Bonanza Xmas'],
    ['Fire Joker', 'Fire Joker Freeze'],
    ['The Great Clawsby', 'The Great Clawsby Deluxe: Hold and Win'],
    ['Honey Rush', 'Honey Rush 100'],
  ])('%s and %s stay two games', (a, b) => expect(nameKey(a)).not.toBe(nameKey(b)));

  it('keeps the provider keys already published and slugs the rest', () => {
    expect(['Play’n GO', 'Hacksaw Gaming', 'Belatra Games', 'Yggdrasil Gaming', 'Nolimit City', 'Pragmatic Play', 'ELK Studios', '3 Oaks Gaming', 'PG Soft'].map(providerKey)).toEqual([
      'playngo', 'hacksaw', 'belatra', 'yggdrasil', 'nolimit-city', 'pragmatic-play', 'elk-studios', '3-oaks-gaming', 'pg-soft',
    ]);
    expect(slugify('Druid’s Fortune')).toBe('druids-fortune');
    expect(slugify('The Great Clawsby Deluxe: Hold & Win')).toBe('the-great-clawsby-deluxe-hold-and-win');
  });

  it('takes figures exactly as given, never rounding', () => {
    expect([parsePercent('96.03'), parsePercent(96.2), parsePercent('96'), parsePercent('96.125'), parsePercent('abc'), parsePercent(0), parsePercent('100.5')]).toEqual([96.03, 96.2, 96, null, null, null, null]);
  });

  it('maps volatility words, and leaves no-level words out', () => {
    expect(['medium-high', 'very high', 'extreme', '4/5', 'low-medium', 'adjustable', 'low / extreme', null].map(mapVolatility)).toEqual(['high', 'very-high', 'very-high', 'high', 'medium', null, null, null]);
  });
});

describe('adapters', () => {
  it('igt-slots: kinds of every variant, categories as game types, unmappable lines with their number', () => {
    const text = [
      JSON.stringify({ name: 'A', provider_name: 'Pragmatic Play', game_category: 'crash', rtp_default: '97.00', rtp_variants: [{ rtp: '97.00', variant: 'default', is_default: true }, { rtp: '96.50', variant: 'ante_bet', is_default: false }], public_page: 'https://x.example/a', release_date: '2024-01-02', volatility: 'high' }),
      '',
      JSON.stringify({ name: 'B', provider_name: 'Pragmatic Play', game_category: 'bingo_hall', rtp_default: '95.00', rtp_variants: [], public_page: 'https://x.example/b' }),
      '{not json',
      JSON.stringify({ name: 'C', provider_name: 'Pragmatic Play', game_category: 'video_slot', rtp_default: 'n/a', public_page: 'https://x.example/c' }),
    ].join('\n');
    const { facts, unmapped } = igtSlotsAdapter.read(text, 'sources/x.jsonl');
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ line: 1, tier: 'aggregator', provider: 'pragmatic-play', game_type: 'instant', stated_rtp: 97, release_year: 2024, variants: [{ rtp: 97, kind: 'standard' }, { rtp: 96.5, kind: 'ante_bet' }] });
    expect(unmapped).toEqual([
      { file: 'sources/x.jsonl', line: 3, name: 'B', reason: 'game_category "bingo_hall" maps to no game type' },
      { file: 'sources/x.jsonl', line: 4, name: null, reason: 'not valid JSON' },
      { file: 'sources/x.jsonl', line: 5, name: 'C', reason: 'rtp_default "n/a" is not a percent figure' },
    ]);
  });

  it('catalogue: tier from source_kind, github citations as addresses at the commit', () => {
    const text = [
      JSON.stringify({ name: 'A', provider: 'Hacksaw Gaming', rtp: 96.3, rtp_variants: [96.3, 94.1], source_kind: 'provider', source_url: 'https://www.hacksawgaming.com/games/a' }),
      JSON.stringify({ name: 'B', provider: 'AvatarUX', rtp: 96.2, rtp_variants: [], source_kind: 'catalogue', source_url: 'github:calro999/calcasiLP/data/games/b.ts@d1afc2c6fc785ad0ac81b20a121a6e93e03bd51f' }),
    ].join('\n');
    const { facts } = catalogueAdapter.read(text, 'sources/y.jsonl');
    expect(facts.map((f) => [f.tier, f.provider, f.url, f.variants])).toEqual([
      ['provider', 'hacksaw', 'https://www.hacksawgaming.com/games/a', [{ rtp: 94.1, kind: 'unknown' }, { rtp: 96.3, kind: 'standard' }]],
      ['catalogue', 'avatarux', 'https://github.com/calro999/calcasiLP/blob/d1afc2c6fc785ad0ac81b20a121a6e93e03bd51f/data/games/b.ts', [{ rtp: 96.2, kind: 'standard' }]],
    ]);
    expect(citationUrl('ftp://x')).toBeNull();
  });
});

describe('the real sources', () => {
  it('reads every pinned file; each line is a fact or a listed exclusion', () => {
    const lines = (file: string) => readFileSync(path.join(ROOT, 'data/sources', file), 'utf8').trim().split('\n').length;
    const bySource = Object.fromEntries(result.perSource.map((s) => [s.file, s.facts + s.unmapped]));
    expect(bySource).toEqual({ 'seed-games.csv': lines('seed-games.csv') - 1, 'igt-slots.jsonl': lines('igt-slots.jsonl'), 'slotfolio.jsonl': lines('slotfolio.jsonl'), 'calcasi.jsonl': lines('calcasi.jsonl') });
  });

  it('holds at least 1,500 games from at least 20 providers', () => {
    expect(result.games.length).toBeGreaterThanOrEqual(1500);
    expect(new Set(result.games.map((g) => g.provider)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(result.games.map((g) => g.slug)).size).toBe(result.games.length);
  });

  it('Sweet Bonanza: the provider page (96.48, as the seed) outranks the aggregator, whose 96.60 stays listed', () => {
    const g = gameOf('pragmatic-play', 'Sweet Bonanza')!;
    expect(g.winner).toMatchObject({ tier: 'provider', stated_rtp: 96.48, file: 'sources/slotfolio.jsonl' });
    expect(g.facts.map((f) => [f.tier, f.stated_rtp])).toEqual([['provider', 96.48], ['hand_checked', 96.48], ['catalogue', 96.48], ['aggregator', 96.6]]);
    expect(g.disagree).toBe(true);
  });

  it("Honey Rush (Play'n GO): within the catalogue tier the higher figure (96.50) wins; the 94.50 build stays listed", () => {
    const g = gameOf('playngo', 'Honey Rush')!;
    expect(g.winner).toMatchObject({ tier: 'catalogue', stated_rtp: 96.5, file: 'sources/calcasi.jsonl' });
    expect(g.facts.map((f) => f.stated_rtp)).toEqual([96.5, 94.5]);
    expect(gameOf('playngo', 'Honey Rush 100')?.winner.stated_rtp).toBe(96.2);
  });

  it("leaves out Play'n GO games whose only figures are a 94.x build, each with its reason", () => {
    expect(gameOf('playngo', 'Aztec Idols')).toBeUndefined();
    const out = result.excluded.find((e) => e.provider === 'playngo' && e.name === 'Aztec Idols')!;
    expect(out.reason).toBe('every source states 94.15 or less: probably a lower RTP configuration (94-95), and no source states the default');
    expect(result.excluded.every((e) => e.provider === 'playngo' && e.facts.every((f) => f.tier === 'catalogue' || f.tier === 'aggregator'))).toBe(true);
  });

  it('within one tier the higher figure wins; a lower tier never sets the figure', () => {
    const f = (tier: SourceFact['tier'], rtp: number, line: number): SourceFact => ({ file: 'sources/t', line, tier, providerName: 'P', provider: 'p', name: 'G', stated_rtp: rtp, variants: [{ rtp, kind: 'standard' }], url: 'https://p.example', page: null, notes: '', checked_at: null, game_type: 'slot', volatility: null, max_win_x: null, release_year: null });
    expect([f('aggregator', 97, 1), f('catalogue', 95, 2), f('catalogue', 96, 3)].sort(byPrecedence).map((x) => x.line)).toEqual([3, 2, 1]);
    const { games } = mergeFacts([f('aggregator', 97, 1), f('provider', 96, 2)]);
    expect(games[0]!.winner.stated_rtp).toBe(96);
  });

  it('keeps a published slug and gives a clashing new name its provider key', () => {
    const f = (provider: string, name: string): SourceFact => ({ file: 'sources/t', line: 1, tier: 'catalogue', providerName: provider, provider, name, stated_rtp: 96, variants: [{ rtp: 96, kind: 'standard' }], url: 'https://p.example', page: null, notes: '', checked_at: null, game_type: 'slot', volatility: null, max_win_x: null, release_year: null });
    const { games } = mergeFacts([f('a', 'Book of X'), f('b', 'Book of X')], new Map([['b/bookofx', 'book-of-x']]));
    expect(games.map((g) => [g.provider, g.slug])).toEqual([['b', 'book-of-x'], ['a', 'book-of-x-a']]);
  });

  it('every figure a game publishes appears in the source line it cites', () => {
    const files = new Map<string, string[]>();
    const lineOf = (f: SourceFact) => {
      if (!files.has(f.file)) files.set(f.file, readFileSync(path.join(ROOT, 'data', f.file), 'utf8').split('\n'));
      return files.get(f.file)![f.line - 1]!;
    };
    const shown = (n: number) => [String(n), n.toFixed(2), n.toFixed(1)];
    for (const g of result.games) {
      for (const f of g.facts) {
        const text = lineOf(f);
        for (const v of f.variants) expect(shown(v.rtp).some((s) => text.includes(s)), `${f.file}:${f.line} ${v.rtp}`).toBe(true);
        expect(nameKey(text)).toContain(nameKey(f.name));
      }
    }
  });
});
