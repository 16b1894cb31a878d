// The pool of list-answer buffers: size classes, reuse, its bound, and that a kept (cached) answer
// never shares memory with a pooled one.
import { describe, expect, it } from 'vitest';
import { compileListBundle } from '../../src/emit/list/list-bundle.ts';
import { BodyPool, POOL_MAX_BYTES, POOL_MIN_BYTES } from '../../src/lib/body-pool.ts';
import { createListHandler, listBodies } from '../../src/list/list.ts';
import { createMemoryEngine } from '../../src/list/memory-engine.ts';
import { fixtureBundle } from '../helpers/list-fixture.ts';

describe('BodyPool', () => {
  it('hands out buffers of the exact size, backed by blocks of the next power of two', () => {
    const pool = new BodyPool(1 << 20);
    for (const size of [POOL_MIN_BYTES, POOL_MIN_BYTES + 1, 40_000, 65_536, POOL_MAX_BYTES]) {
      const body = pool.take(size);
      expect(body.length).toBe(size);
      expect(body.buffer.byteLength).toBe(2 ** Math.ceil(Math.log2(size)));
      expect(pool.owns(body)).toBe(true);
    }
  });

  it('allocates sizes outside its range as usual, and never takes them back', () => {
    const pool = new BodyPool(1 << 20);
    for (const size of [0, 100, POOL_MIN_BYTES - 1, POOL_MAX_BYTES + 1]) {
      const body = pool.take(size);
      expect(body.length).toBe(size);
      expect(pool.owns(body)).toBe(false);
      pool.give(body);
      expect(pool.owns(body)).toBe(false);
    }
  });

  it('reuses a block once it is given back, and only then', () => {
    const pool = new BodyPool(1 << 20);
    const a = pool.take(40_000);
    const b = pool.take(40_000);
    expect(b.buffer).not.toBe(a.buffer);
    pool.give(a);
    expect(pool.owns(a)).toBe(false);
    const c = pool.take(33_000);
    expect(c.buffer).toBe(a.buffer);
    expect(pool.take(40_000).buffer).not.toBe(b.buffer); // b is still out
  });

  it('ignores a body given back twice, and buffers it did not make', () => {
    const pool = new BodyPool(1 << 20);
    const a = pool.take(10_000);
    pool.give(a);
    pool.give(a);
    pool.give(Buffer.alloc(10_000));
    const b = pool.take(10_000);
    const c = pool.take(10_000);
    expect(b.buffer).toBe(a.buffer);
    expect(c.buffer).not.toBe(a.buffer); // not handed out twice
  });

  it('keeps at most its bound of free bytes', () => {
    const pool = new BodyPool(100_000);
    const bodies = [1, 2, 3, 4].map(() => pool.take(32_768));
    for (const body of bodies) pool.give(body);
    // 3 blocks of 32 KiB fit in 100,000 bytes; the fourth was left to the garbage collector.
    const again = [1, 2, 3, 4].map(() => pool.take(32_768));
    const given = new Set(bodies.map((b) => b.buffer));
    expect(again.filter((b) => given.has(b.buffer))).toHaveLength(3);
    expect(new Set(again.map((b) => b.buffer)).size).toBe(4);
  });

  it('with a bound of 0 keeps nothing', () => {
    const pool = new BodyPool(0);
    const body = pool.take(10_000);
    expect(pool.owns(body)).toBe(false);
  });
});

describe('list answers in pooled buffers', () => {
  const bundle = fixtureBundle(300);
  const engine = createMemoryEngine(compileListBundle(bundle, Buffer.from(JSON.stringify(bundle))));

  it('writes answers into pooled buffers, and keeps a copy of a whole answer it caches', () => {
    const handler = createListHandler(engine, {});
    const first = handler('limit=100');
    expect(first.body.length).toBeGreaterThan(POOL_MIN_BYTES);
    expect(listBodies.owns(first.body)).toBe(true);
    const bytes = Buffer.from(first.body);
    const kept = handler('limit=100'); // second sighting: its whole answer is kept, as a copy
    expect(kept.body.equals(bytes)).toBe(true);
    expect(listBodies.owns(kept.body)).toBe(false);
    expect(handler('limit=100')).toBe(kept);
    // The pooled answer goes back and is overwritten: the kept answer keeps its bytes.
    listBodies.give(first.body);
    const reused = listBodies.take(first.body.buffer.byteLength);
    expect(reused.buffer).toBe(first.body.buffer);
    reused.fill(0x20);
    expect(handler('limit=100').body.equals(bytes)).toBe(true);
  });
});
