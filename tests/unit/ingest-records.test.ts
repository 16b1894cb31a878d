// The rules that turn a merged game into its file: variants only from sources agreeing with the
// stated RTP, kinds from the most trusted source, a hand-checked row's fields kept as they are,
// the page to cite, and the check date.
import { describe, expect, it } from 'vitest';
import { mergeFacts } from '../../src/ingest/merge.ts';
import { providerTable } from '../../src/ingest/providers.ts';
import { gameFileOf, providerFiles, variantsOf, viaPhrase } from '../../src/ingest/records.ts';
import type { SourceFact } from '../../src/ingest/source.ts';
import { sourceFact } from '../fixtures/facts.ts';

/** A catalogue line for Play'n GO's Book of Dead at 96.21 (tests/fixtures/facts.ts), overridden field by field. */
const fact = (over: Partial<SourceFact>): SourceFact =>
  sourceFact({
    file: 'sources/x.jsonl',
    providerName: 'Play’n GO',
    provider: 'playngo',
    name: 'Book of Dead',
    stated_rtp: 96.21,
    url: 'https://cat.example/bod',
    ...over,
  });
const pinned = new Map([
  ['sources/x.jsonl', '2026-11-23T00:00:00Z'],
  ['sources/seed-games.csv', '2026-11-21T00:00:00Z'],
]);

describe('variantsOf', () => {
  it('takes every figure of the sources that agree with the stated RTP, never of one that states another', () => {
    const agreeing = fact({
      tier: 'hand_checked',
      variants: [
        { rtp: 84.18, kind: 'operator_ladder' },
        { rtp: 94.25, kind: 'operator_ladder' },
        { rtp: 96.21, kind: 'standard' },
      ],
    });
    const other = fact({
      tier: 'aggregator',
      stated_rtp: 96.6,
      variants: [
        { rtp: 96.49, kind: 'bonus_buy' },
        { rtp: 96.6, kind: 'standard' },
      ],
    });
    expect(variantsOf([fact({ tier: 'provider' }), agreeing, other], 96.21)).toEqual([
      { rtp: 84.18, kind: 'operator_ladder' },
      { rtp: 94.25, kind: 'operator_ladder' },
      { rtp: 96.21, kind: 'standard' },
    ]);
  });

  it('keeps the most trusted kind, replacing only an unknown; keeps a jurisdiction code', () => {
    const first = fact({
      tier: 'catalogue',
      variants: [
        { rtp: 94, kind: 'unknown' },
        { rtp: 95, kind: 'bonus_buy' },
        { rtp: 96.21, kind: 'standard' },
      ],
    });
    const second = fact({
      tier: 'aggregator',
      variants: [
        { rtp: 94, kind: 'ante_bet' },
        { rtp: 95, kind: 'feature' },
        { rtp: 90, kind: 'jurisdiction', jurisdiction: 'DE' },
        { rtp: 96.21, kind: 'standard' },
      ],
    });
    expect(variantsOf([first, second], 96.21)).toEqual([
      { rtp: 90, kind: 'jurisdiction', jurisdiction: 'DE' },
      { rtp: 94, kind: 'ante_bet' },
      { rtp: 95, kind: 'bonus_buy' },
      { rtp: 96.21, kind: 'standard' },
    ]);
  });
});

describe('gameFileOf', () => {
  it("a hand-checked row's fields are kept as they are, its nulls included; its notes and page to cite too", () => {
    const seed = fact({
      file: 'sources/seed-games.csv',
      tier: 'hand_checked',
      max_win_x: null,
      volatility: 'high',
      release_year: 2019,
      page: 'https://seed.example/cite',
      notes: 'left empty on purpose',
      checked_at: '2026-11-21T00:00:00Z',
    });
    const catalogue = fact({ max_win_x: 21175, release_year: 2020, volatility: 'low' });
    const { games } = mergeFacts([catalogue, seed]);
    const g = gameFileOf(games[0]!, pinned);
    expect(g).toMatchObject({
      max_win_x: null,
      volatility: 'high',
      release_year: 2019,
      notes: 'left empty on purpose',
      source_url: 'https://seed.example/cite',
      evidence_url: seed.url,
      last_verified: '2026-11-21T00:00:00Z',
    });
  });

  it('without a hand-checked row each field comes from the most trusted source stating it; a provider page is the page to cite', () => {
    const provider = fact({ tier: 'provider', url: 'https://playngo.example/bod', volatility: null, max_win_x: null });
    const catalogue = fact({ volatility: 'very-high', max_win_x: 5000, release_year: 2016 });
    const g = gameFileOf(mergeFacts([catalogue, provider]).games[0]!, pinned);
    expect(g).toMatchObject({
      source_url: 'https://playngo.example/bod',
      evidence_url: 'https://playngo.example/bod',
      volatility: 'very-high',
      max_win_x: 5000,
      release_year: 2016,
      last_verified: '2026-11-23T00:00:00Z',
      notes: '',
    });
    expect(g.sources.map((s) => [s.kind, s.url])).toEqual([
      ['provider', 'https://playngo.example/bod'],
      ['catalogue', 'https://cat.example/bod'],
    ]);
  });

  it("a catalogue line citing the provider's page is shown as that citation (via), not as the page, and its page is the one to cite", () => {
    const cites = fact({ file: 'sources/slotfolio.jsonl', citesProviderPage: true, url: 'https://www.playngo.com/games/bod' });
    const plain = fact({ stated_rtp: 96.21, line: 2 });
    const g = gameFileOf(mergeFacts([plain, cites]).games[0]!, pinned, new Map([['sources/slotfolio.jsonl', 'the Slotfolio catalogue']]));
    expect(g.sources.map((s) => [s.kind, s.via])).toEqual([
      ['catalogue', 'provider page as cited by the Slotfolio catalogue, not checked here'],
      ['catalogue', null],
    ]);
    expect(g.source_url).toBe('https://www.playngo.com/games/bod');
    expect(viaPhrase('x')).toBe('provider page as cited by x, not checked here');
  });

  it('a figure a configuration rule explains is a variant of its kind', () => {
    expect(
      variantsOf(
        [fact({ stated_rtp: 96.5, variants: [{ rtp: 96.5, kind: 'standard' }] })],
        96.5,
        new Map([
          [94.5, 'operator_ladder' as const],
          [96.97, 'bonus_buy' as const],
        ]),
      ),
    ).toEqual([
      { rtp: 94.5, kind: 'operator_ladder' },
      { rtp: 96.5, kind: 'standard' },
      { rtp: 96.97, kind: 'bonus_buy' },
    ]);
  });

  it("new providers get the alias table's name and no website; every provider its group and labels", () => {
    const { games } = mergeFacts([fact({ provider: 'win-fast', providerName: 'Win Fast', name: 'A' }), fact({ provider: 'playngo', name: 'B' })]);
    const table = providerTable({
      format: 1,
      groups: { g: 'Group G' },
      providers: [
        { provider: 'playngo', display: "Play'n GO", group: null, labels: ["Play'n GO", 'Play’n GO'] },
        { provider: 'win-fast', display: 'Win Fast Games', group: 'g', labels: ['Win Fast'] },
      ],
      refused: [],
    });
    expect(providerFiles(games, new Map([['playngo', { provider: 'playngo', display: "Play'n GO", website: 'https://www.playngo.com' }]]), table)).toEqual([
      { provider: 'playngo', display: "Play'n GO", website: 'https://www.playngo.com', group: null, aliases: ["Play'n GO", 'Play’n GO'] },
      { provider: 'win-fast', display: 'Win Fast Games', website: null, group: 'Group G', aliases: ['Win Fast'] },
    ]);
  });
});
