// Configuration rules: when a figure a source states for a game is a known other build of that
// game (a lower operator build, a bought feature) rather than a competing default. Such a figure
// becomes a variant of its kind; a difference no rule explains is a disagreement, and above
// CONFLICT_TOLERANCE between sources of one rank it holds the game back (src/ingest/merge.ts).
// docs/data-model.md, "Configuration rules", gives each rule with real examples.
import type { VariantKind } from '../schemas/authoring.ts';
import type { SourceFact } from './source.ts';

/** Defaults of one rank further apart than this (in points) that no rule explains hold a game back. */
export const CONFLICT_TOLERANCE = 0.5;

/** A provider's RTP ladder: the band of its default builds and the bands of its lower builds, each [from, to). */
export interface Ladder {
  defaultBand: readonly [number, number];
  rungs: ReadonlyArray<readonly [number, number]>;
}

/**
 * Providers whose lower builds sit in fixed bands. Play'n GO builds most games at 96.x and offers
 * casinos the same game at 94.x, 91.x, 87.x and 84.x (Book of Dead: 96.21, 94.25, 91.25, 87.25,
 * 84.18 in the hand-checked seed); its older games sit about two points lower, at 95.5-96 with a
 * 93.5-94 build (Jewel Box 95.78 and 93.96, Mystery Joker 96.98 at a licensed casino and 93.99
 * elsewhere), so the default band starts at 95.5 and the first rung at 93.5.
 */
export const PROVIDER_LADDERS: Readonly<Record<string, Ladder>> = {
  playngo: {
    defaultBand: [95.5, 97],
    rungs: [
      [93.5, 95],
      [91, 92],
      [87, 88],
      [84, 85],
    ],
  },
};

/**
 * Providers whose lower builds sit a whole number of points under the default, whatever the
 * default: Pragmatic Play offers its games one and two points lower (Panther Queen 96.50 and 95.50,
 * Pixie Wings 96.67 and 95.66, Jurassic Giants 96.01 and 95.02). A figure within `tolerance` of
 * such a step under the default is a lower build.
 */
export const PROVIDER_STEPS: Readonly<Record<string, { steps: readonly number[]; tolerance: number }>> = {
  'pragmatic-play': { steps: [1, 2], tolerance: 0.02 },
};

/** Whether `x` is a step of `provider`'s ladder under `defaultRtp` (PROVIDER_STEPS). */
export function ladderStep(provider: string, x: number, defaultRtp: number): boolean {
  const s = PROVIDER_STEPS[provider];
  return s?.steps.some((d) => Math.abs(defaultRtp - d - x) <= s.tolerance + 1e-9) ?? false;
}

/** The kinds a source names for a build other than the default. */
const NAMED_KINDS: ReadonlySet<VariantKind> = new Set(['operator_ladder', 'bonus_buy', 'ante_bet', 'player_config', 'feature', 'jurisdiction']);

const within = (x: number, [from, to]: readonly [number, number]) => x >= from && x < to;

/** The rung of `provider`'s ladder that holds `x`, when `x` is a lower build of a default in the ladder's default band. */
export function ladderRung(provider: string, x: number, defaultRtp: number): readonly [number, number] | null {
  const ladder = PROVIDER_LADDERS[provider];
  if (ladder === undefined || !within(defaultRtp, ladder.defaultBand)) return null;
  return ladder.rungs.find((r) => within(x, r)) ?? null;
}

/** Whether `x` lies in a lower rung of `provider`'s ladder (whatever the default). */
export function inLowerRung(provider: string, x: number): boolean {
  return PROVIDER_LADDERS[provider]?.rungs.some((r) => within(x, r)) ?? false;
}

/**
 * Whether an operator's figure `x`, higher than every other source's, is the provider's default:
 * `x` lies in the default band of the provider's ladder and the published figure `stated` below
 * it, so the other sources give a lower rung (Mystery Joker: 96.98 at a licensed casino, 93.99
 * elsewhere). Without a ladder nothing says which build is the default.
 */
export function raisesDefault(provider: string, x: number, stated: number): boolean {
  const ladder = PROVIDER_LADDERS[provider];
  return ladder !== undefined && within(x, ladder.defaultBand) && stated < ladder.defaultBand[0];
}

/** The configuration rules that explain a figure as another build (the range-minimum rule is the slotcatalog adapter's). */
export type Rule = 'named_variant' | 'provider_ladder' | 'listed_figure';

/** Which build a figure is, and by which rule. */
export interface Explanation {
  kind: VariantKind;
  rule: Rule;
}

/**
 * A source names `x` as a build of a kind (a bonus buy, an ante bet, an operator build...): rule
 * "named variant". Sweet Bonanza 1000: the slot data API lists 96.50 as its bonus buy.
 */
export function namedVariant(x: number, facts: readonly SourceFact[]): Explanation | null {
  for (const f of facts) for (const v of f.variants) if (v.rtp === x && NAMED_KINDS.has(v.kind)) return { kind: v.kind, rule: 'named_variant' };
  return null;
}

/**
 * Why `x`, stated by a source as its figure for a game whose default is `defaultRtp`, is another
 * build of the game, or null when no rule explains it:
 * - named variant: a source names `x` as a build of a kind (that kind);
 * - provider ladder: `x` is a lower rung of the provider's ladder under a default in its band, or a
 *   step of its ladder under the default (`operator_ladder`);
 * - listed figure: a source stating the default lists `x` among the game's figures (the kind it gives, else `unknown`).
 */
export function explain(provider: string, x: number, defaultRtp: number, facts: readonly SourceFact[]): Explanation | null {
  const named = namedVariant(x, facts);
  if (named !== null) return named;
  if (x < defaultRtp && (ladderRung(provider, x, defaultRtp) !== null || ladderStep(provider, x, defaultRtp)))
    return { kind: 'operator_ladder', rule: 'provider_ladder' };
  for (const f of facts) {
    if (f.stated_rtp !== defaultRtp) continue;
    const v = f.variants.find((w) => w.rtp === x);
    if (v !== undefined) return { kind: v.kind === 'standard' ? 'unknown' : v.kind, rule: 'listed_figure' };
  }
  return null;
}
