import { describe, expect, it } from 'vitest';
import { badgesFor, snapshotId, sourceKind, toGameRecord } from '../../src/registry/derive.ts';
import { GameRecordSchema } from '../../src/schemas/game-record.ts';
import type { GameFile, ProviderFile } from '../../src/schemas/authoring.ts';

const provider: ProviderFile = { provider: 'playngo', display: "Play'n GO", website: 'https://www.playngo.com' };
const game: GameFile = {
  canonical_slug: 'book-of-dead',
  canonical_name: 'Book of Dead',
  provider: 'playngo',
  game_type: 'slot',
  stated_rtp: 96.21,
  rtp_variants: [
    { rtp: 84.18, kind: 'operator_ladder' },
    { rtp: 94.25, kind: 'operator_ladder' },
    { rtp: 96.21, kind: 'standard' },
  ],
  volatility: 'high',
  max_win_x: 5000,
  release_year: 2016,
  source_url: 'https://www.playngo.com/games/book-of-dead',
  evidence_url: 'https://slotsscience.com/lab-book-of-dead.html',
  last_verified: '2026-11-21T00:00:00Z',
  notes: '',
};

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
      source_kind: 'provider_page',
      badges: ['verified_rtp', 'variants_tracked'],
    });
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
  it('gives verified_rtp only for provider-page sources and variants_tracked only for >1 variant', () => {
    expect(badgesFor('provider_page', 1)).toEqual(['verified_rtp']);
    expect(badgesFor('third_party', 2)).toEqual(['variants_tracked']);
    expect(badgesFor('third_party', 1)).toEqual([]);
  });
  it('matches the provider host with or without www and on subdomains', () => {
    expect(sourceKind('https://playngo.com/x', 'https://www.playngo.com')).toBe('provider_page');
    expect(sourceKind('https://games.playngo.com/x', 'https://playngo.com')).toBe('provider_page');
    expect(sourceKind('https://notplayngo.com/x', 'https://playngo.com')).toBe('third_party');
    expect(sourceKind('https://slotsscience.com/x', 'https://playngo.com')).toBe('third_party');
  });
});
