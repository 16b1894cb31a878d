// Decides one game's figure from its facts: the best-ranked source states it, a known other build
// of the game becomes a variant (src/ingest/configurations.ts), and defaults of one rank that no rule
// reconciles and that lie more than CONFLICT_TOLERANCE apart hold the game back (docs/data-model.md).
import { figure } from '../lib/percent.ts';
import { originOf } from '../registry/origin.ts';
import type { VariantKind } from '../schemas/authoring.ts';
import { CONFLICT_TOLERANCE, type Explanation, explain, inLowerRung, ladderStep, namedVariant, PROVIDER_LADDERS, raisesDefault } from './configurations.ts';
import { factRank, type SourceFact } from './source.ts';

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
