// A synthetic registry bundle for list tests: every game type, accented and mixed-case names, ties
// in RTP and names, unknown release years, multi-variant games, providers with accented names.
import { compileListBundle } from '../../src/emit/list/list-bundle.ts';
import { createMemoryEngine } from '../../src/list/memory-engine.ts';
import { parseListQuery } from '../../src/list/query.ts';
import { makeBundle, type RegistryBundle } from '../../src/registry/bundle.ts';
import type { Registry } from '../../src/registry/load.ts';
import { slugify } from '../../src/registry/names.ts';
import { GAME_TYPES, type GameFile, type ProviderFile, VOLATILITIES } from '../../src/schemas/authoring.ts';
import type { ListQuery } from '../../src/schemas/list.ts';
import { withSource } from '../fixtures/registry.ts';

const WORDS = [
  'book',
  'dead',
  'gold',
  'fruit',
  'wild',
  'mega',
  'sweet',
  'bonanza',
  'crystal',
  'dragon',
  'fortune',
  'lucky',
  'Café',
  'Élan',
  'señor',
  'Zebra',
  'apple',
  'Äpfel',
  'quest',
  "gonzo's",
  'rise',
  'olympus',
  'moon',
  'star',
  'x',
];

export const FIXTURE_PROVIDERS: ProviderFile[] = [
  { provider: 'alpha-games', display: 'Alpha Games', website: 'https://alpha.example.com' },
  { provider: 'beta', display: 'Été Studios', website: 'https://beta.example.com' },
  { provider: 'gamma-play', display: 'gamma play', website: 'https://gamma.example.com' },
  { provider: 'delta', display: 'Delta', website: 'https://delta.example.com' },
  { provider: 'empty-co', display: 'Empty Co', website: 'https://empty.example.com' },
];

/** A seeded random stream (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A registry of `count` games (default 300) over the first four providers; `empty-co` has none. */
export function fixtureRegistry(count = 300, seed = 7): Registry {
  const rnd = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const games: GameFile[] = [];
  const slugs = new Set<string>();
  for (let i = 0; games.length < count; i++) {
    const words = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(WORDS));
    let name = words.join(' ');
    // Some names repeat exactly (ties broken by slug), some differ only in case or accents.
    if (i % 17 === 0) name = 'Book of Dead';
    if (i % 23 === 0) name = 'book of dead';
    if (i % 29 === 0) name = 'Böök of Déad';
    let slug = slugify(name) || `game-${i}`;
    if (slugs.has(slug)) slug = `${slug}-${i}`;
    slugs.add(slug);
    const provider = FIXTURE_PROVIDERS[i % 4]!.provider;
    const stated = pick([94, 95.5, 96, 96.5, 97, 98.1]);
    const lower = stated - 2;
    const multi = rnd() < 0.3;
    const game = withSource(
      {
        canonical_slug: slug,
        canonical_name: name,
        provider,
        game_type: GAME_TYPES[i % 7 === 0 ? 1 + (i % 5) : 0]!,
        stated_rtp: stated,
        rtp_variants: multi
          ? [
              { rtp: lower, kind: 'operator_ladder' },
              { rtp: stated, kind: 'standard' },
            ]
          : [{ rtp: stated, kind: 'standard' }],
        // From the index, not the random stream, so names and figures stay as they were.
        volatility: ([null, ...VOLATILITIES] as const)[(i * 3) % 5]!,
        max_win_x: [null, 250, 5000, 12500.5, 96.21][Math.floor(i / 3) % 5]!,
        release_year: rnd() < 0.25 ? null : 2010 + Math.floor(rnd() * 15),
        source_url: `https://${provider}.example.com/${slug}`,
        evidence_url: `https://evidence.example.com/${slug}`,
        last_verified: `2026-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}T00:00:00Z`,
        notes: '',
      },
      i + 1,
    );
    // Every confidence level: a licensed casino and the hand-checked row (two origins) state it (verified), two catalogues stating the same figure (corroborated), one (single_source).
    const [seed] = game.sources;
    if (i % 3 === 0) game.sources = [seed!, { ...seed!, kind: 'operator', checked_at: null, file: 'sources/o.jsonl' }];
    if (i % 3 === 1)
      game.sources = [
        { ...seed!, kind: 'catalogue', checked_at: null, file: 'sources/a.jsonl' },
        { ...seed!, kind: 'aggregator', checked_at: null, file: 'sources/b.jsonl' },
      ];
    if (i % 3 === 2) game.sources = [{ ...seed!, kind: 'catalogue', checked_at: null, file: 'sources/a.jsonl' }];
    games.push(game);
  }
  games.sort((a, b) => (a.canonical_slug < b.canonical_slug ? -1 : 1));
  return {
    dir: '(fixture)',
    meta: {
      data_version: '2.3.4',
      frozen_at: '2026-05-01T00:00:00Z',
      license: 'CC-BY-4.0',
      license_url: 'https://creativecommons.org/licenses/by/4.0/',
      attribution: 'fixture',
    },
    providers: FIXTURE_PROVIDERS,
    games,
    history: [
      {
        data_version: '2.3.3',
        frozen_at: '2026-03-01T00:00:00Z',
        slug: games[0]!.canonical_slug,
        provider: games[0]!.provider,
        field: 'stated_rtp',
        from: 95,
        to: games[0]!.stated_rtp,
      },
      {
        data_version: '2.3.3',
        frozen_at: '2026-03-01T00:00:00Z',
        slug: games[1]!.canonical_slug,
        provider: games[1]!.provider,
        field: 'rtp_variants',
        from: [95],
        to: [94, 95],
      },
      {
        data_version: '2.3.4',
        frozen_at: '2026-05-01T00:00:00Z',
        slug: games[0]!.canonical_slug,
        provider: games[0]!.provider,
        field: 'stated_rtp',
        from: 97,
        to: 96,
      },
      {
        data_version: '2.3.4',
        frozen_at: '2026-05-01T00:00:00Z',
        slug: games[2]!.canonical_slug,
        provider: games[2]!.provider,
        field: 'rtp_variants',
        from: null,
        to: [96],
      },
      {
        data_version: '2.2.0',
        frozen_at: '2026-01-15T12:00:00+02:00',
        slug: games[3]!.canonical_slug,
        provider: games[3]!.provider,
        field: 'stated_rtp',
        from: null,
        to: 96,
      },
    ],
  };
}

/** The bundle of `fixtureRegistry(count)`. */
export function fixtureBundle(count = 300, seed = 7): RegistryBundle {
  return makeBundle(fixtureRegistry(count, seed));
}

/** A list query string parsed, or a thrown error naming every problem. */
export function parseQuery(query: string): ListQuery {
  const r = parseListQuery(query);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.query;
}

/** The fixture bundle of `count` games, its list bundle compiled in process, and an engine over it. */
export function fixtureEngine(count = 300) {
  const bundle = fixtureBundle(count);
  const compiled = compileListBundle(bundle, Buffer.from(JSON.stringify(bundle)));
  return { bundle, compiled, engine: createMemoryEngine(compiled) };
}
