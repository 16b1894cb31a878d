// The configuration rules and the conflict rule of the merge (src/ingest/configurations.ts,
// src/ingest/merge.ts) on small sets of facts; the same rules on the real lines are in ingest.test.ts.
import { describe, expect, it } from 'vitest';
import { byPrecedence, decide } from '../../src/ingest/decide.ts';
import { mergeFacts, sameGame } from '../../src/ingest/merge.ts';
import { mergedEntries } from '../../src/ingest/merged.ts';
import type { SourceFact } from '../../src/ingest/source.ts';
import { sourceFact as fact } from '../fixtures/facts.ts';

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
    expect(far).toEqual({
      ok: false,
      reason:
        'sources of one rank state defaults 98.08 (sources/t:1) and 95.03 (sources/t:2), more than 0.5 apart, and no configuration rule explains the difference',
    });
    // A lower rank beyond 0.5 does not hold the game back: the higher rank states the figure.
    expect(decide([fact({ stated_rtp: 96.53 }), fact({ stated_rtp: 97.5, tier: 'aggregator', line: 2 })])).toMatchObject({ ok: true, disagree: true });
  });

  it("ladder steps and one origin's two builds are variants, not conflicts (Panther Queen 96.50 / 95.50, Wild Gladiators 96.17 / 94.07)", () => {
    const pp = (rtp: number, file: string, line = 1) => fact({ provider: 'pragmatic-play', stated_rtp: rtp, tier: 'aggregator', file, line });
    const step = decide([pp(96.5, 'sources/igt-slots.jsonl'), pp(95.5, 'sources/slotcatalog.jsonl')]);
    expect(step.ok && [step.winner.stated_rtp, [...step.configurations]]).toEqual([96.5, [[95.5, 'operator_ladder']]]);
    // 1.51 points under is no step: a conflict.
    expect(decide([pp(96.42, 'sources/igt-slots.jsonl'), pp(94.91, 'sources/slotcatalog.jsonl')]).ok).toBe(false);
    const two = decide([pp(96.17, 'sources/igt-slots.jsonl'), pp(96.17, 'sources/overlay-slots.jsonl'), pp(94.07, 'sources/slotcatalog.jsonl')]);
    expect(two.ok && [two.winner.stated_rtp, [...two.configurations], two.disagree]).toEqual([96.17, [[94.07, 'unknown']], false]);
    // One origin alone giving two figures decides nothing (Feathered Frenzy: 97.00 and 96.30, both from the scrapes).
    expect(
      decide([
        fact({ stated_rtp: 97, tier: 'aggregator', file: 'sources/slotcatalog.jsonl' }),
        fact({ stated_rtp: 96.3, tier: 'aggregator', file: 'sources/slotcatalog.jsonl', line: 2 }),
      ]).ok,
    ).toBe(false);
  });

  it("provider ladder: a Play'n GO figure in a lower rung is an operator build of a 96.x default, whatever its rank", () => {
    const d = decide([fact({ provider: 'playngo', stated_rtp: 94.5 }), fact({ provider: 'playngo', stated_rtp: 96.5, tier: 'aggregator', line: 2 })]);
    expect(d.ok && [d.winner.stated_rtp, [...d.configurations]]).toEqual([96.5, [[94.5, 'operator_ladder']]]);
    // Another provider has no ladder: the same figures are a conflict.
    expect(decide([fact({ stated_rtp: 94.5, tier: 'aggregator' }), fact({ stated_rtp: 96.5, tier: 'aggregator', line: 2 })]).ok).toBe(false);
  });

  it('named variant: a figure another source names as a bought feature is that variant, not a rival default', () => {
    const igt = fact({
      tier: 'aggregator',
      stated_rtp: 96.05,
      variants: [
        { rtp: 96.05, kind: 'standard' },
        { rtp: 96.06, kind: 'bonus_buy' },
      ],
      line: 2,
    });
    const d = decide([fact({ tier: 'aggregator', stated_rtp: 96.06 }), igt].sort(byPrecedence));
    expect(d.ok && [d.winner.stated_rtp, [...d.configurations], d.disagree]).toEqual([96.05, [[96.06, 'bonus_buy']], false]);
  });

  it("listed figure: a figure the source stating the default lists among the game's figures is a variant of it", () => {
    const d = decide([
      fact({
        stated_rtp: 95.94,
        variants: [
          { rtp: 93.99, kind: 'unknown' },
          { rtp: 95.94, kind: 'standard' },
        ],
      }),
      fact({ tier: 'aggregator', stated_rtp: 93.99, line: 2 }),
    ]);
    expect(d.ok && [...d.configurations]).toEqual([[93.99, 'unknown']]);
  });

  it('keeps a published slug and gives a clashing new name its provider key', () => {
    const f = (provider: string, name: string) => fact({ provider, providerName: provider, name });
    const { games } = mergeFacts([f('a', 'Book of X'), f('b', 'Book of X')], new Map([['b/bookofx', 'book-of-x']]));
    expect(games.map((g) => [g.provider, g.slug])).toEqual([
      ['b', 'book-of-x'],
      ['a', 'book-of-x-a'],
    ]);
  });

  it('matches names across the studios of one group, keeping the most trusted label', () => {
    const scope = (p: string) => (p === 'microgaming' || p === 'games-global' ? 'games-global' : p);
    const { games } = mergeFacts(
      [
        fact({ provider: 'microgaming', name: 'Immortal Romance', stated_rtp: 96.86 }),
        fact({ provider: 'games-global', name: 'Immortal Romance', stated_rtp: 96.86, tier: 'aggregator', line: 2 }),
      ],
      new Map(),
      scope,
    );
    expect(games.map((g) => [g.provider, g.slug, g.facts.length])).toEqual([['microgaming', 'immortal-romance', 2]]);
  });

  it("a distributor's lines and its studio's name one game; a studio's published slug stays the game's", () => {
    const distributorOf = (p: string) => (p === 'studio' ? 'pub' : null);
    const studio = fact({ provider: 'studio', name: 'Rock Vegas', stated_rtp: 96.64 });
    const pub = fact({ provider: 'pub', name: 'Rock Vegas', stated_rtp: 96.64, tier: 'aggregator', line: 2 });
    const merged = mergeFacts([studio, pub], new Map(), undefined, distributorOf).games;
    expect(merged.map((g) => [g.provider, g.slug, g.facts.map((f) => [f.provider, f.providerName])])).toEqual([
      [
        'pub',
        'rock-vegas',
        [
          ['pub', 'P'],
          ['pub', 'P'],
        ],
      ],
    ]);
    // Published under the studio before, the distributor's record new, the same figure: one game, the distributor's, under the published slug.
    const kept = mergeFacts([studio, pub], new Map([['studio/rockvegas', 'rock-vegas-studio']]), undefined, distributorOf).games;
    expect(kept.map((g) => [g.provider, g.slug, g.facts.map((f) => f.studio ?? null)])).toEqual([['pub', 'rock-vegas-studio', ['studio', null]]]);
    // Another figure is not proven the same game: both stay.
    const two = mergeFacts(
      [studio, { ...pub, stated_rtp: 96.5, variants: [{ rtp: 96.5, kind: 'standard' }] }],
      new Map([['studio/rockvegas', 'rock-vegas-studio']]),
      undefined,
      distributorOf,
    ).games;
    expect(two.map((g) => [g.provider, g.slug])).toEqual([
      ['pub', 'rock-vegas'],
      ['studio', 'rock-vegas-studio'],
    ]);
  });

  describe("merge: a published studio record that is its distributor's published record", () => {
    const distributorOf = (p: string) => (p === 'reel-kingdom' ? 'pragmatic-play' : null);
    // Big Bass Splash as the real lines give it: calcasi under Reel Kingdom, the data API under Pragmatic Play.
    const rk = (over: Partial<SourceFact> = {}) =>
      fact({
        provider: 'reel-kingdom',
        providerName: 'Reel Kingdom',
        name: 'Big Bass Splash',
        stated_rtp: 96.71,
        file: 'sources/calcasi.jsonl',
        line: 114,
        ...over,
      });
    const pp = (over: Partial<SourceFact> = {}) =>
      fact({
        provider: 'pragmatic-play',
        providerName: 'Pragmatic Play',
        name: 'Big Bass Splash',
        stated_rtp: 96.71,
        tier: 'aggregator',
        file: 'sources/igt-slots.jsonl',
        line: 98,
        ...over,
      });
    const published = new Map([
      ['reel-kingdom/bigbasssplash', 'big-bass-splash-reel-kingdom'],
      ['pragmatic-play/bigbasssplash', 'big-bass-splash'],
    ]);

    it("same name and same figure: one record under the distributor's slug, keeping both sources; the studio's slug leaves naming it", () => {
      const { games, merged } = mergeFacts([rk(), pp()], published, undefined, distributorOf);
      expect(games.map((g) => [g.provider, g.slug, g.winner.stated_rtp, g.facts.map((f) => [f.file, f.provider, f.studio ?? null])])).toEqual([
        [
          'pragmatic-play',
          'big-bass-splash',
          96.71,
          [
            ['sources/calcasi.jsonl', 'pragmatic-play', 'reel-kingdom'],
            ['sources/igt-slots.jsonl', 'pragmatic-play', null],
          ],
        ],
      ]);
      expect(merged.map((m) => [m.provider, m.slug, m.mergedInto, m.intoProvider, m.reason])).toEqual([
        [
          'reel-kingdom',
          'big-bass-splash-reel-kingdom',
          'big-bass-splash',
          'pragmatic-play',
          'reel-kingdom\'s games are published by pragmatic-play (its distributor in data/provider-aliases.json); both records name it "Big Bass Splash" and state 96.71: sources/calcasi.jsonl:114 and sources/igt-slots.jsonl:98',
        ],
      ]);
      // Names that differ only in case and punctuation are one name key (Pizza! Pizza? Pizza!), and the reason shows both.
      expect(sameGame([rk({ name: 'Pizza! Pizza? Pizza!', stated_rtp: 96.04 })], [pp({ name: 'PIZZA! PIZZA? PIZZA!', stated_rtp: 96.04 })])).toContain(
        'both records name it "Pizza! Pizza? Pizza!" and "PIZZA! PIZZA? PIZZA!" (one name key) and state 96.04',
      );
    });

    it("never guessed: other figures, a record held back or an unrelated provider keep both; a new distributor record takes the studio's slug", () => {
      const both = (facts: SourceFact[], slugs = published, of = distributorOf) => mergeFacts(facts, slugs, undefined, of);
      // One figure apart (96.70 and 96.71): not proven the same build; both stay published.
      expect(both([rk({ stated_rtp: 96.7 }), pp()]).games.map((g) => g.slug)).toEqual(['big-bass-splash', 'big-bass-splash-reel-kingdom']);
      expect(both([rk({ stated_rtp: 96.7 }), pp()]).merged).toEqual([]);
      // The distributor's record is held back on its own: nothing to merge into.
      expect(both([rk(), pp({ stated_rtp: 98.5 }), pp({ stated_rtp: 96.71, line: 99 })]).merged).toEqual([]);
      // No distributor in the alias table (a group or nothing): two providers' games of one name stay two.
      expect(both([rk(), pp()], published, () => null).merged).toEqual([]);
      // The distributor's lines name the game but it was never published: one record, the distributor's, keeps the studio's slug (nothing moves).
      const kept = both([rk(), pp()], new Map([['reel-kingdom/bigbasssplash', 'big-bass-splash-reel-kingdom']]));
      expect([kept.games.map((g) => [g.provider, g.slug]), kept.merged]).toEqual([[['pragmatic-play', 'big-bass-splash-reel-kingdom']], []]);
    });

    it("stays merged on the next run: the studio's lines join again, the entry is kept, and the old slug is never given again", () => {
      const first = mergeFacts([rk(), pp()], published, undefined, distributorOf);
      const recorded = mergedEntries([], first.merged);
      expect(recorded).toEqual([
        {
          provider: 'reel-kingdom',
          name: 'Big Bass Splash',
          slug: 'big-bass-splash-reel-kingdom',
          merged_into: 'big-bass-splash',
          into_provider: 'pragmatic-play',
          reason: first.merged[0]!.reason,
          sources: [{ file: 'sources/calcasi.jsonl', line: 114, stated_rtp: 96.71 }],
        },
      ]);
      const next = mergeFacts(
        [rk(), pp()],
        new Map([['pragmatic-play/bigbasssplash', 'big-bass-splash']]),
        undefined,
        distributorOf,
        recorded.map((m) => m.slug),
      );
      expect(next.games.map((g) => [g.slug, g.facts.length])).toEqual([['big-bass-splash', 2]]);
      expect(mergedEntries(recorded, next.merged)).toEqual(recorded);
      // A new game whose slug would be the merged one gets another.
      const clash = mergeFacts([fact({ provider: 'x', name: 'Big Bass Splash Reel Kingdom' })], new Map(), undefined, undefined, [
        'big-bass-splash-reel-kingdom',
      ]);
      expect(clash.games.map((g) => g.slug)).toEqual(['big-bass-splash-reel-kingdom-x']);
    });
  });
});
