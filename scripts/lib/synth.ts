// Synthetic registry generator for scale work only (npm run data:synth): seeded, deterministic, valid against the authoring schemas.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { IO_CONCURRENCY, toDataJson } from '../../src/lib/write.ts';
import { diffFrozen, frozenJson, frozenStateOf, historyJsonl } from '../../src/registry/freeze.ts';
import { FROZEN_FILE, HISTORY_FILE, REGISTRY_FILE } from '../../src/registry/load.ts';
import { slugify } from '../../src/registry/names.ts';
import {
  type FrozenFile,
  FrozenFileSchema,
  type GameFile,
  GameFileSchema,
  type GameType,
  type HistoryEntry,
  HistoryEntrySchema,
  type ProviderFile,
  ProviderFileSchema,
  RESERVED_SLUGS,
  type RegistryFile,
  RegistryFileSchema,
  type Variant,
  type Volatility,
} from '../../src/schemas/authoring.ts';

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1); the same seed gives the same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Invented studios; their websites are on the reserved `.example` top-level domain, so they are plainly synthetic. */
export const SYNTH_PROVIDER_NAMES = [
  'Northlight Gaming',
  'Ironwood Studios',
  'Silver Comet Games',
  'Red Lantern Interactive',
  'Golden Owl Gaming',
  'Nine Rivers Studio',
  'Stormglass Games',
  'Copperleaf Play',
  'Midnight Loop',
  'Harborlight Gaming',
  'Tall Pine Studios',
  'Blue Meridian Games',
  'Quartzline Gaming',
  'Oakshade Interactive',
  'Velvet Moth Games',
  'Brightforge Studios',
  'Sable Crown Gaming',
  'Twin Anchor Games',
  'Luminant Reels',
  'Sunspire Studio',
  'Kestrel Play',
  'Driftwood Gaming',
  'Amber Tide Games',
  'Hollowpeak Studios',
  'Cobalt Finch',
  'Rune Harbor Gaming',
  'Emberlane Games',
  'Glasswing Interactive',
  'Foxglove Reels',
  'Starling Forge',
  'Marblehead Gaming',
  'Silverbirch Studios',
  'Ninefold Games',
  'Lanternfish Play',
  'Westwind Gaming',
  'Crimson Atlas Studio',
  'Mossgate Games',
  'Highcliff Interactive',
  'Paper Kite Gaming',
  'Zephyr Lane Studios',
] as const;

const OF_PREFIXES = [
  'Book of',
  'Gates of',
  'Legacy of',
  'Rise of',
  'Return of',
  'Temple of',
  'Quest for',
  'Curse of',
  'Tales of',
  'Wrath of',
  'Realm of',
  'Hall of',
  'Age of',
  'Secrets of',
  'Treasures of',
  'Path of',
  'Crown of',
  'Eye of',
  'Heart of',
  'Reign of',
  'Land of',
  'Tomb of',
  'Valley of',
  'Wheel of',
  'Power of',
  'Riches of',
  'Dawn of',
  'Spirit of',
  'Song of',
  'Shield of',
  'Sword of',
  'Mask of',
  'Fury of',
  'Vault of',
  'Pearls of',
  'Gems of',
];
const PROPER_NOUNS = [
  'Olympus',
  'Ra',
  'Anubis',
  'Cleopatra',
  'Atlantis',
  'Valhalla',
  'Midas',
  'Merlin',
  'Zeus',
  'Athena',
  'Odin',
  'Thor',
  'Egypt',
  'Avalon',
  'Camelot',
  'Troy',
  'Sparta',
  'Babylon',
  'El Dorado',
  'Poseidon',
  'Medusa',
  'Hades',
  'Apollo',
  'Isis',
  'Horus',
  'Osiris',
  'Loki',
  'Freya',
  'Aztecs',
  'the Dead',
  'the Dragon',
  'the Pharaoh',
  'the Wolf',
  'the Tiger',
  'the Sun',
  'the Moon',
  'the Gods',
  'the Nile',
  'the Inca',
  'the Vikings',
  'the Samurai',
  'Persia',
  'Tutankhamun',
  'Kraken',
  'Phoenix',
  'Pegasus',
  'Hercules',
  'Achilles',
  'Ares',
  'Artemis',
  'Hermes',
  'Neptune',
  'Mars',
  'Jupiter',
  'Orion',
  'Cairo',
  'Shanghai',
  'Rio',
  'Vegas',
  'Bali',
  'Kyoto',
  'the Amazon',
  'the Sahara',
  'the Arctic',
  'the Jungle',
  'the Deep',
  'the Ocean',
  'Fortune',
  'Riches',
  'Kings',
  'Queens',
  'Dragons',
  'Giants',
  'Titans',
  'Legends',
  'Heroes',
  'Pirates',
  'Wizards',
  'Monsters',
  'Ninjas',
  'Mermaids',
];
const ADJECTIVES = [
  'Big Bass',
  'Sweet',
  'Fire',
  'Golden',
  'Wild',
  'Lucky',
  'Hot',
  'Mega',
  'Super',
  'Crazy',
  'Royal',
  'Mystic',
  'Diamond',
  'Jungle',
  'Frozen',
  'Dragon',
  'Mighty',
  'Magic',
  'Neon',
  'Cosmic',
  'Electric',
  'Ancient',
  'Sticky',
  'Juicy',
  'Buffalo',
  'Pirate',
  'Candy',
  'Fruit',
  'Joker',
  'Cash',
  'Silver',
  'Ruby',
  'Emerald',
  'Sapphire',
  'Crystal',
  'Thunder',
  'Storm',
  'Ice',
  'Blazing',
  'Burning',
  'Shining',
  'Twin',
  'Triple',
  'Double',
  'Happy',
  'Savage',
  'Rocket',
  'Turbo',
  'Chilli',
  'Tropical',
  'Midnight',
  'Solar',
  'Lunar',
  'Star',
  'Treasure',
  'Viking',
  'Samurai',
  'Wolf',
  'Panda',
  'Tiger',
  'Lion',
  'Eagle',
  'Bison',
  'Gorilla',
  'Koi',
  'Lotus',
  'Phoenix',
  'Sugar',
];
const THEME_NOUNS = [
  'Bonanza',
  'Fortune',
  'Riches',
  'Joker',
  'Fruits',
  'Gems',
  'Jewels',
  'Dragons',
  'Treasures',
  'Wilds',
  'Spins',
  'Cash',
  'Blaze',
  'Strike',
  'Safari',
  'Rush',
  'Kingdom',
  'Party',
  'Splash',
  'Hunter',
  'Quest',
  'Empire',
  'Heist',
  'Festival',
  'Express',
  'Carnival',
  'Gold',
  'Nights',
  'Legends',
  'Storm',
  'Cascade',
  'Bells',
  'Sevens',
  'Stars',
  'Coins',
  'Tiki',
  'Reels',
  'Vault',
  'Mine',
  'Temple',
  'Island',
  'Kings',
  'Queen',
  'Wolves',
  'Pearls',
  'Crown',
  'Frenzy',
  'Fever',
  'Madness',
  'Mania',
  'Blast',
  'Bounty',
  'Catch',
  'Harvest',
  'Jackpots',
  'Ways',
  'Magic',
  'Charms',
  'Dreams',
  'Garden',
  'Forest',
  'Road',
  'Train',
  'Run',
  'Fishing',
  'Circus',
  'Disco',
  'Shrine',
  'Relics',
];
const SLOT_SUFFIXES = ['Megaways', 'Deluxe', '1000', 'Hold and Win', 'Extreme', 'Ultra', 'Xmas Edition', 'Grand', 'Rising', 'Unleashed'];
const TABLE_GAMES = ['Blackjack', 'Roulette', 'Baccarat', 'Poker', 'Sic Bo', 'Hi-Lo'];
const INSTANT_GAMES = ['Mines', 'Plinko', 'Crash', 'Dice', 'Towers', 'Limbo', 'Wheel'];
const JURISDICTIONS = ['DE', 'NL', 'DK', 'ES', 'IT', 'SE', 'GB', 'CA'];
const MAX_WINS = [500, 1000, 1500, 2000, 2500, 3000, 4000, 5000, 5000, 10000, 12500, 15000, 20000, 21100, 25000, 50000, 100000];
const NOTES = [
  'Game rules list a lower build for some markets.',
  'Bonus buy RTP taken from the game rules.',
  'Provider page and game rules agree.',
  'Release year not stated by the provider.',
  'Max win is capped per round by the game rules.',
  'Lower builds listed in the operator information sheet.',
];

/** The synthetic registry's past versions (oldest first) and their freeze times; the last is current. */
export const SYNTH_VERSIONS = [
  { data_version: '1.1.0', frozen_at: '2026-08-03T00:00:00Z' },
  { data_version: '1.2.0', frozen_at: '2026-09-14T00:00:00Z' },
  { data_version: '1.2.1', frozen_at: '2026-10-26T00:00:00Z' },
] as const;

export interface SynthRegistry {
  meta: RegistryFile;
  providers: ProviderFile[];
  games: GameFile[];
  history: HistoryEntry[];
  frozen: FrozenFile;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Draws from mulberry32: whole numbers, chances, picks and weighted picks (the registry and the bench's query mix). */
export class Dice {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }
}

const TYPE_WEIGHTS: ReadonlyArray<readonly [GameType, number]> = [
  ['slot', 85],
  ['scratchcard', 4],
  ['table', 3],
  ['video_poker', 1],
  ['instant', 3],
  ['bingo', 2],
  ['keno', 2],
];
/** Share of multi-variant games per type: overall about 38%, as in real registries where slots carry ladders. */
const MULTI_SHARE: Record<GameType, number> = { slot: 0.42, scratchcard: 0.15, table: 0.12, video_poker: 0.12, instant: 0.1, bingo: 0.15, keno: 0.15 };
const RTP_RANGE: Record<Exclude<GameType, 'slot'>, [number, number]> = {
  scratchcard: [88, 96.5],
  table: [97.3, 99.6],
  video_poker: [97, 99.6],
  instant: [95, 99],
  bingo: [88, 96],
  keno: [88, 95.5],
};
const VOLATILITY_WEIGHTS: ReadonlyArray<readonly [Volatility, number]> = [
  ['low', 15],
  ['medium', 35],
  ['high', 35],
  ['very-high', 15],
];

function gameName(dice: Dice, type: GameType): string {
  switch (type) {
    case 'slot': {
      const pattern = dice.next();
      const base =
        pattern < 0.3
          ? `${dice.pick(OF_PREFIXES)} ${dice.pick(PROPER_NOUNS)}`
          : pattern < 0.7
            ? `${dice.pick(ADJECTIVES)} ${dice.pick(THEME_NOUNS)}`
            : pattern < 0.85
              ? `${dice.pick(PROPER_NOUNS).replace(/^the /, '')} ${dice.pick(THEME_NOUNS)}`
              : `${dice.pick(ADJECTIVES)} ${dice.pick(PROPER_NOUNS).replace(/^the /, '')}`;
      return dice.chance(0.35) ? `${base} ${dice.pick(SLOT_SUFFIXES)}` : base;
    }
    case 'scratchcard':
      return dice.chance(0.5) ? `${dice.pick(ADJECTIVES)} ${dice.pick(THEME_NOUNS)} Scratch` : `Scratch ${dice.pick(PROPER_NOUNS).replace(/^the /, '')}`;
    case 'table':
    case 'video_poker':
      return `${dice.pick(ADJECTIVES)} ${dice.chance(0.5) ? `${dice.pick(THEME_NOUNS)} ` : ''}${dice.pick(TABLE_GAMES)}`;
    case 'instant':
      return `${dice.pick(ADJECTIVES)} ${dice.chance(0.4) ? `${dice.pick(THEME_NOUNS)} ` : ''}${dice.pick(INSTANT_GAMES)}`;
    case 'bingo':
      return dice.chance(0.5) ? `${dice.pick(ADJECTIVES)} ${dice.pick(THEME_NOUNS)} Bingo` : `Bingo ${dice.pick(THEME_NOUNS)}`;
    case 'keno':
      return dice.chance(0.5) ? `${dice.pick(ADJECTIVES)} Keno` : `${dice.pick(ADJECTIVES)} ${dice.pick(THEME_NOUNS)} Keno`;
  }
}

/** A name whose slug is not yet taken: redraw a few times, then number it as a sequel ("… 2"). */
function uniqueName(dice: Dice, type: GameType, taken: Set<string>): { name: string; slug: string } {
  let name = gameName(dice, type);
  let slug = slugify(name);
  for (let tries = 0; tries < 12 && taken.has(slug); tries++) {
    name = gameName(dice, type);
    slug = slugify(name);
  }
  const base = name;
  for (let n = 2; taken.has(slug) || (RESERVED_SLUGS as readonly string[]).includes(slug); n++) {
    name = `${base} ${n}`;
    slug = slugify(name);
  }
  taken.add(slug);
  return { name, slug };
}

function statedRtp(dice: Dice, type: GameType): number {
  if (type !== 'slot') {
    const [lo, hi] = RTP_RANGE[type];
    return round2(lo + dice.next() * (hi - lo));
  }
  const r = dice.next();
  if (r < 0.7) return round2(95.9 + dice.next() * 0.9);
  if (r < 0.92) return round2(94 + dice.next() * 1.9);
  return round2(96.8 + dice.next() * 1.4);
}

/** Ascending variants that contain the stated RTP: an operator ladder below it, sometimes a bonus buy or a market build. */
function variants(dice: Dice, type: GameType, stated: number): Variant[] {
  const out: Variant[] = [{ rtp: stated, kind: 'standard' }];
  if (dice.chance(MULTI_SHARE[type])) {
    const steps = dice.weighted([
      [1, 35],
      [2, 30],
      [3, 20],
      [4, 15],
    ] as const);
    for (let j = 1; j <= steps; j++) {
      const rtp = round2(stated - (1.9 + 2 * (j - 1)) - dice.next() * 0.3);
      if (rtp > 80) out.push({ rtp, kind: 'operator_ladder' });
    }
    if (out.length > 1 && dice.chance(0.08)) {
      // A market build replaces the lowest ladder step.
      const lowest = out[out.length - 1]!;
      out[out.length - 1] = { rtp: lowest.rtp, kind: 'jurisdiction', jurisdiction: dice.pick(JURISDICTIONS) };
    }
    if (type === 'slot' && dice.chance(0.12)) {
      const rtp = round2(Math.min(99.9, stated + 0.05 + dice.next() * 0.4));
      if (rtp > stated) out.push({ rtp, kind: 'bonus_buy' });
    }
  }
  return out.sort((a, b) => a.rtp - b.rtp);
}

function day(dice: Dice, from: string, to: string): string {
  const a = Date.parse(from) / 86_400_000;
  const b = Date.parse(to) / 86_400_000;
  return `${new Date(dice.int(a, b) * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`;
}

/** The 40 synthetic providers, sorted by key. */
export function synthProviders(): ProviderFile[] {
  return SYNTH_PROVIDER_NAMES.map((display) => {
    const key = slugify(display);
    return { provider: key, display, website: `https://www.${key}.example` };
  }).sort((a, b) => (a.provider < b.provider ? -1 : 1));
}

function synthGame(dice: Dice, provider: ProviderFile, taken: Set<string>, lastVerifiedTo: string): GameFile {
  const type = dice.weighted(TYPE_WEIGHTS);
  const { name, slug } = uniqueName(dice, type, taken);
  const stated = statedRtp(dice, type);
  const host = (provider.website ?? `https://www.${provider.provider}.example`).replace('https://www.', '');
  const providerPage = `https://${host}/games/${slug}`;
  const source = dice.chance(0.85) ? providerPage : `https://${dice.pick(['rtp-archive.example', 'slot-reviews.example'])}/games/${slug}`;
  const evidence = dice.chance(0.6) ? source : dice.chance(0.5) ? `${providerPage}/rules` : `https://rtp-archive.example/evidence/${slug}`;
  const volatility = dice.chance(type === 'slot' ? 0.22 : 0.55) ? null : dice.weighted(VOLATILITY_WEIGHTS);
  const maxWin = dice.chance(0.2) ? null : type === 'table' ? dice.pick([35, 100, 500]) : dice.chance(0.8) ? dice.pick(MAX_WINS) : dice.int(4, 400) * 50;
  const year = dice.chance(0.3)
    ? null
    : dice.weighted([
        [dice.int(2010, 2017), 25],
        [dice.int(2018, 2022), 40],
        [dice.int(2023, 2026), 35],
      ] as const);
  const game: GameFile = {
    canonical_slug: slug,
    canonical_name: name,
    provider: provider.provider,
    game_type: type,
    stated_rtp: stated,
    rtp_variants: variants(dice, type, stated),
    volatility,
    max_win_x: maxWin,
    release_year: year,
    source_url: source,
    evidence_url: evidence,
    last_verified: day(dice, '2026-05-01T00:00:00Z', lastVerifiedTo),
    sources: [],
    notes: dice.chance(0.08) ? dice.pick(NOTES) : '',
  };
  // One synthetic source, its figures those of the game (no dice: the sequence stays as before).
  const figures = { stated_rtp: stated, rtp_variants: game.rtp_variants.map((v) => v.rtp), file: 'sources/synthetic', line: 1 };
  // A provider page counts as read here only with its date and hash (synthetic: the hash of its address).
  game.sources = [
    source === providerPage
      ? {
          kind: 'provider',
          url: source,
          checked_at: game.last_verified,
          ...figures,
          page_sha256: `sha256:${createHash('sha256').update(source).digest('hex')}`,
        }
      : { kind: 'catalogue', url: source, checked_at: null, ...figures },
  ];
  return game;
}

const NO_ID = `sha256:${'0'.repeat(64)}`;

/** One plausible earlier state of a game's RTP facts: a corrected stated figure, or a ladder one step shorter or longer. */
function earlier(dice: Dice, g: FrozenFile['games'][string]): FrozenFile['games'][string] {
  const idx = g.rtp_variants.indexOf(g.stated_rtp);
  if (dice.chance(0.55)) {
    const delta = dice.pick([0.01, 0.02, 0.03, 0.05, 0.1, 0.2]) * (dice.chance(0.5) ? 1 : -1);
    const stated = round2(g.stated_rtp + delta);
    const below = g.rtp_variants[idx - 1] ?? 0;
    const above = g.rtp_variants[idx + 1] ?? 100.01;
    if (stated > below && stated < above && stated <= 100) {
      const rtp_variants = [...g.rtp_variants];
      rtp_variants[idx] = stated;
      return { ...g, stated_rtp: stated, rtp_variants };
    }
  }
  if (g.rtp_variants.length > 1) {
    // The ladder was extended in this version: before, it lacked one of its lower steps.
    const lower = g.rtp_variants.filter((r) => r !== g.stated_rtp);
    const drop = dice.pick(lower);
    return { ...g, rtp_variants: g.rtp_variants.filter((r) => r !== drop) };
  }
  // A lower step was withdrawn in this version.
  return { ...g, rtp_variants: [round2(g.stated_rtp - 2 - dice.next() * 0.3), ...g.rtp_variants] };
}

/**
 * History for the synthetic registry, built backwards from the current state through SYNTH_VERSIONS:
 * each version corrects some figures; minor versions also add games (and 1.2.0 removes a few). The
 * entries are exactly what data:freeze would have written (diffFrozen between consecutive states).
 */
function synthHistory(dice: Dice, current: FrozenFile, providers: ProviderFile[], taken: Set<string>, count: number): HistoryEntry[] {
  const corrections = Math.min(80, Math.max(1, Math.round(count * 0.0016)));
  const additions = Math.min(40, Math.max(1, Math.round(count * 0.0008)));
  const removals = Math.min(5, Math.max(1, Math.round(count * 0.0001)));
  // One mutable state walked back in time; each version's diff only needs the slugs it touched.
  const state = new Map(Object.entries(current.games));
  const drawable = Object.keys(current.games).sort();
  const gone = new Set<string>(); // added by a later version: did not exist yet
  const perVersion: HistoryEntry[][] = [];
  for (let v = SYNTH_VERSIONS.length - 1; v >= 0; v--) {
    const version = SYNTH_VERSIONS[v]!;
    const touched = new Set<string>();
    const after: FrozenFile['games'] = {};
    const before: FrozenFile['games'] = {};
    const draw = (): string | undefined => {
      for (let tries = 0; tries < 20; tries++) {
        const s = dice.pick(drawable);
        if (!touched.has(s) && !gone.has(s)) {
          touched.add(s);
          after[s] = state.get(s)!;
          return s;
        }
      }
      return undefined;
    };
    for (let i = 0; i < corrections; i++) {
      const s = draw();
      if (s !== undefined) state.set(s, earlier(dice, state.get(s)!));
    }
    // Minor versions add games (x.y.0); patch versions only correct figures.
    if (version.data_version.endsWith('.0')) {
      for (let i = 0; i < additions && drawable.length - gone.size - touched.size > 1; i++) {
        const s = draw();
        if (s !== undefined) {
          state.delete(s);
          gone.add(s);
        }
      }
    }
    if (version.data_version === '1.2.0') {
      for (let i = 0; i < removals; i++) {
        const { slug } = uniqueName(dice, 'slot', taken);
        const stated = statedRtp(dice, 'slot');
        state.set(slug, {
          provider: dice.pick(providers).provider,
          stated_rtp: stated,
          rtp_variants: variants(dice, 'slot', stated).map((x) => x.rtp),
          snapshot_id: NO_ID,
        });
        touched.add(slug);
      }
    }
    for (const s of touched) {
      const g = state.get(s);
      if (g !== undefined) before[s] = g;
    }
    // diffFrozen reads only `games` of the earlier state and stamps entries with the later one's version and time.
    perVersion.unshift(
      diffFrozen(
        { data_version: '0.0.0', frozen_at: version.frozen_at, games: before },
        { data_version: version.data_version, frozen_at: version.frozen_at, games: after },
      ),
    );
  }
  return perVersion.flat();
}

/** Generates a synthetic registry of `count` games; the same count and seed give the same registry. */
export function synthRegistry(options: { count: number; seed: number }): SynthRegistry {
  const { count, seed } = options;
  if (!Number.isInteger(count) || count < 1) throw new Error(`count must be a positive integer (got ${count})`);
  const dice = new Dice(seed);
  const providers = synthProviders();
  // Skewed market: a few large studios, many small ones.
  const providerWeights = providers.map((p, i) => [p, 1 / (((i * 17) % providers.length) + 1) ** 0.7] as const);
  const current = SYNTH_VERSIONS[SYNTH_VERSIONS.length - 1]!;
  const taken = new Set<string>();
  const games: GameFile[] = [];
  for (let i = 0; i < count; i++) games.push(synthGame(dice, dice.weighted(providerWeights), taken, current.frozen_at));
  const frozen = frozenStateOf(games, providers, current.data_version, current.frozen_at);
  const history = synthHistory(dice, frozen, providers, taken, count);
  const meta: RegistryFile = {
    data_version: current.data_version,
    frozen_at: current.frozen_at,
    license: 'CC-BY-4.0',
    license_url: 'https://creativecommons.org/licenses/by/4.0/',
    attribution: 'Synthetic RTP registry for scale testing (invented games and studios; not real data)',
  };
  return { meta, providers, games, history, frozen };
}

/** Checks every generated object against its authoring schema; throws on the first problem (a generator bug). */
export function assertSynthValid(reg: SynthRegistry): void {
  RegistryFileSchema.parse(reg.meta);
  for (const p of reg.providers) ProviderFileSchema.parse(p);
  for (const g of reg.games) GameFileSchema.parse(g);
  for (const h of reg.history) HistoryEntrySchema.parse(h);
  FrozenFileSchema.parse(reg.frozen);
}

/** Writes a synthetic registry into `dir` (games and providers with bounded concurrency). */
export async function writeSynthRegistry(dir: string, reg: SynthRegistry): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(reg.providers.map((p) => mkdir(path.join(dir, 'games', p.provider), { recursive: true })));
  await mkdir(path.join(dir, 'providers'), { recursive: true });
  const limit = pLimit(IO_CONCURRENCY);
  await limit.map(reg.providers, (p) => writeFile(path.join(dir, 'providers', `${p.provider}.json`), toDataJson(p)));
  await limit.map(reg.games, (g) => writeFile(path.join(dir, 'games', g.provider, `${g.canonical_slug}.json`), toDataJson(g)));
  await writeFile(path.join(dir, HISTORY_FILE), historyJsonl(reg.history));
  await writeFile(path.join(dir, FROZEN_FILE), frozenJson(reg.frozen));
  await writeFile(path.join(dir, REGISTRY_FILE), toDataJson(reg.meta));
}
