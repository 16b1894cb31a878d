// The configuration rules and the conflict rule of the merge (src/ingest/configurations.ts,
// src/ingest/merge.ts) on small sets of facts; the same rules on the real lines are in ingest.test.ts.
import { describe, expect, it } from 'vitest';
import { byPrecedence, decide, mergeFacts } from '../../src/ingest/merge.ts';
import type { SourceFact } from '../../src/ingest/source.ts';

/** A fact with the given fields (a catalogue line of provider `p` stating 96 by default). */
const fact = (over: Partial<SourceFact> = {}): SourceFact => {
  const stated = over.stated_rtp ?? 96;
  return { file: 'sources/t', line: 1, tier: 'catalogue', citesProviderPage: false, providerName: 'P', provider: 'p', name: 'G', stated_rtp: stated, variants: [{ rtp: stated, kind: 'standard' }], url: 'https://p.example', page: null, notes: '', checked_at: null, game_type: 'slot', volatility: null, max_win_x: null, release_year: null, ...over };
};

describe('configuration rules and conflicts', () => {
  it('within one rank the higher figure wins; a lower rank never sets the figure', () => {
    const f = (tier: SourceFact['tier'], rtp: number, line: number) => fact({ tier, stated_rtp: rtp, line });
    expect([f('aggregator', 97, 1), f('catalogue', 95, 2), f('catalogue', 96, 3)].sort(byPrecedence).map((x) => x.line)).toEqual([3, 2, 1]);
    expect(mergeFacts([f('aggregator', 97, 1), f('provider', 96, 2)]).games[0]!.winner.stated_rtp).toBe(96);
    // A catalogue line citing the provider's page ranks above a plain catalogue line, below the seed.
    const cites = fact({ stated_rtp: 96.2, citesProviderPage: true, line: 4 });
    expect([f('catalogue', 96.5, 5), cites, f('hand_checked', 96, 6)].sort(byPrecedence).map((x) => x.line)).toEqual([6, 4, 5]);
  });

  it('within 0.5 points the higher figure wins and the sources disagree; beyond it the game is held back', () => {
    const near = decide([fact({ stated_rtp: 96.5, tier: 'aggregator' }), fact({ stated_rtp: 96.0, tier: 'aggregator', line: 2 })]);
    expect(near).toMatchObject({ ok: true, disagree: true });
    if (near.ok) expect(near.winner.stated_rtp).toBe(96.5);
    const far = decide([fact({ stated_rtp: 98.08, tier: 'aggregator' }), fact({ stated_rtp: 95.03, tier: 'aggregator', line: 2 })]);
    expect(far).toEqual({ ok: false, reason: 'sources of one rank state defaults 98.08 (sources/t:1) and 95.03 (sources/t:2), more than 0.5 apart, and no configuration rule explains the difference' });
    // A lower rank beyond 0.5 does not hold the game back: the higher rank states the figure.
    expect(decide([fact({ stated_rtp: 96.53 }), fact({ stated_rtp: 97.5, tier: 'aggregator', line: 2 })])).toMatchObject({ ok: true, disagree: true });
  });

  it("provider ladder: a Play'n GO figure in a lower rung is an operator build of a 96.x default, whatever its rank", () => {
    const d = decide([fact({ provider: 'playngo', stated_rtp: 94.5 }), fact({ provider: 'playngo', stated_rtp: 96.5, tier: 'aggregator', line: 2 })]);
    expect(d.ok && [d.winner.stated_rtp, [...d.configurations]]).toEqual([96.5, [[94.5, 'operator_ladder']]]);
    // Another provider has no ladder: the same figures are a conflict.
    expect(decide([fact({ stated_rtp: 94.5, tier: 'aggregator' }), fact({ stated_rtp: 96.5, tier: 'aggregator', line: 2 })]).ok).toBe(false);
  });

  it('named variant: a figure another source names as a bought feature is that variant, not a rival default', () => {
    const igt = fact({ tier: 'aggregator', stated_rtp: 96.05, variants: [{ rtp: 96.05, kind: 'standard' }, { rtp: 96.06, kind: 'bonus_buy' }], line: 2 });
    const d = decide([fact({ tier: 'aggregator', stated_rtp: 96.06 }), igt].sort(byPrecedence));
    expect(d.ok && [d.winner.stated_rtp, [...d.configurations], d.disagree]).toEqual([96.05, [[96.06, 'bonus_buy']], false]);
  });

  it('listed figure: a figure the source stating the default lists among the game\'s figures is a variant of it', () => {
    const d = decide([fact({ stated_rtp: 95.94, variants: [{ rtp: 93.99, kind: 'unknown' }, { rtp: 95.94, kind: 'standard' }] }), fact({ tier: 'aggregator', stated_rtp: 93.99, line: 2 })]);
    expect(d.ok && [...d.configurations]).toEqual([[93.99, 'unknown']]);
  });

  it('keeps a published slug and gives a clashing new name its provider key', () => {
    const f = (provider: string, name: string) => fact({ provider, providerName: provider, name });
    const { games } = mergeFacts([f('a', 'Book of X'), f('b', 'Book of X')], new Map([['b/bookofx', 'book-of-x']]));
    expect(games.map((g) => [g.provider, g.slug])).toEqual([['b', 'book-of-x'], ['a', 'book-of-x-a']]);
  });

  it('matches names across the studios of one group, keeping the most trusted label', () => {
    const scope = (p: string) => (p === 'microgaming' || p === 'games-global' ? 'games-global' : p);
    const { games } = mergeFacts([fact({ provider: 'microgaming', name: 'Immortal Romance', stated_rtp: 96.86 }), fact({ provider: 'games-global', name: 'Immortal Romance', stated_rtp: 96.86, tier: 'aggregator', line: 2 })], new Map(), scope);
    expect(games.map((g) => [g.provider, g.slug, g.facts.length])).toEqual([['microgaming', 'immortal-romance', 2]]);
  });

  it("a distributor's lines and its studio's name one game, unless the studio's game is published already", () => {
    const distributorOf = (p: string) => (p === 'studio' ? 'pub' : null);
    const studio = fact({ provider: 'studio', name: 'Rock Vegas', stated_rtp: 96.64 });
    const pub = fact({ provider: 'pub', name: 'Rock Vegas', stated_rtp: 96.64, tier: 'aggregator', line: 2 });
    const merged = mergeFacts([studio, pub], new Map(), undefined, distributorOf).games;
    expect(merged.map((g) => [g.provider, g.slug, g.facts.map((f) => [f.provider, f.providerName])])).toEqual([['pub', 'rock-vegas', [['pub', 'P'], ['pub', 'P']]]]);
    // Published under the studio before: it stays the studio's game.
    const kept = mergeFacts([studio, pub], new Map([['studio/rockvegas', 'rock-vegas-studio']]), undefined, distributorOf).games;
    expect(kept.map((g) => [g.provider, g.slug])).toEqual([['pub', 'rock-vegas'], ['studio', 'rock-vegas-studio']]);
  });
});
