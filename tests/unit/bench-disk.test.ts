// The bench's disk check: a build run it cannot afford is named, with what is free and needed.
import os from 'node:os';
import { statfsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diskShortfall } from '../../scripts/bench/build.ts';

describe('diskShortfall', () => {
  it('does not guess before the first build', () => {
    expect(diskShortfall(os.tmpdir(), 250_000, 0)).toBeNull();
  });

  it('lets a small run through and names a run larger than the free space', () => {
    const fs = statfsSync(os.tmpdir());
    const freeGiB = (fs.bavail * fs.bsize) / 1024 ** 3;
    expect(diskShortfall(os.tmpdir(), 10, 1000)).toBeNull();
    const short = diskShortfall(os.tmpdir(), 1000, fs.bavail * fs.bsize);
    expect(short).toMatch(/^\d+\.\d GiB free, about \d+\.\d GiB needed \(a build and its baseline\)$/);
    expect(Number(/^(\d+\.\d)/.exec(short!)![1])).toBeCloseTo(freeGiB, 0);
  });
});
