import { describe, expect, it } from 'vitest';
import { prepareBuild } from '../../src/emit/emit.ts';
import type { Registry } from '../../src/registry/load.ts';
import { shapeProvider } from '../../src/registry/shape.ts';
import { GAME_TYPES, type GameFile, type ProviderFile } from '../../src/schemas/authoring.ts';
import { ProviderRecordSchema } from '../../src/schemas/provider.ts';
import { FIXTURE_GAMES, FIXTURE_META, FIXTURE_PROVIDERS, fixtureGame } from '../fixtures/registry.ts';

function prep(games: GameFile[] = FIXTURE_GAMES, providers: ProviderFile[] = FIXTURE_PROVIDERS) {
  const sorted = [...games].sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : 1));
  const registry: Registry = { dir: '/nowhere', meta: FIXTURE_META, providers, games: sorted, history: [] };
  return prepareBuild(registry, 'https://rtp.example.org');
}

describe('shapeProvider', () => {
  it('gives meta, every game type with zeros in a stable order, statistics and games by slug', () => {
    const p = shapeProvider(prep().ctx, 'aurora-games');
    expect(ProviderRecordSchema.parse(p)).toEqual(p);
    expect(p.meta).toEqual({ provider: 'aurora-games', display: 'Aurora Games', website: 'https://www.aurora-games.example' });
    expect(p.data_version).toBe('1.0.0');
    expect(p.games_count).toBe(2);
    expect(p.game_types).toEqual([
      { game_type: 'slot', count: 1 },
      { game_type: 'scratchcard', count: 1 },
      { game_type: 'table', count: 0 },
      { game_type: 'video_poker', count: 0 },
      { game_type: 'instant', count: 0 },
      { game_type: 'bingo', count: 0 },
      { game_type: 'keno', count: 0 },
    ]);
    expect(p.game_types.map((t) => t.game_type)).toEqual([...GAME_TYPES]);
    expect(p.rtp_stats).toEqual({ min: 95, max: 96.2, mean: 95.6, median: 95.6 });
    expect(p.multi_variant_count).toBe(1);
    expect(p.games).toEqual([
      { slug: 'book-of-aurora', name: 'Book of Aurora', stated_rtp: 96.2 },
      { slug: 'lucky-scratch', name: 'Lucky Scratch', stated_rtp: 95 },
    ]);
    expect(p.license.id).toBe('CC-BY-4.0');
  });

  it('computes mean and median to 2 decimals over odd and even counts', () => {
    const games = [
      fixtureGame({ canonical_slug: 'c-game', stated_rtp: 96.33, rtp_variants: [{ rtp: 96.33, kind: 'standard' }] }),
      fixtureGame({ canonical_slug: 'a-game', stated_rtp: 94.1, rtp_variants: [{ rtp: 94.1, kind: 'standard' }] }),
      fixtureGame({ canonical_slug: 'b-game', stated_rtp: 97.01, rtp_variants: [{ rtp: 97.01, kind: 'standard' }] }),
    ] as GameFile[];
    const odd = shapeProvider(prep(games).ctx, 'aurora-games');
    expect(odd.rtp_stats).toEqual({ min: 94.1, max: 97.01, mean: 95.81, median: 96.33 }); // mean 95.8133...
    expect(odd.games.map((g) => g.slug)).toEqual(['a-game', 'b-game', 'c-game']);
    expect(odd.multi_variant_count).toBe(0);
    const even = shapeProvider(prep(games.slice(0, 2)).ctx, 'aurora-games');
    expect(even.rtp_stats).toEqual({ min: 94.1, max: 96.33, mean: 95.22, median: 95.22 }); // (94.1 + 96.33) / 2 = 95.215
  });

  it('gives a provider without games zero counts and null statistics', () => {
    const providers = [...FIXTURE_PROVIDERS, { provider: 'zeta', display: 'Zeta', website: 'https://zeta.example' }];
    const p = shapeProvider(prep(FIXTURE_GAMES, providers).ctx, 'zeta');
    expect(ProviderRecordSchema.parse(p)).toEqual(p);
    expect(p).toMatchObject({ games_count: 0, rtp_stats: null, multi_variant_count: 0, games: [] });
    expect(p.game_types.every((t) => t.count === 0)).toBe(true);
  });

  it('fails loudly for an unknown provider key', () => {
    expect(() => shapeProvider(prep().ctx, 'nope')).toThrow('unknown provider "nope"');
  });
});
