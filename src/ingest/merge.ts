// Turns the facts of every source into one candidate record per game: facts are matched by
// provider scope (the provider's group, else the provider) and name key (src/ingest/normalise.ts);
// each game's figure is decided by src/ingest/decide.ts; every fact stays listed as a source with
// its own figures. docs/data-model.md states the rules.
import { figure } from '../lib/percent.ts';
import type { VariantKind } from '../schemas/authoring.ts';
import { byPrecedence, decide } from './decide.ts';
import { nameKey, slugify } from './normalise.ts';
import type { SourceFact } from './source.ts';

export interface MergedGame {
  provider: string;
  /** The provider as the best source names it. */
  providerName: string;
  name: string;
  slug: string;
  /** The fact whose figures are published. */
  winner: SourceFact;
  /** Every fact about the game, in precedence order (rank, then higher figure, then file and line). */
  facts: SourceFact[];
  /** Figures other sources state as their figure that a configuration rule makes a variant, with the kind. */
  configurations: Map<number, VariantKind>;
  /** True when a source states a figure for the default that is neither the published one nor a configuration. */
  disagree: boolean;
  /** What the record's notes say of how an operator's figure was read, or ''. */
  note: string;
}

export interface Excluded {
  provider: string;
  name: string;
  /** The slug the game was published under, or null when it never was. */
  slug: string | null;
  reason: string;
  facts: SourceFact[];
  /** Other slugs once published for this game, which lead to it (held back with it). */
  alsoPublishedAs: string[];
}

/** Where names are matched: a provider's group (NetEnt and Red Tiger in Evolution), else the provider itself. */
export type ScopeOf = (provider: string) => string;
const ownScope: ScopeOf = (p) => p;

/** The key two facts or files share when they are one game: provider scope and name key. */
export function gameKey(provider: string, name: string, scopeOf: ScopeOf = ownScope): string {
  return `${scopeOf(provider)}/${nameKey(name)}`;
}

/** The published slug of every game file, by game key (`mergeFacts` keeps them). */
export function publishedSlugs(
  games: Iterable<{ provider: string; canonical_name: string; canonical_slug: string }>,
  scopeOf: ScopeOf = ownScope,
): Map<string, string> {
  return new Map([...games].map((g) => [gameKey(g.provider, g.canonical_name, scopeOf), g.canonical_slug]));
}

/** The provider that publishes a studio's games under its own name, or null (Reel Kingdom's: Pragmatic Play). */
export type DistributorOf = (provider: string) => string | null;

/** A published record that is the same game as its distributor's published record, merged into it. */
export interface MergedAway {
  /** The studio's provider key and the game's name as its best line writes it. */
  provider: string;
  name: string;
  /** The slug that leaves, and the surviving record's slug and provider key. */
  slug: string;
  mergedInto: string;
  intoProvider: string;
  reason: string;
  /** The studio's facts (now the surviving record's too). */
  facts: SourceFact[];
}

/**
 * Why a studio's published record and its distributor's published record are one game, or null
 * when the data does not prove it: both keep their figures on their own (neither is held back), they
 * state the same default to the last decimal, and together they still do. The name is proven by
 * the caller (one name key).
 */
export function sameGame(studio: readonly SourceFact[], distributor: readonly SourceFact[]): string | null {
  const a = decide([...studio].sort(byPrecedence));
  const b = decide([...distributor].sort(byPrecedence));
  if (!a.ok || !b.ok || a.winner.stated_rtp !== b.winner.stated_rtp) return null;
  const both = decide([...studio, ...distributor].sort(byPrecedence));
  if (!both.ok || both.winner.stated_rtp !== a.winner.stated_rtp) return null;
  const names = a.winner.name === b.winner.name ? `"${a.winner.name}"` : `"${a.winner.name}" and "${b.winner.name}" (one name key)`;
  return `${a.winner.provider}'s games are published by ${b.winner.provider} (its distributor in data/provider-aliases.json); both records name it ${names} and state ${figure(a.winner.stated_rtp)}: ${a.winner.file}:${a.winner.line} and ${b.winner.file}:${b.winner.line}`;
}

/**
 * Groups `facts` into games. `publishedSlugs` maps game keys to a slug already published, which is
 * kept (a published slug is never renamed); other games get the slug of their name, with the
 * provider key appended when that slug is taken (`reserved`: slugs that left, never given again).
 * A game of a studio whose games a distributor publishes (`distributorOf`), that the distributor's
 * lines also name, is the distributor's game: its facts join the distributor's. When the studio's was
 * published, they join only when the data proves one game (`sameGame`): the studio's slug leaves
 * (`merged`, with the reason) when the distributor's was published too, else the game keeps it.
 */
export function mergeFacts(
  facts: readonly SourceFact[],
  publishedSlugs: ReadonlyMap<string, string> = new Map(),
  scopeOf: ScopeOf = ownScope,
  distributorOf: DistributorOf = () => null,
  reserved: Iterable<string> = [],
): { games: MergedGame[]; excluded: Excluded[]; merged: MergedAway[] } {
  const groups = new Map<string, SourceFact[]>();
  for (const f of facts) {
    const key = gameKey(f.provider, f.name, scopeOf);
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [f]);
    else list.push(f);
  }
  const merged: MergedAway[] = [];
  const slugs = new Map(publishedSlugs);
  for (const [key, list] of [...groups]) {
    const distributor = distributorOf(list[0]!.provider);
    if (distributor === null || list.some((f) => distributorOf(f.provider) !== distributor)) continue;
    const targetKey = gameKey(distributor, list[0]!.name, scopeOf);
    const target = groups.get(targetKey);
    if (target === undefined) continue;
    const slug = slugs.get(key);
    if (slug !== undefined) {
      const into = slugs.get(targetKey);
      const why = sameGame(list, target);
      if (why === null) continue;
      if (into === undefined) {
        // The distributor's record is new: the game keeps the studio's published slug, under the distributor.
        slugs.set(targetKey, slug);
        slugs.delete(key);
      } else {
        const best = [...list].sort(byPrecedence)[0]!;
        merged.push({
          provider: best.provider,
          name: best.name,
          slug,
          mergedInto: into,
          intoProvider: distributor,
          reason: why,
          facts: [...list].sort(byPrecedence),
        });
      }
    }
    // The distributor's game: its facts name the distributor as the provider, the studio as the studio (the label stays as written).
    target.push(...list.map((f) => ({ ...f, provider: distributor, studio: f.provider })));
    groups.delete(key);
  }
  const games: MergedGame[] = [];
  const excluded: Excluded[] = [];
  const taken = new Set([...slugs.values(), ...reserved]);
  // Published games first, then by key: the slug a new game gets does not depend on file order.
  const keys = [...groups.keys()].sort((a, b) => Number(slugs.has(b)) - Number(slugs.has(a)) || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const list = groups.get(key)!.sort(byPrecedence);
    const decision = decide(list);
    if (!decision.ok) {
      excluded.push({
        provider: list[0]!.provider,
        name: list[0]!.name,
        slug: slugs.get(key) ?? null,
        reason: decision.reason,
        facts: list,
        alsoPublishedAs: [],
      });
      continue;
    }
    const { winner } = decision;
    // The name as the most trusted source writes it.
    const name = winner.name;
    let slug = slugs.get(key);
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
      configurations: decision.configurations,
      disagree: decision.disagree,
      note: decision.note,
    });
  }
  games.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  excluded.sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  merged.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { games, excluded, merged };
}
