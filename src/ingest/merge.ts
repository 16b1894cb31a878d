// Turns the facts of every source into one candidate record per game: facts are matched by
// provider scope (the provider's group, else the provider) and name key (src/ingest/normalise.ts);
// the best-ranked source states the figure; a figure that is a known other build of the game
// becomes a variant (src/ingest/configurations.ts); defaults of one rank that no rule reconciles
// and that lie more than CONFLICT_TOLERANCE apart hold the game back; every fact stays listed as a
// source with its own figures. docs/data-model.md states the rules.
import { figure } from '../lib/percent.ts';
import { originOf } from '../registry/origin.ts';
import type { VariantKind } from '../schemas/authoring.ts';
import { CONFLICT_TOLERANCE, type Explanation, explain, inLowerRung, ladderStep, namedVariant, PROVIDER_LADDERS, raisesDefault } from './configurations.ts';
import { nameKey, slugify } from './normalise.ts';
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

/** Precedence order of facts about one game. */
export function byPrecedence(a: SourceFact, b: SourceFact): number {
  return factRank(a) - factRank(b) || b.stated_rtp - a.stated_rtp || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line;
}

const at = (f: SourceFact) => `${figure(f.stated_rtp)} (${f.file}:${f.line})`;

type Decision = { ok: true; winner: SourceFact; configurations: Map<number, VariantKind>; disagree: boolean; note: string } | { ok: false; reason: string };

const HAND_CHECKED_RANK = factRank({ tier: 'hand_checked', citesProviderPage: false });

/**
 * Whether a source's figure is, by a configuration rule, another build and no candidate for the
 * default: a source names it as a build of a kind, or it lies in a lower rung of the provider's
 * ladder while a source states a figure in the ladder's default band. Never said of a provider page
 * read here or the hand-checked seed.
 */
function configurationOnly(f: SourceFact, facts: readonly SourceFact[]): boolean {
  if (f.build !== undefined) return true;
  if (factRank(f) <= HAND_CHECKED_RANK) return false;
  const others = facts.filter((g) => g !== f);
  if (namedVariant(f.stated_rtp, others) !== null) return true;
  if (others.some((g) => ladderStep(f.provider, f.stated_rtp, g.stated_rtp))) return true;
  const ladder = PROVIDER_LADDERS[f.provider];
  return (
    ladder !== undefined &&
    inLowerRung(f.provider, f.stated_rtp) &&
    others.some((g) => g.stated_rtp >= ladder.defaultBand[0] && g.stated_rtp < ladder.defaultBand[1])
  );
}

const originOfFact = (f: SourceFact) => originOf({ kind: f.tier, url: f.url, file: f.file });

/**
 * Whether a lower figure is, by the origins, another build rather than a conflict: two or more
 * origins state the published figure, and every origin that states the lower one states the published
 * one too (Wild Gladiators: the review-site scrapes give 94.07 and 96.17, the slot API 96.17), so one
 * origin lists two builds of the game. One origin alone giving two figures decides nothing.
 */
function sameOriginBuild(f: SourceFact, winner: SourceFact, facts: readonly SourceFact[]): boolean {
  if (f.stated_rtp >= winner.stated_rtp) return false;
  const stating = new Set(facts.filter((g) => g.stated_rtp === winner.stated_rtp).map(originOfFact));
  if (stating.size < 2) return false;
  return facts.filter((g) => g.stated_rtp === f.stated_rtp).every((g) => stating.has(originOfFact(g)));
}

/** The default the sources other than an operator's catalogue give a game (facts in precedence order), or why it is held back. */
function decideWithoutOperator(facts: readonly SourceFact[]): Decision {
  const pool = facts.filter((f) => !configurationOnly(f, facts));
  const candidates = pool.length > 0 ? pool : facts;
  const best = factRank(candidates[0]!);
  const winner = candidates[0]!;
  const provider = winner.provider;
  const ladder = PROVIDER_LADDERS[provider];
  // A ladder is a slot's: a table or video-poker game's figure is no rung.
  if (ladder !== undefined && winner.game_type === 'slot' && best > HAND_CHECKED_RANK && inLowerRung(provider, winner.stated_rtp)) {
    const highest = Math.max(...facts.flatMap((f) => f.variants.map((v) => v.rtp)));
    if (highest <= winner.stated_rtp)
      return {
        ok: false,
        reason: `every source states ${figure(highest)} or less: a lower build of the provider's ladder (${ladder.rungs.map(([a, b]) => `${a}-${b}`).join(', ')}), and no source states the default`,
      };
  }
  const configurations = new Map<number, VariantKind>();
  // A build the name marks ("(Flash)") is a build of the game: its kind is not stated.
  const explained = (f: SourceFact): Explanation | null =>
    f.stated_rtp === winner.stated_rtp
      ? null
      : f.build !== undefined
        ? { kind: 'unknown', rule: 'listed_figure' }
        : explain(
            provider,
            f.stated_rtp,
            winner.stated_rtp,
            facts.filter((g) => g !== f),
          );
  const conflicts: SourceFact[] = [];
  let disagree = false;
  for (const f of facts) {
    if (f.stated_rtp === winner.stated_rtp) continue;
    const why = explained(f);
    if (why !== null) {
      if (!configurations.has(f.stated_rtp)) configurations.set(f.stated_rtp, why.kind);
      continue;
    }
    if (sameOriginBuild(f, winner, facts)) {
      if (!configurations.has(f.stated_rtp)) configurations.set(f.stated_rtp, 'unknown');
      continue;
    }
    disagree = true;
    if (factRank(f) === best && Math.abs(f.stated_rtp - winner.stated_rtp) > CONFLICT_TOLERANCE + 1e-9) conflicts.push(f);
  }
  if (conflicts.length > 0) {
    return {
      ok: false,
      reason: `sources of one rank state defaults ${[winner, ...conflicts].map(at).join(' and ')}, more than ${CONFLICT_TOLERANCE} apart, and no configuration rule explains the difference`,
    };
  }
  return { ok: true, winner, configurations, disagree, note: '' };
}

/** What a licensed casino's catalogue is called in a record's notes. */
export const OPERATOR_ONLY_NOTE =
  "A licensed casino's own catalogue (711.nl) is this game's only source: it shows the build that casino runs; no other source states a figure.";

/**
 * The published default of a game (facts in precedence order), or why it is held back. A licensed
 * operator's figure is a build that casino runs, not by itself the provider's default:
 * - equal to the default the other sources give: a second origin for it;
 * - lower: a variant of kind `operator`;
 * - higher than every other source's figure: the stated RTP where the provider's ladder makes the
 *   other figures a lower rung under it (raisesDefault), else a variant, the notes saying why;
 * - where the other sources conflict and hold the game back, it settles the default;
 * - where it is the only source, it is published unless the ladder makes it a lower rung.
 */
export function decide(facts: readonly SourceFact[]): Decision {
  const ops = facts.filter((f) => f.tier === 'operator');
  if (ops.length === 0) return decideWithoutOperator(facts);
  const rest = facts.filter((f) => f.tier !== 'operator');
  const top = [...ops].sort((a, b) => b.stated_rtp - a.stated_rtp)[0]!;
  const provider = top.provider;
  const operatorBuilds = (stated: number, into: Map<number, VariantKind>) => {
    for (const f of ops) if (f.stated_rtp !== stated) into.set(f.stated_rtp, 'operator');
    return into;
  };
  if (rest.length === 0) {
    if (top.game_type === 'slot' && inLowerRung(provider, top.stated_rtp))
      return {
        ok: false,
        reason: `only a licensed casino's catalogue lists the game, at ${at(top)}: a lower build of the provider's ladder (${PROVIDER_LADDERS[provider]!.rungs.map(([a, b]) => `${a}-${b}`).join(', ')}), and no source states the default`,
      };
    return { ok: true, winner: top, configurations: operatorBuilds(top.stated_rtp, new Map()), disagree: false, note: OPERATOR_ONLY_NOTE };
  }
  const base = decideWithoutOperator(rest);
  if (!base.ok) {
    if (inLowerRung(provider, top.stated_rtp)) return base;
    return {
      ...settle(top, rest, operatorBuilds(top.stated_rtp, new Map())),
      note: `The other sources do not settle the default (${base.reason}); a licensed casino's own catalogue (711.nl) states ${figure(top.stated_rtp)}, the build it runs.`,
    };
  }
  const stated = base.winner.stated_rtp;
  const highest = Math.max(...rest.flatMap((f) => f.variants.map((v) => v.rtp)));
  if (top.stated_rtp > highest && raisesDefault(provider, top.stated_rtp, stated)) {
    return {
      ...settle(top, rest, operatorBuilds(top.stated_rtp, new Map())),
      note: `A licensed casino's own catalogue (711.nl) runs a ${figure(top.stated_rtp)} build, in the default band of the provider's ladder; every other source gives ${figure(highest)} or less, a lower rung.`,
    };
  }
  const configurations = operatorBuilds(stated, new Map(base.configurations));
  const note =
    top.stated_rtp > highest
      ? `A licensed casino's own catalogue (711.nl) runs a ${figure(top.stated_rtp)} build, higher than every other source's figure; the stated RTP stays ${figure(stated)} because no configuration rule of the provider makes that the default build.`
      : '';
  return { ok: true, winner: base.winner, configurations, disagree: base.disagree, note };
}

/** The operator's figure as the default, the other sources' figures explained as builds where a rule explains them. */
function settle(
  top: SourceFact,
  rest: readonly SourceFact[],
  configurations: Map<number, VariantKind>,
): { ok: true; winner: SourceFact; configurations: Map<number, VariantKind>; disagree: boolean } {
  let disagree = false;
  for (const f of rest) {
    if (f.stated_rtp === top.stated_rtp || configurations.has(f.stated_rtp)) continue;
    const why = explain(
      top.provider,
      f.stated_rtp,
      top.stated_rtp,
      rest.filter((g) => g !== f),
    );
    if (why === null) disagree = true;
    else configurations.set(f.stated_rtp, why.kind);
  }
  return { ok: true, winner: top, configurations, disagree };
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
