// What the operator pages (/operators, /operators/{operator}) show besides the operator record's own
// figures: the builds by how far under the stated RTP they run, and the dates the sources were pinned.
import { gapPoints, lowerGaps } from '../registry/shape-operator.ts';
import type { OperatorRecord } from '../schemas/operator.ts';
import type { BarRow } from './charts.ts';
import { formatDate } from './format.ts';

/** Upper ends of the gap bands, in points under the stated RTP; a last band holds every larger gap. */
const GAP_EDGES = [0.5, 1, 2, 3, 5] as const;

const pts = (x: number) => x.toFixed(2);

/**
 * The lower builds observed, by how far under the stated RTP (the top build) they run, in bands of
 * points up to the largest band holding one; none without a lower build. They add up to the lower
 * builds the summary's `gap_mean` is taken over.
 */
export function gapRows(record: OperatorRecord): BarRow[] {
  const gaps = lowerGaps(record.games);
  const bands = [...GAP_EDGES, Number.POSITIVE_INFINITY].map((hi, i) => {
    const lo = i === 0 ? 0 : GAP_EDGES[i - 1]!;
    const label = hi === Number.POSITIVE_INFINITY ? `more than ${pts(lo)} points under` : `${pts(lo + 0.01)} to ${pts(hi)} points under`;
    return { label, count: gaps.filter((g) => g > lo && g <= hi).length };
  });
  let last = bands.length;
  while (last > 0 && bands[last - 1]!.count === 0) last--;
  return bands.slice(0, last);
}

/** The dates the operator's sources were pinned, oldest first, as the pages write them. */
export function pinnedDates(record: OperatorRecord): string[] {
  return [...new Set(record.meta.sources.map((s) => s.pinned_at))].sort().map(formatDate);
}

/** The games listed at a lower build, largest gap first (then by name): the page's table. */
export function lowerGames(record: OperatorRecord): Array<{ game: OperatorRecord['games'][number]; rtp: number; gap: number }> {
  return record.games
    .flatMap((game) => game.builds.filter((b) => b.build === 'lower').map((b) => ({ game, rtp: b.rtp, gap: gapPoints(game.stated_rtp, b.rtp) })))
    .sort((a, b) => b.gap - a.gap || a.game.name.localeCompare(b.game.name));
}
