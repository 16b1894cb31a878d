// The LRU behind the response, search and static caches: recency order, bounds, weights.
import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/list/lru.ts';

describe('Lru', () => {
  it('evicts the least recently used entry, a repeated get of the newest included', () => {
    const lru = new Lru<string, number>({ maxEntries: 3 });
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1); // a is now the newest
    expect(lru.get('a')).toBe(1); // still the newest: no move needed
    lru.set('d', 4); // evicts b
    expect([lru.get('b'), lru.get('c'), lru.get('a'), lru.get('d')]).toEqual([undefined, 3, 1, 4]);
    lru.set('e', 5); // order now c, a, d, e: evicts c
    expect(lru.get('c')).toBeUndefined();
    expect(lru.size).toBe(3);
  });

  it('forgets the newest key when it is deleted or cleared', () => {
    const lru = new Lru<string, number>({ maxEntries: 2 });
    lru.set('a', 1);
    lru.set('b', 2);
    lru.delete('b');
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1); // moves a after c
    lru.set('d', 4); // evicts c
    expect([lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([1, undefined, 4]);
    lru.clear();
    expect(lru.get('d')).toBeUndefined();
    lru.set('d', 5);
    expect(lru.get('d')).toBe(5);
  });

  it('bounds the total weight and never keeps a value heavier than the bound', () => {
    const lru = new Lru<string, string>({ maxEntries: 10, maxWeight: 5, weigh: (v) => v.length });
    lru.set('a', 'xx');
    lru.set('b', 'yyy');
    lru.set('c', 'zz'); // 7 > 5: evicts a
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([undefined, 'yyy', 'zz']);
    expect(lru.weight).toBe(5);
    lru.set('big', 'toolong');
    expect(lru.get('big')).toBeUndefined();
  });
});
