// Summary statistics for benchmark samples: median, min-max, percentiles and ratios of medians.

import { median } from '../../src/registry/shape.ts';
import type { Summary } from './results.ts';

function sorted(values: readonly number[]): number[] {
  for (const v of values) if (!Number.isFinite(v)) throw new Error(`stats: not a finite number: ${v}`);
  return [...values].sort((a, b) => a - b);
}

/**
 * Percentile p (0..100) of an ascending array by the nearest-rank method: the smallest value with at
 * least p% of the samples at or below it (p=50 on an even count gives the lower middle value).
 */
export function percentileOfSorted(s: ArrayLike<number>, p: number): number {
  if (s.length === 0) throw new Error('stats: percentile of an empty list');
  if (!(p >= 0 && p <= 100)) throw new Error(`stats: percentile out of range: ${p}`);
  const rank = Math.max(1, Math.ceil((p / 100) * s.length));
  return s[Math.min(rank, s.length) - 1]!;
}

/** Median (the mean of the middle two for an even count) with min and max. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error('stats: summary of an empty list');
  const s = sorted(values);
  return { median: median(s), min: s[0]!, max: s[s.length - 1]!, n: s.length };
}

/**
 * Pairwise ratios a[i] / b[i] of measurements taken in the same round (so drift between rounds
 * cancels), summarised. The lists must have the same length.
 */
export function pairedRatios(a: readonly number[], b: readonly number[]): Summary {
  if (a.length !== b.length) throw new Error(`stats: paired lists differ in length (${a.length} vs ${b.length})`);
  return summarize(a.map((x, i) => x / b[i]!));
}
