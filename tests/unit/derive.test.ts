import { describe, expect, it } from 'vitest';
import { badgesFor, confidenceBasis, confidenceOf, snapshotId, sourceKind, toGameRecord } from '../../src/registry/derive.ts';
import type { SourceEntry } from '../../src/schemas/authoring.ts';
import { GameRecordSchema } from '../../src/schemas/game-record.ts';
import { BOOK_OF_DEAD, BOOK_OF_DEAD_PROVIDER } from '../fixtures/registry.ts';

const provider = BOOK_OF_DEAD_PROVIDER;
const game = BOOK_OF_DEAD;

const src = (kind: SourceEntry['kind'], stated: number, file: string, url = 'https://x.example/p'): SourceEntry => ({
  kind,
  url,
  checked_at: null,
  stated_rtp: stated,
  rtp_variants: [stated],
  file,
  line: 1,
});

describe('toGameRecord', () => {
  it('derives range, count, display name and badges', () => {
    const r = toGameRecord(game, provider);
    expect(GameRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      provider_display: "Play'n GO",
      rtp_variants: [84.18, 94.25, 96.21],
      rtp_min: 84.18,
      rtp_max: 96.21,
      variants_count: 3,
      max_win: 5000,
      // The seed row's page is on the provider's website, but this project read no provider page.
      source_kind: 'third_party',
      confidence: 'single_source',
      badges: ['variants_tracked'],
    });
    expect(r.sources.map((s) => s.origin)).toEqual(['the review site slotsscience.com']);
    expect(r.snapshot_id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('changes snapshot_id when a fact changes and only then', () => {
    const a = toGameRecord(game, provider);
    expect(toGameRecord(structuredClone(game), provider).snapshot_id).toBe(a.snapshot_id);
    expect(toGameRecord({ ...game, stated_rtp: 96.2, rtp_variants: [{ rtp: 96.2, kind: 'standard' }] }, provider).snapshot_id).not.toBe(a.snapshot_id);
    expect(toGameRecord({ ...game, notes: 'x' }, provider).snapshot_id).not.toBe(a.snapshot_id);
    const { snapshot_id: _s, ...rest } = a;
    expect(snapshotId(rest)).toBe(a.snapshot_id);
  });
});

describe('badge rules', () => {
  it('confidence: verified when a provider page read here states the figure, or a licensed casino and another origin do and no source states more; the seed alone is one origin', () => {
    expect(confidenceOf(96, [src('provider', 96, 'sources/a')])).toBe('verified');
    expect(confidenceOf(96, [src('hand_checked', 96, 'sources/seed-games.csv')])).toBe('single_source');
    const op = src('operator', 96, 'sources/operator-711nl.jsonl');
    expect(confidenceOf(96, [op, src('catalogue', 96, 'sources/calcasi.jsonl')])).toBe('verified');
    // A higher figure elsewhere: the casino may run a lower build than the default.
    expect(confidenceOf(96, [op, src('catalogue', 96, 'sources/calcasi.jsonl'), src('aggregator', 96.5, 'sources/igt-slots.jsonl')])).toBe('corroborated');
    expect(confidenceOf(96, [op])).toBe('single_source');
    // A seed row stating another figure does not verify this one.
    expect(confidenceOf(96, [src('aggregator', 96, 'sources/a'), src('hand_checked', 95, 'sources/seed-games.csv')])).toBe('single_source');
  });

  it('confidence: corroborated when two independent sources state the figure; a seed row whose evidence is Slotfolio is not independent of it', () => {
    expect(confidenceOf(96, [src('catalogue', 96, 'sources/calcasi.jsonl'), src('aggregator', 96, 'sources/igt-slots.jsonl')])).toBe('corroborated');
    expect(confidenceOf(96, [src('aggregator', 96, 'sources/a.jsonl'), src('aggregator', 96, 'sources/a.jsonl')])).toBe('single_source');
    // The overlay table and the review-site scrape are one origin; a seed row whose evidence is Slotfolio is Slotfolio.
    expect(confidenceOf(96, [src('aggregator', 96, 'sources/overlay-slots.jsonl'), src('aggregator', 96, 'sources/slotcatalog.jsonl')])).toBe('single_source');
    expect(
      confidenceOf(96, [
        src('hand_checked', 96, 'sources/seed-games.csv', 'https://github.com/Pr0ject2/slotfolio/blob/x/a.ts'),
        src('catalogue', 96, 'sources/slotfolio.jsonl'),
      ]),
    ).toBe('single_source');
    expect(confidenceOf(96, [src('catalogue', 96, 'sources/calcasi.jsonl'), src('aggregator', 95, 'sources/igt-slots.jsonl')])).toBe('single_source');
    // 95.3 and 95.299 are two figures, not one.
    expect(confidenceOf(95.299, [src('aggregator', 95.299, 'sources/a.jsonl'), src('aggregator', 95.3, 'sources/b.jsonl')])).toBe('single_source');
  });

  it('names the branch of the rule a figure meets, its own origin first', () => {
    const s = (kind: string, origin: string, stated_rtp = 96) => ({ kind, origin, stated_rtp });
    expect(confidenceBasis(96, [s('aggregator', 'scrapes'), s('provider', 'playngo.com')])).toEqual({
      level: 'verified',
      basis: 'provider_page',
      origins: ['playngo.com', 'scrapes'],
    });
    expect(confidenceBasis(96, [s('catalogue', 'calcasi'), s('operator', '711.nl')])).toEqual({
      level: 'verified',
      basis: 'operator',
      origins: ['711.nl', 'calcasi'],
    });
    // A higher figure anywhere leaves the casino's figure at corroborated; alone it is one origin.
    expect(confidenceBasis(96, [s('catalogue', 'calcasi'), s('operator', '711.nl'), s('aggregator', 'scrapes', 96.5)]).basis).toBe('origins');
    expect(confidenceBasis(96, [s('operator', '711.nl'), s('aggregator', 'scrapes', 94)])).toEqual({
      level: 'single_source',
      basis: 'one_origin',
      origins: ['711.nl'],
    });
  });

  it('verified_rtp follows verified; a catalogue citing a provider page is not the page', () => {
    expect(badgesFor(96, [96], [src('provider', 96, 'sources/a')])).toEqual(['verified_rtp']);
    expect(badgesFor(96, [96], [src('hand_checked', 96, 'sources/seed-games.csv')])).toEqual([]);
    expect(badgesFor(96, [96], [src('catalogue', 96, 'sources/calcasi.jsonl'), src('aggregator', 96, 'sources/igt-slots.jsonl')])).toEqual([]);
    const cited = { ...src('catalogue', 96, 'sources/slotfolio.jsonl'), via: 'provider page as cited by the Slotfolio catalogue, not checked here' };
    expect(badgesFor(96, [96], [cited])).toEqual([]);
  });

  it('variants_tracked for more than one variant; sources_disagree when a source states a figure that is neither the stated RTP nor a variant', () => {
    expect(badgesFor(96, [94, 96], [])).toEqual(['variants_tracked']);
    expect(badgesFor(96.48, [96.48], [src('provider', 96.48, 'sources/s'), src('aggregator', 96.6, 'sources/i')])).toEqual([
      'verified_rtp',
      'sources_disagree',
    ]);
    // A lower build a configuration rule made a variant is no disagreement (Honey Rush: 94.50 beside 96.50).
    expect(badgesFor(96.5, [94.5, 96.5], [src('catalogue', 96.5, 'sources/a'), src('catalogue', 94.5, 'sources/b')])).toEqual(['variants_tracked']);
  });

  it('provider_page from a provider source citing the URL when the website is unknown', () => {
    expect(sourceKind('https://3oaks.com/game/x', null, [src('provider', 96, 'sources/s', 'https://3oaks.com/game/x')])).toBe('provider_page');
    expect(sourceKind('https://3oaks.com/game/x', null, [])).toBe('third_party');
  });
  it("a URL on the provider's website that no provider source read here is third_party", () => {
    expect(sourceKind('https://playngo.com/x', 'https://www.playngo.com')).toBe('third_party');
    expect(
      sourceKind('https://games.playngo.com/x', 'https://playngo.com', [src('catalogue', 96, 'sources/slotfolio.jsonl', 'https://games.playngo.com/x')]),
    ).toBe('third_party');
    expect(sourceKind('https://notplayngo.com/x', 'https://playngo.com')).toBe('third_party');
    expect(sourceKind('https://slotsscience.com/x', 'https://playngo.com')).toBe('third_party');
  });
});
