// Byte-bounded caches and memo maps (src/lib/bounded.ts): bounds in bytes, and a bound of 0 keeps nothing.
import { describe, expect, it } from 'vitest';
import { ByteBoundedMap, byteLru } from '../../src/lib/bounded.ts';

describe('byteLru', () => {
  it('keeps entries up to its byte bound, evicting the least recently used', () => {
    const lru = byteLru<{ n: number }>(300, 100, (v) => v.n);
    lru.set('a', { n: 100 });
    lru.set('b', { n: 100 });
    lru.get('a');
    lru.set('c', { n: 150 });
    expect([...lru.keys()].sort()).toEqual(['a', 'c']);
    expect(lru.calculatedSize).toBeLessThanOrEqual(300);
  });

  it('never keeps an entry heavier than the bound', () => {
    const lru = byteLru<{ n: number }>(100, 10, (v) => v.n);
    lru.set('big', { n: 101 });
    expect(lru.size).toBe(0);
  });

  it('with a bound of 0, opens and keeps nothing', () => {
    const lru = byteLru<{ n: number }>(0, 10, (v) => v.n);
    lru.set('a', { n: 1 });
    lru.set('b', { n: 0 });
    expect(lru.size).toBe(0);
    expect(lru.get('a')).toBeUndefined();
  });
});

describe('ByteBoundedMap', () => {
  it('starts afresh when the next entry would pass its bound', () => {
    const map = new ByteBoundedMap(200);
    for (let k = 0; k < 100; k++) map.set(`key-${k}`, 'v');
    expect(map.get('key-99')).toBe('v');
    expect(map.get('key-0')).toBeUndefined();
  });
});
