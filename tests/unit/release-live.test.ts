// The server's live release: loads a link's target fully before swapping one reference, ignores
// unchanged targets, keeps serving when a new release fails to load; and the list route's cache
// never answers with another data version once the services are swapped.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { servicesFor } from '../../scripts/lib/services.ts';
import type { RegistryServices } from '../../src/list/service.ts';
import { makeBundle } from '../../src/registry/bundle.ts';
import { loadRegistryOrThrow } from '../../src/registry/load.ts';
import { switchCurrent } from '../../src/release/store.ts';
import { LiveRelease } from '../../src/server/live-release.ts';
import { makeFixtureRegistry, removeFixtureDir } from '../fixtures/registry.ts';

let dir: string;
const A = '1.0.0-aaaaaaaaaaaa';
const B = '1.1.0-bbbbbbbbbbbb';
let lives: Array<LiveRelease<unknown>> = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rtp-live-'));
  for (const n of [A, B]) {
    await mkdir(path.join(dir, n));
    await writeFile(path.join(dir, n, 'version'), n);
  }
  await switchCurrent(dir, A);
});
afterEach(async () => {
  for (const l of lives) l.close();
  lives = [];
  await rm(dir, { recursive: true, force: true });
});

async function open(load: (real: string) => Promise<string>, pollMs = 0): Promise<LiveRelease<string>> {
  const live = await LiveRelease.open({ outDir: path.join(dir, 'current'), load, pollMs, log: () => undefined });
  lives.push(live as LiveRelease<unknown>);
  return live;
}
const readVersion = async (real: string) => path.basename(real);

describe('LiveRelease', () => {
  it('loads the real folder behind the link, never the link itself', async () => {
    const seen: string[] = [];
    const live = await open(async (real) => {
      seen.push(real);
      return readVersion(real);
    });
    expect(live.current).toBe(A);
    expect(seen).toEqual([await realpath(path.join(dir, A))]);
  });

  it('swaps when the target changed, does nothing when it did not (unless forced)', async () => {
    let loads = 0;
    const live = await open(async (real) => {
      loads++;
      return readVersion(real);
    });
    expect(await live.reload(false)).toBe(false);
    expect(loads).toBe(1);
    await switchCurrent(dir, B);
    expect(await live.reload(false)).toBe(true);
    expect(live.current).toBe(B);
    expect(await live.reload(true)).toBe(true);
    expect(loads).toBe(3);
  });

  it('keeps the current release until the next one is completely loaded', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let first = true;
    let entered: () => void = () => undefined;
    const loadingB = new Promise<void>((r) => (entered = r));
    const live = await open(async (real) => {
      if (!first) {
        entered();
        await gate;
      }
      first = false;
      return readVersion(real);
    });
    await switchCurrent(dir, B);
    const swapping = live.reload(false);
    await loadingB;
    expect(live.current).toBe(A); // still loading B
    release();
    expect(await swapping).toBe(true);
    expect(live.current).toBe(B);
  });

  it('a release that fails to load leaves the old one serving and is not retried by polling', async () => {
    let loads = 0;
    const lines: string[] = [];
    const live = await LiveRelease.open({
      outDir: path.join(dir, 'current'),
      load: async (real) => {
        loads++;
        if (path.basename(real) === B) throw new Error('registry bundle is not valid JSON');
        return path.basename(real);
      },
      log: (l) => lines.push(l),
    });
    lives.push(live as LiveRelease<unknown>);
    await switchCurrent(dir, B);
    expect(await live.reload(false)).toBe(false);
    expect(await live.reload(false)).toBe(false);
    expect(loads).toBe(2);
    expect(live.current).toBe(A);
    expect(lines[0]).toMatch(/^release: keeping .*1\.0\.0-aaaaaaaaaaaa: loading .*1\.1\.0-bbbbbbbbbbbb failed: registry bundle is not valid JSON$/);
  });

  it('notices a switch by polling the link', async () => {
    const live = await open(readVersion, 10);
    await switchCurrent(dir, B);
    await vi.waitFor(() => expect(live.current).toBe(B), { timeout: 30_000, interval: 10 });
    expect(live.reloads).toBe(1);
  });
});

describe('the list cache across a swap', () => {
  let dataA: string;
  let dataB: string;
  beforeEach(async () => {
    dataA = await makeFixtureRegistry();
    dataB = await makeFixtureRegistry({ meta: { data_version: '1.1.0' } });
  });
  afterEach(async () => {
    await removeFixtureDir(dataA);
    await removeFixtureDir(dataB);
  });

  it('is per services instance, so a cached query answers with the new data version right after the swap', async () => {
    const services: Record<string, RegistryServices> = {
      [A]: servicesFor(makeBundle(await loadRegistryOrThrow(dataA))),
      [B]: servicesFor(makeBundle(await loadRegistryOrThrow(dataB))),
    };
    const live = await open(readVersion);
    const list = (q: string) => JSON.parse(services[live.current]!.list(q).body.toString()) as { meta: { data_version: string } };
    expect(list('q=book&limit=5').meta.data_version).toBe('1.0.0');
    expect(list('q=book&limit=5').meta.data_version).toBe('1.0.0'); // now cached
    await switchCurrent(dir, B);
    await live.reload(false);
    expect(list('q=book&limit=5').meta.data_version).toBe('1.1.0');
    expect(services[A]!.list('q=book&limit=5')).toBe(services[A]!.list('q=book&limit=5')); // the old cache held it
  });
});
