// Reload-on-change (src/lib/reload.ts): loads only when the probe changed, keeps the last good value
// when a load fails, never runs two loads at once, folds a burst of requests into one more load,
// and notices a change by polling.
import { describe, expect, it, vi } from 'vitest';
import { Reloader, type ReloaderOptions } from '../../src/lib/reload.ts';

/** A source whose version the test moves, and a Reloader over it that records what it did. */
function source(overrides: Partial<ReloaderOptions<number, string>> = {}) {
  const s = {
    version: 1,
    broken: new Set<number>(),
    loads: [] as number[],
    running: 0,
    overlapped: false,
    errors: [] as Array<[string, number | undefined]>,
    swaps: [] as Array<[number, number]>,
    gate: null as Promise<void> | null,
  };
  const options: ReloaderOptions<number, string> = {
    probe: async () => s.version,
    load: async (v) => {
      s.loads.push(v);
      s.running++;
      if (s.running > 1) s.overlapped = true;
      try {
        if (s.gate !== null) await s.gate;
        if (s.broken.has(v)) throw new Error(`version ${v} is broken`);
        return `v${v}`;
      } finally {
        s.running--;
      }
    },
    onSwap: ({ key, previous }) => s.swaps.push([previous, key]),
    onError: (err, key) => s.errors.push([(err as Error).message, key]),
    ...overrides,
  };
  return { s, options };
}

describe('Reloader', () => {
  it('loads when the probe changed, and only then (unless forced)', async () => {
    const { s, options } = source();
    const r = await Reloader.open(options);
    expect([r.current, r.key, s.loads]).toEqual(['v1', 1, [1]]);
    expect(await r.reload()).toBe(false);
    s.version = 2;
    expect(await r.reload()).toBe(true);
    expect([r.current, r.key, r.reloads]).toEqual(['v2', 2, 1]);
    expect(s.swaps).toEqual([[1, 2]]);
    expect(await r.reload({ force: true })).toBe(true);
    expect(s.loads).toEqual([1, 2, 2]);
  });

  it('keeps the last good value when a load fails, and does not retry that version until asked', async () => {
    const { s, options } = source();
    const r = await Reloader.open(options);
    s.version = 2;
    s.broken.add(2);
    expect(await r.reload()).toBe(false);
    expect(await r.reload()).toBe(false);
    expect([r.current, s.loads]).toEqual(['v1', [1, 2]]);
    expect(s.errors).toEqual([['version 2 is broken', 2]]);
    s.broken.delete(2);
    expect(await r.reload({ retryFailed: true })).toBe(true);
    expect(r.current).toBe('v2');
    // A later version is tried as soon as it appears.
    s.version = 3;
    s.broken.add(3);
    expect(await r.reload()).toBe(false);
    s.version = 4;
    expect(await r.reload()).toBe(true);
    expect(s.loads).toEqual([1, 2, 2, 3, 4]);
  });

  it('tells a failing probe once per streak, keeping the value', async () => {
    let fail = false;
    const { s, options } = source();
    const r = await Reloader.open({ ...options, probe: async () => (fail ? Promise.reject(new Error('gone')) : s.version) });
    fail = true;
    for (let k = 0; k < 3; k++) expect(await r.reload()).toBe(false);
    expect(s.errors).toEqual([['gone', undefined]]);
    await r.reload({ force: true });
    expect(s.errors).toHaveLength(2);
    fail = false;
    s.version = 2;
    expect(await r.reload()).toBe(true);
    expect(r.current).toBe('v2');
  });

  it('never runs two loads at once; requests made during a load become one more load', async () => {
    const { s, options } = source();
    const r = await Reloader.open(options);
    let open!: () => void;
    s.gate = new Promise<void>((resolve) => (open = resolve));
    s.version = 2;
    const first = r.reload();
    s.version = 3;
    const burst = [r.reload(), r.reload(), r.reload({ force: true }), r.reload()];
    expect(new Set(burst).size).toBe(1); // one queued load answers them all
    open();
    expect(await first).toBe(true);
    expect(await Promise.all(burst)).toEqual([true, true, true, true]);
    expect(s.loads).toEqual([1, 2, 3]);
    expect(s.overlapped).toBe(false);
    expect(r.current).toBe('v3');
  });

  it('notices a change by polling', async () => {
    const { s, options } = source({ pollMs: 10 });
    const r = await Reloader.open(options);
    try {
      s.version = 2;
      await vi.waitFor(() => expect(r.current).toBe('v2'), { timeout: 30_000, interval: 10 });
      expect(r.reloads).toBe(1);
    } finally {
      r.close();
    }
  });

  it('after close, reloads do nothing and idle() waits for the load under way', async () => {
    const { s, options } = source();
    const r = await Reloader.open(options);
    let open!: () => void;
    s.gate = new Promise<void>((resolve) => (open = resolve));
    s.version = 2;
    const running = r.reload();
    r.close();
    expect(await r.reload({ force: true })).toBe(false);
    let idle = false;
    const waited = r.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    open();
    await waited;
    expect(await running).toBe(true);
    expect(s.loads).toEqual([1, 2]);
  });

  it('starts from a value loaded elsewhere', async () => {
    const { s, options } = source();
    const r = new Reloader(options, { key: 1, value: 'given' });
    expect(await r.reload()).toBe(false);
    expect([r.current, s.loads]).toEqual(['given', []]);
  });
});
