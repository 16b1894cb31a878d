import { describe, expect, it } from 'vitest';
import { pairedRatios, percentileOfSorted, summarize } from '../../scripts/bench/stats.ts';

const percentile = (values: number[], p: number) =>
  percentileOfSorted(
    [...values].sort((a, b) => a - b),
    p,
  );

describe('the median of a summary', () => {
  const median = (values: number[]) => summarize(values).median;
  it('takes the middle value of an odd count, unsorted input', () => {
    expect(median([5, 1, 3])).toBe(3);
  });
  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('leaves its input untouched', () => {
    const v = [3, 1, 2];
    median(v);
    expect(v).toEqual([3, 1, 2]);
  });
  it('rejects an empty list and non-finite values', () => {
    expect(() => median([])).toThrow('summary of an empty list');
    expect(() => median([1, Number.NaN])).toThrow('not a finite number');
  });
});

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
  it('gives the value at rank ceil(p/100 * n)', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
  });
  it('handles small samples', () => {
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
  });
  it('works on typed arrays already sorted', () => {
    expect(percentileOfSorted(Float64Array.from([0.1, 0.2, 0.3, 10]), 75)).toBeCloseTo(0.3);
  });
  it('rejects out-of-range p', () => {
    expect(() => percentile([1], 101)).toThrow('percentile out of range');
  });
});

describe('summarize and ratios', () => {
  it('reports median, min, max and count', () => {
    expect(summarize([3, 9, 1])).toEqual({ median: 3, min: 1, max: 9, n: 3 });
  });
  it('pairs ratios round by round', () => {
    expect(pairedRatios([10, 20, 30], [5, 5, 10])).toEqual({ median: 3, min: 2, max: 4, n: 3 });
    expect(() => pairedRatios([1], [1, 2])).toThrow('differ in length');
  });
});
