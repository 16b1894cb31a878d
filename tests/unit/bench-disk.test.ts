// The bench's disk check: a build run it cannot afford is named, with what is free and needed.
// The free space is a fixed figure here (statfsSync stubbed): the verdict never depends on this machine's disk.
import { describe, expect, it, vi } from 'vitest';

const GiB = 1024 ** 3;
const disk = vi.hoisted(() => ({ freeBytes: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const statfsSync = () => ({ bsize: 4096, bavail: disk.freeBytes / 4096 });
  return { ...fs, default: { ...fs, statfsSync }, statfsSync };
});
const { diskShortfall } = await import('../../scripts/bench/build.ts');

describe('diskShortfall', () => {
  it('does not guess before the first build', () => {
    disk.freeBytes = 0;
    expect(diskShortfall('/work', 250_000, 0)).toBeNull();
  });

  it('lets a run through while a build and its baseline fit, with 2 GiB to spare', () => {
    disk.freeBytes = 10 * GiB;
    expect(diskShortfall('/work', 10, 1000)).toBeNull();
    // need = 2 × games × bytes per game + 2 GiB: exactly the free space still fits.
    expect(diskShortfall('/work', 4, GiB)).toBeNull();
  });

  it('names a run larger than the free space, with both figures', () => {
    disk.freeBytes = 10 * GiB;
    expect(diskShortfall('/work', 5, GiB)).toBe('10.0 GiB free, about 12.0 GiB needed (a build and its baseline)');
    disk.freeBytes = 1.5 * GiB;
    expect(diskShortfall('/work', 1000, 1000)).toBe('1.5 GiB free, about 2.0 GiB needed (a build and its baseline)');
  });
});
