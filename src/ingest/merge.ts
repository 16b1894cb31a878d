// Turns the facts of every source into one candidate record per game: facts are matched by
// provider key and name key (src/ingest/normalise.ts), the highest tier states the figure (between
// facts of one tier, the higher figure: a provider states its default build as its highest), and
// every fact stays listed as a source with its own figures. docs/data-model.md states the rules.
import { slugify, nameKey } from './normalise.ts';
import { tierRank, type SourceFact } from './source.ts';

/**
 * Figures that, stated only by third parties, are known to be a lower RTP configuration rather
 * than the provider's default: Play'n GO builds most games at 96.x with lower builds at 94.x, 91.x,
 * 87.x and 84.x, and some catalogues list the 94.x build (Honey Rush 94.50 there, 96.50 on the
 * provider's page). Such a game is left out until a source states its default.
 */
export const LOWER_CONFIGURATION_BANDS: Readonly<Record<string, readonly [number, number]>> = {
  playngo: [94, 95],
};

export interface MergedGame {
  provider: string;
  /** The provider as the best source names it. */
  providerName: string;
  name: string;
  slug: string;
  /** The fact whose figures are published. */
  winner: SourceFact;
  /** Every fact about the game, in precedence order (tier, then higher figure, then file and line). */
  facts: SourceFact[];
  /** True when the facts state more than one figure for the stated RTP. */
  disagree: boolean;
}

export interface Excluded {
  provider: string;
  name: string;
  reason: string;
  facts: SourceFact[];
}

/** The key two facts or files share when they are one game: provider key and name key. */
export function gameKey(provider: string, name: string): string {
  return `${provider}/${nameKey(name)}`;
}

/** The published slug of every game file, by game key (`mergeFacts` keeps them). */
export function publishedSlugs(games: Iterable<{ provider: string; canonical_name: string; canonical_slug: string }>): Map<string, string> {
  return new Map([...games].map((g) => [gameKey(g.provider, g.canonical_name), g.canonical_slug]));
}

/** Precedence order of facts about one game. */
export function byPrecedence(a: SourceFact, b: SourceFact): number {
  return tierRank(a.tier) - tierRank(b.tier) || b.stated_rtp - a.stated_rtp || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line;
}

/** Why a game whose best fact is `winner` must not be published, or null. */
function exclusionReason(winner: SourceFact, facts: readonly SourceFact[]): string | null {
  const band = LOWER_CONFIGURATION_BANDS[winner.provider];
  if (band === undefined || winner.tier === 'provider' || winner.tier === 'hand_checked') return null;
  const highest = Math.max(...facts.flatMap((f) => f.variants.map((v) => v.rtp)));
  if (highest >= band[0] && highest < band[1]) {
    return `every source states ${highest.toFixed(2)} or less: probably a lower RTP configuration (${band[0]}-${band[1]}), and no source states the default`;
  }
  return null;
}

/**
 * Groups `facts` into games. `publishedSlugs` maps `provider/nameKey` to a slug already published,
 * which is kept (a published slug is never renamed); other games get the slug of their name, with
 * the provider key appended when that slug is taken.
 */
export function mergeFacts(facts: readonly SourceFact[], publishedSlugs: ReadonlyMap<string, string> = new Map()): { games: MergedGame[]; excluded: Excluded[] } {
  const groups = new Map<string, SourceFact[]>();
  for (const f of facts) {
    const key = gameKey(f.provider, f.name);
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [f]);
    else list.push(f);
  }
  const games: MergedGame[] = [];
  const excluded: Excluded[] = [];
  const taken = new Set(publishedSlugs.values());
  // Published games first, then by key: the slug a new game gets does not depend on file order.
  const keys = [...groups.keys()].sort((a, b) => Number(publishedSlugs.has(b)) - Number(publishedSlugs.has(a)) || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const list = groups.get(key)!.sort(byPrecedence);
    const winner = list[0]!;
    const reason = exclusionReason(winner, list);
    if (reason !== null) {
      excluded.push({ provider: winner.provider, name: winner.name, reason, facts: list });
      continue;
    }
    // The name as the most trusted source writes it.
    const name = winner.name;
    let slug = publishedSlugs.get(key);
    if (slug === undefined) {
      slug = slugify(name);
      if (taken.has(slug)) slug = `${slug}-${winner.provider}`;
      for (let n = 2; taken.has(slug); n++) slug = `${slugify(name)}-${winner.provider}-${n}`;
    }
    taken.add(slug);
    games.push({
      provider: winner.provider,
      providerName: winner.providerName,
      name,
      slug,
      winner,
      facts: list,
      disagree: new Set(list.map((f) => f.stated_rtp)).size > 1,
    });
  }
  games.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { games, excluded };
}
