// A small least-recently-used cache bounded by entry count and by a total weight (e.g. bytes).

export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  private readonly weights = new Map<K, number>();
  private total = 0;
  /** The key at the newest end of the order (a repeated get of it needs no move). */
  private newest: K | undefined;
  private readonly maxEntries: number;
  private readonly maxWeight: number;
  private readonly weigh: (value: V, key: K) => number;

  /**
   * `weigh` gives an entry's share of `maxWeight` (count the key too when the bound is bytes); an
   * entry heavier than `maxWeight` is never kept.
   */
  constructor(options: { maxEntries: number; maxWeight?: number; weigh?: (value: V, key: K) => number }) {
    this.maxEntries = options.maxEntries;
    this.maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
    this.weigh = options.weigh ?? (() => 1);
  }

  /** The value for `key`, marked as most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined || key === this.newest) return value;
    // Re-inserting moves the key to the end of the Map's iteration order (the "newest" end).
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    return value;
  }

  /** Stores `value`, evicting the least recently used entries beyond the bounds. */
  set(key: K, value: V): void {
    const weight = this.weigh(value, key);
    this.delete(key);
    if (weight > this.maxWeight || this.maxEntries <= 0) return;
    this.map.set(key, value);
    this.newest = key;
    this.weights.set(key, weight);
    this.total += weight;
    while (this.map.size > this.maxEntries || this.total > this.maxWeight) {
      const oldest = this.map.keys().next().value as K;
      this.delete(oldest);
    }
  }

  delete(key: K): void {
    if (!this.map.has(key)) return;
    if (key === this.newest) this.newest = undefined;
    this.map.delete(key);
    this.total -= this.weights.get(key) ?? 0;
    this.weights.delete(key);
  }

  clear(): void {
    this.newest = undefined;
    this.map.clear();
    this.weights.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** Sum of the weights of the entries held. */
  get weight(): number {
    return this.total;
  }
}
