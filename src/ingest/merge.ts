// Turns the facts of every source into one candidate record per game: facts are matched by
// provider scope (the provider's group, else the provider) and name key (src/ingest/normalise.ts);
// the best-ranked source states the figure; a figure that is a known other build of the game
// becomes a variant (src/ingest/configurations.ts); defaults of one rank that no rule reconciles
// and that lie more than CONFLICT_TOLERANCE apart hold the game back; every fact stays listed as a
// source with its own figures. docs/data-model.md states the rules.
import { figure } from '../lib/percent.ts';
import type { VariantKind } from '../schemas/authoring.ts';
import { CONFLICT_TOLERANCE, explain, inLowerRung, namedVariant, PROVIDER_LADDERS, type Explanation } from './configurations.ts';
import { slugify, nameKey } from './normalise.ts';
import { factRank, type SourceFact } from './source.ts';

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
}

export interface Excluded {
  provider: string;
  name: string;
  /** The slug the game was published under, or null when it never was. */
  slug: string | null;
  reason: string;
  facts: SourceFact[];
}

/** Where names are matched: a provider's group (NetEnt and Red Tiger in Evolution), else the provider itself. */
export type ScopeOf = (provider: string) => string;
const ownScope: ScopeOf = (p) => p;

/** The key two facts or files share when they are one game: provider scope and name key. */
export function gameKey(provider: string, name: string, scopeOf: ScopeOf = ownScope): string {
  return `${scopeOf(provider)}/${nameKey(name)}`;
}

/** The published slug of every game file, by game key (`mergeFacts` keeps them). */
export function publishedSlugs(games: Iterable<{ provider: string; canonical_name: string; canonical_slug: string }>, scopeOf: ScopeOf = ownScope): Map<string, string> {
  return new Map([...games].map((g) => [gameKey(g.provider, g.canonical_name, scopeOf), g.canonical_slug]));
}

/** Precedence order of facts about one game. */
export function byPrecedence(a: SourceFact, b: SourceFact): number {
  return factRank(a) - factRank(b) || b.stated_rtp - a.stated_rtp || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line;
}

const at = (f: SourceFact) => `${figure(f.stated_rtp)} (${f.file}:${f.line})`;

type Decision = { ok: true; winner: SourceFact; configurations: Map<number, VariantKind>; disagree: boolean } | { ok: false; reason: string };

const HAND_CHECKED_RANK = factRank({ tier: 'hand_checked', citesProviderPage: false });

/**
 * Whether a source's figure is, by a configuration rule, another build and no candidate for the
 * default: a source names it as a build of a kind, or it lies in a lower rung of the provider's
 * ladder while a source states a figure in the ladder's default band. Never said of a provider page
 * read here or the hand-checked seed.
 */
function configurationOnly(f: SourceFact, facts: readonly SourceFact[]): boolean {
  if (factRank(f) <= HAND_CHECKED_RANK) return false;
  const others = facts.filter((g) => g !== f);
  if (namedVariant(f.stated_rtp, others) !== null) return true;
  const ladder = PROVIDER_LADDERS[f.provider];
  return ladder !== undefined && inLowerRung(f.provider, f.stated_rtp) && others.some((g) => g.stated_rtp >= ladder.defaultBand[0] && g.stated_rtp < ladder.defaultBand[1]);
}

/** The published default of a game (facts in precedence order), or why it is held back. */
export function decide(facts: readonly SourceFact[]): Decision {
  const pool = facts.filter((f) => !configurationOnly(f, facts));
  const candidates = pool.length > 0 ? pool : facts;
  const best = factRank(candidates[0]!);
  const winner = candidates[0]!;
  const provider = winner.provider;
  const ladder = PROVIDER_LADDERS[provider];
  if (ladder !== undefined && best > HAND_CHECKED_RANK && inLowerRung(provider, winner.stated_rtp)) {
    const highest = Math.max(...facts.flatMap((f) => f.variants.map((v) => v.rtp)));
    if (highest <= winner.stated_rtp) return { ok: false, reason: `every source states ${figure(highest)} or less: a lower build of the provider's ladder (${ladder.rungs.map(([a]) => `${a}.x`).join(', ')}), and no source states the default` };
  }
  const configurations = new Map<number, VariantKind>();
  const explained = (f: SourceFact): Explanation | null => (f.stated_rtp === winner.stated_rtp ? null : explain(provider, f.stated_rtp, winner.stated_rtp, facts.filter((g) => g !== f)));
  const conflicts: SourceFact[] = [];
  let disagree = false;
  for (const f of facts) {
    if (f.stated_rtp === winner.stated_rtp) continue;
    const why = explained(f);
    if (why !== null) {
      if (!configurations.has(f.stated_rtp)) configurations.set(f.stated_rtp, why.kind);
      continue;
    }
    disagree = true;
    if (factRank(f) === best && Math.abs(f.stated_rtp - winner.stated_rtp) > CONFLICT_TOLERANCE + 1e-9) conflicts.push(f);
  }
  if (conflicts.length > 0) {
    return { ok: false, reason: `sources of one rank state defaults ${[winner, ...conflicts].map(at).join(' and ')}, more than ${CONFLICT_TOLERANCE} apart, and no configuration rule explains the difference` };
  }
  return { ok: true, winner, configurations, disagree };
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
 * lines also name, is the distributor's game: its facts join the distributor's. When both were
 * published, they join only when the data proves one game (`sameGame`), and the studio's slug leaves
 * (`merged`, each with the reason); otherwise both stay.
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
  for (const [key, list] of [...groups]) {
    const distributor = distributorOf(list[0]!.provider);
    if (distributor === null || list.some((f) => distributorOf(f.provider) !== distributor)) continue;
    const targetKey = gameKey(distributor, list[0]!.name, scopeOf);
    const target = groups.get(targetKey);
    if (target === undefined) continue;
    const slug = publishedSlugs.get(key);
    if (slug !== undefined) {
      const into = publishedSlugs.get(targetKey);
      const why = into === undefined ? null : sameGame(list, target);
      if (why === null) continue;
      const best = [...list].sort(byPrecedence)[0]!;
      merged.push({ provider: best.provider, name: best.name, slug, mergedInto: into!, intoProvider: distributor, reason: why, facts: [...list].sort(byPrecedence) });
    }
    // The distributor's game: its facts name the distributor as the provider, the studio as the studio (the label stays as written).
    target.push(...list.map((f) => ({ ...f, provider: distributor, studio: f.provider })));
    groups.delete(key);
  }
  const games: MergedGame[] = [];
  const excluded: Excluded[] = [];
  const taken = new Set([...publishedSlugs.values(), ...reserved]);
  // Published games first, then by key: the slug a new game gets does not depend on file order.
  const keys = [...groups.keys()].sort((a, b) => Number(publishedSlugs.has(b)) - Number(publishedSlugs.has(a)) || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const list = groups.get(key)!.sort(byPrecedence);
    const decision = decide(list);
    if (!decision.ok) {
      excluded.push({ provider: list[0]!.provider, name: list[0]!.name, slug: publishedSlugs.get(key) ?? null, reason: decision.reason, facts: list });
      continue;
    }
    const { winner } = decision;
    // The name as the most trusted source writes it.
    const name = winner.name;
    let slug = publishedSlugs.get(key);
    if (slug === undefined) {
      slug = slugify(name);
      if (taken.has(slug)) slug = `${slug}-${winner.provider}`;
      for (let n = 2; taken.has(slug); n++) slug = `${slugify(name)}-${winner.provider}-${n}`;
    }
    taken.add(slug);
    games.push({ provider: winner.provider, providerName: winner.providerName, name, slug, winner, facts: list, configurations: decision.configurations, disagree: decision.disagree });
  }
  games.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  excluded.sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  merged.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  return { games, excluded, merged };
}
